// The safe twin of mutex_recursive_relock_bug: two threads use a recursive mutex that each
// locks twice; the count must reach 0 before the other thread gets it, so the critical
// sections never overlap (a model that frees the mutex at the first unlock lets them).
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_mutex_t m;
int inside;

static void inner(void) {
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);  // one hold of two: still held
  assert(inside == 1);
}

void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  inside = inside + 1;
  inner();
  inside = inside - 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &a);
  assert(pthread_mutex_unlock(&m) == EPERM);  // main does not hold it
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(inside == 0);
  return 0;
}
