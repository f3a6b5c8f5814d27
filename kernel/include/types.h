/* siren's kernel model: Whoop's Model/asm/ebcdic.h includes "types.h", which its model does
 * not have (the kernel's asm/types.h): the kernel's integer types. */
#ifndef SIREN_TYPES_H
#define SIREN_TYPES_H
#include <linux/types.h>
#endif
