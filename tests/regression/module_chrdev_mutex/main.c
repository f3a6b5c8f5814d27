/* A character-device module on siren's own kernel headers (kernel/fallback, kernel/include):
 * register_chrdev, a struct mutex, kzalloc/kfree and the user copies. read and write keep the
 * buffer under the mutex; ioctl resets the read counter without it: a race with read. */
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define SIZE 16

static int major;
static char *buffer;
static int reads;
static DEFINE_MUTEX(buffer_lock);

static ssize_t buf_read(struct file *file, char __user *out, size_t count, loff_t *ppos) {
  ssize_t done = 0;
  if (count > SIZE) count = SIZE;
  mutex_lock(&buffer_lock);
  if (copy_to_user(out, buffer, count) == 0) done = count;
  reads++;
  mutex_unlock(&buffer_lock);
  return done;
}

static ssize_t buf_write(struct file *file, const char __user *in, size_t count, loff_t *ppos) {
  ssize_t done = 0;
  if (count > SIZE) count = SIZE;
  mutex_lock(&buffer_lock);
  if (copy_from_user(buffer, in, count) == 0) done = count;
  mutex_unlock(&buffer_lock);
  return done;
}

static long buf_ioctl(struct file *file, unsigned int cmd, unsigned long arg) {
  if (cmd != 1) return -EINVAL;
  reads = 0;
  return 0;
}

static const struct file_operations buf_fops = {
    .owner = THIS_MODULE,
    .read = buf_read,
    .write = buf_write,
    .unlocked_ioctl = buf_ioctl,
};

static int __init buf_init(void) {
  buffer = kzalloc(SIZE, GFP_KERNEL);
  if (!buffer) return -ENOMEM;
  major = register_chrdev(0, "buf", &buf_fops);
  if (major < 0) {
    kfree(buffer);
    return major;
  }
  return 0;
}

static void __exit buf_exit(void) {
  unregister_chrdev(major, "buf");
  kfree(buffer);
}

module_init(buf_init);
module_exit(buf_exit);
MODULE_LICENSE("GPL");
