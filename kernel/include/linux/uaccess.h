/* siren's kernel model (kernel/README.md): user-space copies. Replaces Whoop's
 * Model/linux/uaccess.h, whose copies touch nothing (and whose asm/uaccess.h shares its include
 * guard, so that including it first left the model out: kernel/include/asm/uaccess.h).
 *
 * copy_from_user(to, from, n) writes arbitrary data into the kernel buffer and copy_to_user
 * reads it, so that races on the kernel buffer are seen; both may fail part-way (a fault in
 * user memory) and return the bytes not copied.
 *  - A byte buffer (char *, void *): n bytes, one at a time (a byte access must fit the
 *    buffer's cells, else the answer is a memory-safety UNKNOWN).
 *  - Any other pointer (&a_struct, an int array): the whole object it designates, as for any
 *    kernel function without a body (docs/drivers.md, "Kernel functions without a body").
 * get_user(x, p) stores an arbitrary value in x (0 on a fault, -EFAULT returned); put_user(x, p)
 * reads x. The user pointers themselves are never dereferenced. */
#ifndef SIREN_LINUX_UACCESS_H
#define SIREN_LINUX_UACCESS_H
#define __i386_UACCESS_H /* Whoop's guard: its own uaccess.h stays out */

#include <linux/errno.h>
#include <linux/string.h>
#include <siren_kernel.h>

#ifndef __user
#define __user
#endif

#define VERIFY_READ 0
#define VERIFY_WRITE 1

int access_ok(int type, const void *addr, unsigned long size);

extern unsigned char __VERIFIER_nondet_uchar(void);

static inline unsigned long __siren_copy_to_user_bytes(void __user *to, const void *from, unsigned long n) {
  unsigned long done = 0;
  (void)to;
  while (done < n && __VERIFIER_nondet_bool()) { /* the user page may fault: fewer bytes */
    volatile unsigned char sink = ((const unsigned char *)from)[done];
    (void)sink;
    ++done;
  }
  return n - done;
}

static inline unsigned long __siren_copy_from_user_bytes(void *to, const void __user *from, unsigned long n) {
  unsigned long done = 0;
  (void)from;
  while (done < n && __VERIFIER_nondet_bool()) {
    ((unsigned char *)to)[done] = __VERIFIER_nondet_uchar();
    ++done;
  }
  return n - done;
}

/* No body: the front end reads (copy_to_user) or writes (copy_from_user) the object `to` /
 * `from` designates. */
unsigned long __siren_copy_to_user(const void __user *to, const void *from, unsigned long n);
unsigned long __siren_copy_from_user(void *to, const void __user *from, unsigned long n);

#define copy_to_user(to, from, n)                                                                  \
  _Generic((from), char *: __siren_copy_to_user_bytes, const char *: __siren_copy_to_user_bytes,   \
           unsigned char *: __siren_copy_to_user_bytes, const unsigned char *: __siren_copy_to_user_bytes, \
           void *: __siren_copy_to_user_bytes, const void *: __siren_copy_to_user_bytes,           \
           default: __siren_copy_to_user)(to, from, n)
#define copy_from_user(to, from, n)                                                                \
  _Generic((to), char *: __siren_copy_from_user_bytes, unsigned char *: __siren_copy_from_user_bytes, \
           void *: __siren_copy_from_user_bytes, default: __siren_copy_from_user)(to, from, n)
#define __copy_to_user(to, from, n) copy_to_user(to, from, n)
#define __copy_from_user(to, from, n) copy_from_user(to, from, n)

#define get_user(x, ptr)                                                                           \
  ((void)(ptr), __VERIFIER_nondet_bool() ? ((x) = 0, -EFAULT) : ((x) = (__typeof__(x))__VERIFIER_nondet_long(), 0))
#define put_user(x, ptr) ((void)(ptr), (void)(x), __VERIFIER_nondet_bool() ? -EFAULT : 0)
#define __get_user(x, ptr) get_user(x, ptr)
#define __put_user(x, ptr) put_user(x, ptr)

#endif
