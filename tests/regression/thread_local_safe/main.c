/* __thread / _Thread_local: every thread (main too) has its own copy, starting from the
   initialiser; only `shared` is shared. */
#include <pthread.h>
#include <assert.h>
__thread int mine = 5;
_Thread_local int *where;
int shared;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *a) {
  mine = mine + (int)(long)a;
  where = &mine;
  pthread_mutex_lock(&m);
  shared = shared + 1;
  pthread_mutex_unlock(&m);
  assert(mine == 5 + (int)(long)a && *where == mine);
  return 0;
}
int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, t, (void *)1);
  pthread_create(&y, 0, t, (void *)2);
  pthread_join(x, 0);
  pthread_join(y, 0);
  assert(mine == 5 && where == 0 && shared == 2);
  return 0;
}
