/* siren's fallback kernel headers (kernel/README.md): a misc device; registering it may fail
 * (-EBUSY), and the kernel then never calls its operations. */
#ifndef _LINUX_MISCDEVICE_H
#define _LINUX_MISCDEVICE_H

#include <linux/fs.h>

#define MISC_DYNAMIC_MINOR 255

struct miscdevice {
  int minor;
  const char *name;
  const struct file_operations *fops;
};

static inline int misc_register(struct miscdevice *misc) {
  (void)misc;
  return __VERIFIER_nondet_bool() ? 0 : -16;
}
static inline int misc_deregister(struct miscdevice *misc) {
  (void)misc;
  return 0;
}

#endif
