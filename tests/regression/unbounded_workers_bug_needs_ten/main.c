/* Workers started without end (issue 22); the ninth worker to take a ticket fails, so the
   violation needs ten threads (main and nine workers). siren check without --threads finds a
   thread-bound cut with 8 threads, then checks 2, 3, ..., 8 threads (each complete: no
   violation) and 16, where it finds it: the thread bound never hides a bug it can reach in
   time, it only delays it. */
#include <assert.h>
#include <pthread.h>
int next_ticket = 0;
void *worker(void *arg) {
  int mine = __sync_fetch_and_add(&next_ticket, 1);
  assert(mine < 8);
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, worker, 0);
  return 0;
}
