// Workers started without a bound read `flag` under the mutex and write `x` only once they saw
// it set; main sets it under the mutex, then writes `x` without a lock. A race, but only after
// main's step reaches a worker: the thread-modular proof must apply other threads' transitions
// (interference) to see it. `--test-modular-no-interference` drops them and would prove the
// program race-free: this case catches that.
#include <pthread.h>

extern _Bool __VERIFIER_nondet_bool(void);

int flag, x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  int f = flag;
  pthread_mutex_unlock(&m);
  if (f) x = 1;
  return NULL;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_bool()) pthread_create(&t, NULL, worker, NULL);
  pthread_mutex_lock(&m);
  flag = 1;
  pthread_mutex_unlock(&m);
  x = 2;
  return 0;
}
