// An error-checking mutex (issue 40): relocking returns EDEADLK instead of blocking, and
// unlocking a mutex the thread does not hold returns EPERM. The program checks both results;
// the bug is behind the relock.
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_mutex_t m;
int x;

void *worker(void *arg) {
  (void)arg;
  int r = pthread_mutex_unlock(&m);  // not held by this thread
  assert(r == EPERM);
  pthread_mutex_lock(&m);
  x = 1;
  r = pthread_mutex_lock(&m);
  if (r == EDEADLK) x = 2;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &a);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(x != 2);  // fails: the relock returned EDEADLK
  return 0;
}
