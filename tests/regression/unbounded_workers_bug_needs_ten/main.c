/* Workers started without end (issue 22); the ninth worker to take a ticket fails, so the
   violation needs ten threads (main and nine workers). siren check without --threads cuts
   executions at 2, 3, ..., 8 threads, each check complete (no violation), then tries 16 threads
   and finds it: the thread bound never makes a bug disappear from the answer, it only delays it. */
#include <assert.h>
#include <pthread.h>
int next_ticket = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  int mine = next_ticket;
  next_ticket = next_ticket + 1;
  pthread_mutex_unlock(&m);
  assert(mine < 8);
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, worker, 0);
  return 0;
}
