/* siren's kernel model (kernel/README.md): atomic_t operations as GCC __atomic builtins, one
 * atomic step each (siren: sequentially consistent; two atomic accesses never race). Replaces
 * Whoop's Model/asm/atomic.h, whose operations are plain reads and writes (and whose
 * atomic_add_return does not add). atomic_t is Model/linux/types.h's { int counter; }. */
#ifndef _ASM_X86_ATOMIC_H
#define _ASM_X86_ATOMIC_H

#include <linux/compiler.h>
#include <linux/types.h>

#define ATOMIC_INIT(i) { (i) }

static inline int atomic_read(const atomic_t *v) { return __atomic_load_n(&v->counter, __ATOMIC_SEQ_CST); }
static inline void atomic_set(atomic_t *v, int i) { __atomic_store_n(&v->counter, i, __ATOMIC_SEQ_CST); }
static inline void atomic_add(int i, atomic_t *v) { __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST); }
static inline void atomic_sub(int i, atomic_t *v) { __atomic_fetch_sub(&v->counter, i, __ATOMIC_SEQ_CST); }
static inline void atomic_inc(atomic_t *v) { __atomic_fetch_add(&v->counter, 1, __ATOMIC_SEQ_CST); }
static inline void atomic_dec(atomic_t *v) { __atomic_fetch_sub(&v->counter, 1, __ATOMIC_SEQ_CST); }
static inline int atomic_add_return(int i, atomic_t *v) { return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }
static inline int atomic_sub_return(int i, atomic_t *v) { return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }
static inline int atomic_sub_and_test(int i, atomic_t *v) { return atomic_sub_return(i, v) == 0; }
static inline int atomic_dec_and_test(atomic_t *v) { return atomic_sub_return(1, v) == 0; }
static inline int atomic_inc_and_test(atomic_t *v) { return atomic_add_return(1, v) == 0; }
static inline int atomic_add_negative(int i, atomic_t *v) { return atomic_add_return(i, v) < 0; }
static inline int atomic_xchg(atomic_t *v, int n) { return __atomic_exchange_n(&v->counter, n, __ATOMIC_SEQ_CST); }
static inline int atomic_cmpxchg(atomic_t *v, int old, int n) {
  __atomic_compare_exchange_n(&v->counter, &old, n, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return old;
}
#define atomic_inc_return(v) (atomic_add_return(1, v))
#define atomic_dec_return(v) (atomic_sub_return(1, v))

#endif
