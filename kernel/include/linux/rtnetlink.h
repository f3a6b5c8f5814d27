/* siren's kernel model (kernel/README.md): the routing netlink lock, one kernel-wide mutex.
 * The kernel calls most net_device_ops functions and every ethtool_ops function with it held
 * (the harness takes it around them: docs/drivers.md), and drivers take it in their own work
 * items (8139too's rtl8139_thread). Replaces Whoop's Model/linux/rtnetlink.h (ASSERT_RTNL
 * only: rtnl_lock had no declaration there, so it was a function without a body). */
#ifndef __LINUX_RTNETLINK_H
#define __LINUX_RTNETLINK_H

#include <siren_kernel.h>

static pthread_mutex_t __siren_rtnl = SIREN_MUTEX_INITIALIZER;

static inline void rtnl_lock(void) { pthread_mutex_lock(&__siren_rtnl); }
static inline void rtnl_unlock(void) { pthread_mutex_unlock(&__siren_rtnl); }
/* 1 when taken, 0 when another holds it */
static inline int rtnl_trylock(void) { return pthread_mutex_trylock(&__siren_rtnl) == 0; }
static inline void ASSERT_RTNL(void) { }

#endif
