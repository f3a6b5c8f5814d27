/* A toy character driver for siren triage --driver's tests (tests/e2e/driver_test.py), written
 * against Whoop's kernel model (../shared/benchmarks/linux-drivers/Model) and siren's
 * (kernel/include). Two threads may run any two of its entry points after toy_init:
 *  - toy_open counts opens under a mutex (no race between two opens);
 *  - toy_read counts reads without a lock (two reads race on `reads`);
 *  - toy_ioctl sets a flag with an atomic bit operation and bumps an atomic_t (no race);
 *  - toy_timer, a timer callback registered by address, writes `ticks`, which toy_release
 *    reads under the mutex the timer does not take (a race between the two);
 *  - toy_watchdog, a kernel timer's function (DEFINE_TIMER), counts `barks` without a lock:
 *    the kernel never runs a timer beside itself, so it is not paired with itself;
 *  - toy_init writes `mode` before any entry point can run, toy_read reads it: not a
 *    candidate (create/join order), so toy_read|toy_ioctl has no candidate at all.
 * With -DTOY_UNSUPPORTED, toy_ioctl holds a compound literal (unsupported): it is left out of
 * the harness of every pair and its pairs are UNKNOWN. */
#include <linux/timer.h>
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/atomic.h>
#include <linux/bitops.h>

static DEFINE_MUTEX(toy_lock);
static int opens;
static int reads;
static int ticks;
static unsigned long flags;
static atomic_t ioctls = ATOMIC_INIT(0);
static void (*toy_tick)(unsigned long);
static int mode;
static int barks;
static void toy_watchdog(unsigned long data) { barks = barks + 1; }
static DEFINE_TIMER(toy_watchdog_timer, toy_watchdog, 0, 0);

static int toy_open(struct inode *inode, struct file *file) {
  mutex_lock(&toy_lock);
  opens++;
  mutex_unlock(&toy_lock);
  return 0;
}

static int toy_release(struct inode *inode, struct file *file) {
  int t;
  mutex_lock(&toy_lock);
  opens--;
  t = ticks;
  mutex_unlock(&toy_lock);
  return t > 100;
}

static ssize_t toy_read(struct file *file, char __user *buf, size_t count, loff_t *ppos) {
  reads = reads + 1;
  return mode;
}

static long toy_ioctl(struct file *file, unsigned int cmd, unsigned long arg) {
#ifdef TOY_UNSUPPORTED /* driver_test.py: code siren cannot model in one entry point */
  struct toy_pair { int a, b; } q = (struct toy_pair){1, 2};
  (void)q;
#endif
  set_bit(1, &flags);
  atomic_inc(&ioctls);
  return 0;
}

static void toy_timer(unsigned long data) { ticks = ticks + 1; }

static const struct file_operations toy_fops = {
    .owner = THIS_MODULE,
    .open = toy_open,
    .release = toy_release,
    .read = toy_read,
    .unlocked_ioctl = toy_ioctl,
};

static int __init toy_init(void) {
  toy_tick = toy_timer;
  mode = 2;
  if (register_chrdev(240, "toy", &toy_fops) < 0) return -EIO;
  return 0;
}

static void __exit toy_exit(void) { unregister_chrdev(240, "toy"); }

module_init(toy_init);
module_exit(toy_exit);
