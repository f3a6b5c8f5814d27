/* A toy driver whose entry points share the device's private data, for siren triage --driver's
 * tests (tests/e2e/driver_test.py, part 5; docs/drivers.md "One device"). toy_init allocates
 * struct toy_priv with kzalloc (larger than the 8 bytes Whoop's kmalloc gives), stores it as
 * the device's driver data and passes it to its interrupt handler:
 *  - toy_show and toy_store, a sysfs attribute's operations, get it with dev_get_drvdata();
 *    both count under p->lock, but toy_store writes p->bytes without it and toy_show reads it:
 *    store|store and show|store race on p->bytes (show|show only reads);
 *  - toy_irq, the interrupt handler (not paired with itself), gets it as its `void *dev_id`
 *    and writes p->irqs[7], which no other entry point touches. */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/interrupt.h>

struct toy_priv {
  struct mutex lock;
  int count;
  int bytes;
  long irqs[8];
};

static struct device toy_dev;

static ssize_t toy_show(struct device *dev, struct device_attribute *attr, char *buf) {
  struct toy_priv *p = dev_get_drvdata(dev);
  int c;
  mutex_lock(&p->lock);
  c = p->count;
  mutex_unlock(&p->lock);
  return c + p->bytes;
}

static ssize_t toy_store(struct device *dev, struct device_attribute *attr, const char *buf, size_t n) {
  struct toy_priv *p = dev_get_drvdata(dev);
  mutex_lock(&p->lock);
  p->count++;
  mutex_unlock(&p->lock);
  p->bytes = n;
  return n;
}

static DEVICE_ATTR(toy, 0644, toy_show, toy_store);

static irqreturn_t toy_irq(int irq, void *dev_id) {
  struct toy_priv *p = dev_id;
  p->irqs[7] = irq;
  return IRQ_HANDLED;
}

static int __init toy_init(void) {
  struct toy_priv *p = kzalloc(sizeof(*p), GFP_KERNEL);
  if (!p) return -ENOMEM;
  mutex_init(&p->lock);
  dev_set_drvdata(&toy_dev, p);
  if (request_irq(5, toy_irq, 0, "toy", p)) return -EIO;
  return 0;
}

static void __exit toy_exit(void) { free_irq(5, dev_get_drvdata(&toy_dev)); }

module_init(toy_init);
module_exit(toy_exit);
