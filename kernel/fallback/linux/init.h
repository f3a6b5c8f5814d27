/* siren's fallback kernel headers (kernel/README.md): module_init and module_exit name the
 * module's init and exit functions as siren's driver scan reads them (docs/drivers.md). */
#ifndef _LINUX_INIT_H
#define _LINUX_INIT_H

#include <linux/compiler.h>
#include <linux/types.h>

#define __init
#define __initdata
#define __exit
#define __exitdata
#define __exit_p(x) x

#define module_init(fn) int (*__siren_module_init)(void) = fn;
#define module_exit(fn) void (*__siren_module_exit)(void) = fn;
#define late_initcall(fn) module_init(fn)

#endif
