/* A thread-local variable is still memory: the worker publishes the address of its copy and
   main writes through it while the worker checks its value. */
#include <pthread.h>
#include <assert.h>
__thread int mine;
int *volatile published;
void *worker(void *a) {
  mine = 1;
  published = &mine;
  assert(mine == 1);
  return 0;
}
int main(void) {
  pthread_t x;
  pthread_create(&x, 0, worker, 0);
  if (published) *published = 2;
  pthread_join(x, 0);
  return 0;
}
