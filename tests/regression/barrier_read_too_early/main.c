/* The worker reads main's slot before the barrier that publishes it. */
#include <pthread.h>
#include <assert.h>
pthread_barrier_t bar;
int slot[2];
void *worker(void *arg) {
  slot[1] = 2;
  int early = slot[0];
  pthread_barrier_wait(&bar);
  assert(early == 1);
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_barrier_init(&bar, 0, 2);
  pthread_create(&a, 0, worker, 0);
  slot[0] = 1;
  pthread_barrier_wait(&bar);
  assert(slot[1] == 2);
  pthread_join(a, 0);
  return 0;
}
