/* siren's kernel model (kernel/README.md): the atomic bit operations on unsigned long words as
 * GCC __atomic builtins (one atomic step each). Same prototypes as Whoop's Model/asm/bitops.h,
 * which declares them without bodies (a call through a pointer it writes was unsupported). */
#ifndef _BITOPS_H
#define _BITOPS_H

#define BIT(nr) (1UL << (nr))
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BITS_PER_BYTE 8
#define BITS_TO_LONGS(nr) DIV_ROUND_UP(nr, BITS_PER_BYTE * sizeof(long))

#define SIREN_BITS_PER_LONG (8 * (long)sizeof(unsigned long))
#define SIREN_BIT_WORD(addr, nr) ((unsigned long *)(addr) + (nr) / SIREN_BITS_PER_LONG)
#define SIREN_BIT_MASK(nr) (1UL << ((nr) % SIREN_BITS_PER_LONG))

static inline void set_bit(int nr, unsigned long *addr) {
  __atomic_fetch_or(SIREN_BIT_WORD(addr, nr), SIREN_BIT_MASK(nr), __ATOMIC_SEQ_CST);
}
static inline void clear_bit(long nr, volatile unsigned long *addr) {
  __atomic_fetch_and(SIREN_BIT_WORD(addr, nr), ~SIREN_BIT_MASK(nr), __ATOMIC_SEQ_CST);
}
static inline int test_and_set_bit(long nr, unsigned long *addr) {
  return (__atomic_fetch_or(SIREN_BIT_WORD(addr, nr), SIREN_BIT_MASK(nr), __ATOMIC_SEQ_CST) & SIREN_BIT_MASK(nr)) != 0;
}
static inline int test_and_clear_bit(long nr, unsigned long *addr) {
  return (__atomic_fetch_and(SIREN_BIT_WORD(addr, nr), ~SIREN_BIT_MASK(nr), __ATOMIC_SEQ_CST) & SIREN_BIT_MASK(nr)) != 0;
}
static inline int test_and_change_bit(long nr, unsigned long *addr) {
  return (__atomic_fetch_xor(SIREN_BIT_WORD(addr, nr), SIREN_BIT_MASK(nr), __ATOMIC_SEQ_CST) & SIREN_BIT_MASK(nr)) != 0;
}
static inline int test_bit(long nr, const void *addr) {
  return (__atomic_load_n(SIREN_BIT_WORD(addr, nr), __ATOMIC_SEQ_CST) & SIREN_BIT_MASK(nr)) != 0;
}
int find_first_zero_bit(const unsigned long *addr, unsigned size);

#endif
