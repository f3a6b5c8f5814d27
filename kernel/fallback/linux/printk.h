/* siren's fallback kernel headers (kernel/README.md). */
#include <linux/kernel.h>
