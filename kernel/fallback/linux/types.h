/* siren's fallback kernel headers (kernel/README.md): used only where no driver model on the
 * include path has this header (`siren race` on a kernel module without -I). */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ssize_t;
typedef long long loff_t;
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;
typedef unsigned int gfp_t;
typedef unsigned short umode_t;
typedef unsigned int dev_t;
typedef _Bool bool;
#define true 1
#define false 0
#ifndef NULL
#define NULL ((void *)0)
#endif

#endif
