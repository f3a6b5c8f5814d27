/* siren's kernel model (kernel/README.md): user-space copies. copy_from_user writes n
 * arbitrary bytes into the kernel buffer (byte by byte: an unsigned char access must fit the
 * buffer's cells, else the answer is a memory-safety UNKNOWN) and copy_to_user reads n bytes
 * of it, so that races on the kernel buffer are seen; both may fail part-way (a fault in
 * user memory) and return the bytes not copied. Replaces Whoop's Model/linux/uaccess.h, whose
 * copies touch nothing. get_user / put_user are declared as there. */
#ifndef __i386_UACCESS_H
#define __i386_UACCESS_H

#include <linux/errno.h>
#include <linux/string.h>
#include <siren_kernel.h>

#define VERIFY_READ 0
#define VERIFY_WRITE 1

int access_ok(int type, const void *addr, unsigned long size);
int __get_user(int size, void *ptr);
int get_user(int size, void *ptr);
int __put_user(int size, void *ptr);
int put_user(int size, void *ptr);

extern unsigned char __VERIFIER_nondet_uchar(void);

static inline unsigned long copy_to_user(void __user *to, const void *from, unsigned long n) {
  unsigned long done = 0;
  (void)to;
  while (done < n && __VERIFIER_nondet_bool()) {  /* the user page may fault: fewer bytes */
    volatile unsigned char sink = ((const unsigned char *)from)[done];
    (void)sink;
    ++done;
  }
  return n - done;
}

static inline unsigned long copy_from_user(void *to, const void __user *from, unsigned long n) {
  unsigned long done = 0;
  (void)from;
  while (done < n && __VERIFIER_nondet_bool()) {
    ((unsigned char *)to)[done] = __VERIFIER_nondet_uchar();
    ++done;
  }
  return n - done;
}

#endif
