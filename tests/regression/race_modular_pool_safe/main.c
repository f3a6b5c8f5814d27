// main starts workers in a loop without a bound; every access to the shared counter holds the
// mutex. Race-free for any number of threads: the thread-modular race-freedom proof says so
// (no bound stated), where the explicit-state search could only say "up to N threads".
#include <pthread.h>

extern _Bool __VERIFIER_nondet_bool(void);

int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  counter = counter + 1;
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_bool()) pthread_create(&t, NULL, worker, NULL);
  pthread_mutex_lock(&m);
  counter = counter + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
