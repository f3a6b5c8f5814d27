/* siren's kernel model: <asm/uaccess.h> is <linux/uaccess.h> (Whoop's shares one include guard
 * between the two, which left the model out; kernel/include/linux/uaccess.h). */
#ifndef SIREN_ASM_UACCESS_H
#define SIREN_ASM_UACCESS_H
#include <linux/uaccess.h>
#endif
