/* siren's fallback kernel headers (kernel/README.md): the kernel's error numbers. */
#ifndef _LINUX_ERRNO_H
#define _LINUX_ERRNO_H

#define EPERM 1
#define ENOENT 2
#define EINTR 4
#define EIO 5
#define ENXIO 6
#define E2BIG 7
#define EBADF 9
#define EAGAIN 11
#define ENOMEM 12
#define EACCES 13
#define EFAULT 14
#define EBUSY 16
#define EEXIST 17
#define ENODEV 19
#define EINVAL 22
#define ENOSPC 28
#define ESPIPE 29
#define ERANGE 34
#define ENOSYS 38
#define ENOTTY 25
#define ERESTARTSYS 512

#endif
