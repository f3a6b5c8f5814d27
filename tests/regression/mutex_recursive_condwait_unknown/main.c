// pthread_cond_wait with a recursive mutex (issue 40): glibc releases one hold of it only,
// which siren does not model: UNKNOWN at the wait, not a verdict of another model.
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &a);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  while (!ready) pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  assert(ready == 1);
  return 0;
}
