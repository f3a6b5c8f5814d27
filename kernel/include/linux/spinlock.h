/* siren's kernel model (kernel/README.md): a spinlock is a pthread mutex (mutual exclusion;
 * a thread waiting for it is not scheduled, as a spinning one makes no progress). The _irq,
 * _irqsave and _bh forms also keep interrupts or bottom halves off the local CPU; an
 * interrupt handler is one more entry point here and takes the same lock, so their mutual
 * exclusion is what matters. The signatures are Whoop's (Model/linux/spinlock.h, which this
 * replaces): spin_lock_irqsave takes the flags by value.
 * A reader-writer lock (rwlock_t, linux/rwlock.h in the kernel) is a pthread rwlock: readers
 * share it, a writer holds it alone. */
#ifndef __LINUX_SPINLOCK_H
#define __LINUX_SPINLOCK_H

#include <siren_kernel.h>

typedef struct {
  pthread_mutex_t m;
} spinlock_t;

typedef spinlock_t raw_spinlock_t;

#define DEFINE_SPINLOCK(x) spinlock_t x = { SIREN_MUTEX_INITIALIZER }
#define __SPIN_LOCK_UNLOCKED(x) { SIREN_MUTEX_INITIALIZER }

static inline void spin_lock_init(spinlock_t *lock) { pthread_mutex_init(&lock->m, 0); }
static inline void spin_lock(spinlock_t *lock) { pthread_mutex_lock(&lock->m); }
static inline void spin_lock_irqsave(spinlock_t *lock, unsigned long flags) {
  (void)flags;
  pthread_mutex_lock(&lock->m);
}
static inline void spin_lock_irq(spinlock_t *lock) { pthread_mutex_lock(&lock->m); }
static inline void spin_lock_bh(spinlock_t *lock) { pthread_mutex_lock(&lock->m); }
static inline int spin_trylock(spinlock_t *lock) { return pthread_mutex_trylock(&lock->m) == 0; }
static inline void spin_unlock(spinlock_t *lock) { pthread_mutex_unlock(&lock->m); }
static inline void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags) {
  (void)flags;
  pthread_mutex_unlock(&lock->m);
}
static inline void spin_unlock_irq(spinlock_t *lock) { pthread_mutex_unlock(&lock->m); }
static inline void spin_unlock_bh(spinlock_t *lock) { pthread_mutex_unlock(&lock->m); }

typedef struct {
  pthread_rwlock_t l;
} rwlock_t;

#define DEFINE_RWLOCK(x) rwlock_t x = { SIREN_RWLOCK_INITIALIZER }
#define __RW_LOCK_UNLOCKED(x) { SIREN_RWLOCK_INITIALIZER }

static inline void rwlock_init(rwlock_t *lock) { pthread_rwlock_init(&lock->l, 0); }
static inline void read_lock(rwlock_t *lock) { pthread_rwlock_rdlock(&lock->l); }
static inline void read_lock_irq(rwlock_t *lock) { pthread_rwlock_rdlock(&lock->l); }
static inline void read_lock_bh(rwlock_t *lock) { pthread_rwlock_rdlock(&lock->l); }
static inline void read_lock_irqsave(rwlock_t *lock, unsigned long flags) {
  (void)flags;
  pthread_rwlock_rdlock(&lock->l);
}
static inline int read_trylock(rwlock_t *lock) { return pthread_rwlock_tryrdlock(&lock->l) == 0; }
static inline void read_unlock(rwlock_t *lock) { pthread_rwlock_unlock(&lock->l); }
static inline void read_unlock_irq(rwlock_t *lock) { pthread_rwlock_unlock(&lock->l); }
static inline void read_unlock_bh(rwlock_t *lock) { pthread_rwlock_unlock(&lock->l); }
static inline void read_unlock_irqrestore(rwlock_t *lock, unsigned long flags) {
  (void)flags;
  pthread_rwlock_unlock(&lock->l);
}
static inline void write_lock(rwlock_t *lock) { pthread_rwlock_wrlock(&lock->l); }
static inline void write_lock_irq(rwlock_t *lock) { pthread_rwlock_wrlock(&lock->l); }
static inline void write_lock_bh(rwlock_t *lock) { pthread_rwlock_wrlock(&lock->l); }
static inline void write_lock_irqsave(rwlock_t *lock, unsigned long flags) {
  (void)flags;
  pthread_rwlock_wrlock(&lock->l);
}
static inline int write_trylock(rwlock_t *lock) { return pthread_rwlock_trywrlock(&lock->l) == 0; }
static inline void write_unlock(rwlock_t *lock) { pthread_rwlock_unlock(&lock->l); }
static inline void write_unlock_irq(rwlock_t *lock) { pthread_rwlock_unlock(&lock->l); }
static inline void write_unlock_bh(rwlock_t *lock) { pthread_rwlock_unlock(&lock->l); }
static inline void write_unlock_irqrestore(rwlock_t *lock, unsigned long flags) {
  (void)flags;
  pthread_rwlock_unlock(&lock->l);
}

#endif
