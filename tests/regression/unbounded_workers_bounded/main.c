/* A server loop: main starts workers without end (issue 22). Every worker takes a ticket under
   a mutex and checks it; no execution violates the assertion, with any number of workers. The
   thread limit is always reachable, so the answer is SAFE up to bound with the thread bound
   stated: no violation in executions with at most 4 threads (--threads 4; the steps are not
   bounded, every such execution was explored to its end). */
#include <assert.h>
#include <pthread.h>
int next_ticket = 0, served = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  int mine = next_ticket;
  next_ticket = next_ticket + 1;
  served = served + 1;
  assert(served == next_ticket);
  pthread_mutex_unlock(&m);
  assert(mine >= 0);
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, worker, 0);
  return 0;
}
