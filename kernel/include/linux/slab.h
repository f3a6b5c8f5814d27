/* siren's kernel model (kernel/README.md): kmalloc and kzalloc allocate the size asked for
 * (kzalloc zeroed) and may fail (null), as the kernel's. Whoop's Model/linux/slab.h (included
 * next, its two functions renamed out of the way) allocates sizeof(size), 8 bytes, whatever
 * the size: every driver struct allocated with it would be out of bounds. Macros, so that the
 * allocation takes the type of the pointer it is stored in (`dev = kzalloc(sizeof(*dev), ..)`
 * makes one struct, exactly as `malloc` there does). */
#ifndef SIREN_LINUX_SLAB_H
#define SIREN_LINUX_SLAB_H

#define kmalloc __whoop_kmalloc
#define kzalloc __whoop_kzalloc
#include_next <linux/slab.h>
#undef kmalloc
#undef kzalloc

void *calloc(size_t nmemb, size_t size);
#define kmalloc(size, flags) __builtin_malloc(size)
#define kzalloc(size, flags) calloc(1, size)

#endif
