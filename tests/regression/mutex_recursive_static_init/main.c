#define _GNU_SOURCE
// A recursive mutex from the static initialiser (issue 40): glibc's brace list sets __kind.
// Two threads each lock it twice; the bug is behind the nested lock.
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
int x;

void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m);
  x = x + 1;
  pthread_mutex_unlock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(x != 2);  // fails: both threads get through their nested locks
  return 0;
}
