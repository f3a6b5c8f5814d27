/* siren's fallback kernel headers (kernel/README.md): kmalloc and kzalloc are siren's
 * (kernel/include/linux/slab.h, which includes this one next); kfree frees. */
#ifndef _LINUX_SLAB_FALLBACK_H
#define _LINUX_SLAB_FALLBACK_H

#include <linux/types.h>

#define GFP_KERNEL 0xd0u
#define GFP_ATOMIC 0x20u
void free(void *p);
static inline void kfree(const void *p) { free((void *)p); }

#endif
