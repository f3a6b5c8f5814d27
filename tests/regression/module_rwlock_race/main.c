/* A Linux kernel module as `siren race` input (no main; module_init names its init): the two
 * file operations run concurrently after init. stats is updated under the read side of the
 * rwlock, which readers share: two reads race on it. */
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/spinlock.h>

static int value;
static int stats;
static DEFINE_RWLOCK(lock);

static ssize_t demo_read(struct file *file, char __user *buf, size_t count, loff_t *ppos) {
  int v;
  read_lock(&lock);
  v = value;
  stats++;
  read_unlock(&lock);
  return v;
}

static ssize_t demo_write(struct file *file, const char __user *buf, size_t len, loff_t *off) {
  write_lock(&lock);
  value = (int)len;
  write_unlock(&lock);
  return len;
}

static const struct file_operations demo_fops = {
    .owner = THIS_MODULE,
    .read = demo_read,
    .write = demo_write,
};

static struct miscdevice demo_dev = {MISC_DYNAMIC_MINOR, "demo", &demo_fops};

static int __init demo_init(void) { return misc_register(&demo_dev); }
static void __exit demo_exit(void) { misc_deregister(&demo_dev); }

module_init(demo_init);
module_exit(demo_exit);
MODULE_LICENSE("GPL");
