/* siren's kernel model (kernel/README.md): pci_get_drvdata / pci_set_drvdata read and write the
 * one device's driver data (linux/device.h here, docs/drivers.md "One device"). Whoop's
 * Model/linux/pci.h (included next) declares them without a body. */
#ifndef SIREN_LINUX_PCI_H
#define SIREN_LINUX_PCI_H

#include <siren_kernel.h>
#include_next <linux/pci.h>

void *pci_get_drvdata(struct pci_dev *pdev) {
  (void)pdev;
  return __siren_get_drvdata();
}
void pci_set_drvdata(struct pci_dev *pdev, void *data) {
  (void)pdev;
  __siren_set_drvdata(data);
}

#endif
