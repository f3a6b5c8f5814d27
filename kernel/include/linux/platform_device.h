/* siren's kernel model (kernel/README.md): platform_get_drvdata / platform_set_drvdata read and
 * write the one device's driver data (linux/device.h here, docs/drivers.md "One device").
 * Whoop's Model/linux/platform_device.h (included next) has them commented out. */
#ifndef SIREN_LINUX_PLATFORM_DEVICE_H
#define SIREN_LINUX_PLATFORM_DEVICE_H

#include <siren_kernel.h>
#include_next <linux/platform_device.h>

static inline void *platform_get_drvdata(const struct platform_device *pdev) {
  (void)pdev;
  return __siren_get_drvdata();
}
static inline void platform_set_drvdata(struct platform_device *pdev, void *data) {
  (void)pdev;
  __siren_set_drvdata(data);
}

#endif
