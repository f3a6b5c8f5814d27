/* siren's fallback kernel headers (kernel/README.md): files and their operations, the fields a
 * small character device uses. register_chrdev may fail. */
#ifndef _LINUX_FS_H
#define _LINUX_FS_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <siren_kernel.h>

struct module;
struct poll_table_struct;
struct vm_area_struct;

struct inode {
  unsigned long i_ino;
  dev_t i_rdev;
  void *i_private;
};

struct file {
  loff_t f_pos;
  unsigned int f_flags;
  unsigned int f_mode;
  void *private_data;
};

struct file_operations {
  struct module *owner;
  loff_t (*llseek)(struct file *, loff_t, int);
  ssize_t (*read)(struct file *, char __user *, size_t, loff_t *);
  ssize_t (*write)(struct file *, const char __user *, size_t, loff_t *);
  unsigned int (*poll)(struct file *, struct poll_table_struct *);
  long (*unlocked_ioctl)(struct file *, unsigned int, unsigned long);
  long (*compat_ioctl)(struct file *, unsigned int, unsigned long);
  int (*mmap)(struct file *, struct vm_area_struct *);
  int (*open)(struct inode *, struct file *);
  int (*flush)(struct file *, void *);
  int (*release)(struct inode *, struct file *);
  int (*fsync)(struct file *, loff_t, loff_t, int);
};

static inline int register_chrdev(unsigned int major, const char *name, const struct file_operations *fops) {
  (void)major, (void)name, (void)fops;
  return __VERIFIER_nondet_bool() ? 0 : -16;
}
static inline void unregister_chrdev(unsigned int major, const char *name) { (void)major, (void)name; }
static inline int nonseekable_open(struct inode *inode, struct file *filp) {
  (void)inode, (void)filp;
  return 0;
}
loff_t no_llseek(struct file *file, loff_t offset, int whence);

#endif
