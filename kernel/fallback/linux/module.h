/* siren's fallback kernel headers (kernel/README.md). */
#ifndef _LINUX_MODULE_H
#define _LINUX_MODULE_H

#include <linux/init.h>
#include <linux/kernel.h>

struct module;
#define THIS_MODULE ((struct module *)0)
#define MODULE_LICENSE(s)
#define MODULE_AUTHOR(s)
#define MODULE_DESCRIPTION(s)
#define MODULE_VERSION(s)
#define MODULE_ALIAS(s)
#define MODULE_PARM_DESC(name, s)
#define MODULE_DEVICE_TABLE(type, name)
#define module_param(name, type, perm)
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)

#endif
