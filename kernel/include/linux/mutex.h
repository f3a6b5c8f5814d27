/* siren's kernel model (kernel/README.md): struct mutex is a pthread mutex (the kernel's is a
 * sleeping lock with the same mutual exclusion); the _interruptible and _killable forms may
 * fail with -EINTR without taking it, as a signal can make them. Same names as Whoop's
 * Model/linux/mutex.h, which it replaces. */
#ifndef __LINUX_MUTEX_H
#define __LINUX_MUTEX_H

#include <linux/types.h>
#include <siren_kernel.h>

#ifndef EINTR
#define EINTR 4
#endif

struct mutex {
  pthread_mutex_t m;
};

#define DEFINE_MUTEX(x) struct mutex x = { SIREN_MUTEX_INITIALIZER }
#define __MUTEX_INITIALIZER(x) { SIREN_MUTEX_INITIALIZER }

static inline void mutex_init(struct mutex *lock) { pthread_mutex_init(&lock->m, 0); }
static inline void mutex_destroy(struct mutex *lock) { (void)lock; }
static inline void mutex_lock(struct mutex *lock) { pthread_mutex_lock(&lock->m); }
static inline void mutex_lock_nested(struct mutex *lock, unsigned int subclass) {
  (void)subclass;
  pthread_mutex_lock(&lock->m);
}
static inline int mutex_lock_interruptible(struct mutex *lock) {
  if (__VERIFIER_nondet_bool()) return -EINTR;
  pthread_mutex_lock(&lock->m);
  return 0;
}
static inline int mutex_lock_killable(struct mutex *lock) { return mutex_lock_interruptible(lock); }
/* 1 when taken, 0 when another holds it */
static inline int mutex_trylock(struct mutex *lock) { return pthread_mutex_trylock(&lock->m) == 0; }
static inline void mutex_unlock(struct mutex *lock) { pthread_mutex_unlock(&lock->m); }

#endif
