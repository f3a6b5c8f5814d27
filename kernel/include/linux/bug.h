/* siren's kernel model (kernel/README.md): BUG(). The kernel's is an x86 `ud2` trap in inline
 * assembly (Whoop's Model/linux/bug.h, included next), which siren does not translate. A BUG()
 * oopses: the calling task dies there and the other tasks run on. Here the calling thread
 * stops for good (__VERIFIER_assume(0) blocks it; the other threads go on), so every state
 * before it and every state of the others stays reachable. Reaching BUG() is not reported. */
#ifndef SIREN_LINUX_BUG_H
#define SIREN_LINUX_BUG_H

#include <siren_kernel.h>
#include_next <linux/bug.h>

#undef BUG
#define BUG()                  \
  do {                         \
    __VERIFIER_assume(0);      \
  } while (0)

#endif
