/* siren's kernel model (kernel/README.md): a device's driver data. The harness models ONE
 * device (docs/drivers.md "One device"): dev_get_drvdata() and every wrapper of it
 * (usb_get_intfdata, bl_get_data, nfc_get_drvdata, i2c_get_clientdata, ...) read one slot,
 * __siren_drvdata (siren_kernel.h), which the harness sets to the driver's data object before
 * init, and dev_set_drvdata() (probe) writes it. Each is one atomic step: the kernel's
 * driver-core pointer is not the driver's data, and its accesses are not the driver's races.
 * Whoop's Model/linux/device.h (included next) declares both without a body. */
#ifndef SIREN_LINUX_DEVICE_H
#define SIREN_LINUX_DEVICE_H

#include <siren_kernel.h>
#include_next <linux/device.h>

static inline void *dev_get_drvdata(struct device *dev) {
  (void)dev;
  return __siren_get_drvdata();
}
static inline void dev_set_drvdata(struct device *dev, void *data) {
  (void)dev;
  __siren_set_drvdata(data);
}

#endif
