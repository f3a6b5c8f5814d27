// The twin of mutex_errorcheck_relock_checked: the relock's EDEADLK means the mutex is still
// held exactly once, so after one unlock the main thread can take it (trylock succeeds). A
// model that blocks at the relock never gets there; one that counts holds never frees it.
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_mutex_t m;
int stage;

void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  int r = pthread_mutex_lock(&m);
  assert(r == EDEADLK);
  pthread_mutex_unlock(&m);
  stage = 1;
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &a);
  assert(pthread_mutex_unlock(&m) == EPERM);  // main does not hold it
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(stage == 1);
  assert(pthread_mutex_trylock(&m) == 0);
  assert(pthread_mutex_unlock(&m) == 0);
  return 0;
}
