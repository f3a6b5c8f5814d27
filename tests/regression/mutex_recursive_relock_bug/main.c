// A recursive mutex locked twice by one thread (issue 40): the second lock does not block, so
// the code behind it runs, and its bug is reachable. A model that treats every mutex as a
// default one deadlocks at the second lock and answers SAFE, which is wrong.
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m;
int depth;
int done;

static void inner(void) {
  pthread_mutex_lock(&m);  // the thread already holds m
  depth = depth + 1;
  pthread_mutex_unlock(&m);
}

void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  depth = 1;
  inner();
  done = depth;
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
  pthread_join(t, 0);
  assert(done != 2);  // fails: inner() runs with the mutex held twice
  return 0;
}
