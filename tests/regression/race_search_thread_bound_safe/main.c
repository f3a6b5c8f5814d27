// main starts workers one after another (each joined before the next), any number of them, each
// updating the shared counter under the mutex. Race-free; the thread-modular proof does not
// handle pthread_join, so with --threads 3 the explicit-state search answers for every
// execution with at most 3 threads, and says so.
#include <pthread.h>

extern _Bool __VERIFIER_nondet_bool(void);

int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_bool()) {
    pthread_create(&t, NULL, worker, NULL);
    pthread_mutex_lock(&m);
    counter++;
    pthread_mutex_unlock(&m);
    pthread_join(t, NULL);
  }
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  return 0;
}
