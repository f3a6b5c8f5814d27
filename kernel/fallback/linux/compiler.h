/* siren's fallback kernel headers (kernel/README.md). */
#ifndef _LINUX_COMPILER_H
#define _LINUX_COMPILER_H

#define __user
#define __kernel
#define __iomem
#define __force
#define __must_check
#define __read_mostly
#define likely(x) (x)
#define unlikely(x) (x)
#define barrier() __atomic_signal_fence(__ATOMIC_SEQ_CST)

#endif
