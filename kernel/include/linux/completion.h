/* siren's kernel model (kernel/README.md): completions. Whoop's Model/linux/completion.h
 * (included next) declares struct completion { unsigned int done; ... } and the functions
 * without bodies; here they get the kernel's meaning. complete() adds one to `done`,
 * complete_all() makes it large, wait_for_completion() sleeps until `done` is positive and
 * takes one; the _interruptible / _killable forms may return -ERESTARTSYS instead (a signal),
 * the _timeout forms 0 (the time ran out) or a positive number of jiffies left. Each is one
 * atomic step (the kernel's take the wait queue's spinlock). */
#ifndef SIREN_LINUX_COMPLETION_H
#define SIREN_LINUX_COMPLETION_H

#include <siren_kernel.h>
#ifndef __WAIT_QUEUE_HEAD_INITIALIZER /* used by COMPLETION_INITIALIZER, defined by no model */
#define __WAIT_QUEUE_HEAD_INITIALIZER(name) { 0 }
#endif
#include_next <linux/completion.h>

static inline int __siren_take_completion(struct completion *x, int may_fail) {
  if (may_fail && __VERIFIER_nondet_bool()) return 0;
  __VERIFIER_atomic_begin();
  __VERIFIER_assume(x->done > 0);
  if (x->done < 0x7fffffffu) x->done--;
  __VERIFIER_atomic_end();
  return 1;
}
void wait_for_completion(struct completion *x) { (void)__siren_take_completion(x, 0); }
void wait_for_completion_io(struct completion *x) { (void)__siren_take_completion(x, 0); }
int wait_for_completion_interruptible(struct completion *x) {
  return __siren_take_completion(x, 1) ? 0 : -__SIREN_ERESTARTSYS;
}
int wait_for_completion_killable(struct completion *x) { return wait_for_completion_interruptible(x); }
unsigned long wait_for_completion_timeout(struct completion *x, unsigned long timeout) {
  (void)timeout;
  return __siren_take_completion(x, 1) ? (unsigned long)__siren_jiffies_left() : 0;
}
unsigned long wait_for_completion_io_timeout(struct completion *x, unsigned long timeout) {
  return wait_for_completion_timeout(x, timeout);
}
long wait_for_completion_interruptible_timeout(struct completion *x, unsigned long timeout) {
  (void)timeout;
  if (__siren_take_completion(x, 1)) return __siren_jiffies_left();
  return __VERIFIER_nondet_bool() ? 0 : -__SIREN_ERESTARTSYS;
}
long wait_for_completion_killable_timeout(struct completion *x, unsigned long timeout) {
  return wait_for_completion_interruptible_timeout(x, timeout);
}
bool try_wait_for_completion(struct completion *x) {
  bool taken = 0;
  __VERIFIER_atomic_begin();
  if (x->done > 0) {
    if (x->done < 0x7fffffffu) x->done--;
    taken = 1;
  }
  __VERIFIER_atomic_end();
  return taken;
}
bool completion_done(struct completion *x) {
  bool done;
  __VERIFIER_atomic_begin();
  done = x->done > 0;
  __VERIFIER_atomic_end();
  return done;
}
void complete(struct completion *x) {
  __VERIFIER_atomic_begin();
  if (x->done < 0x7fffffffu) x->done++;
  __VERIFIER_atomic_end();
}
void complete_all(struct completion *x) {
  __VERIFIER_atomic_begin();
  x->done = 0x7fffffffu;
  __VERIFIER_atomic_end();
}

#endif
