/* Twelve workers each add 1 to a counter under a mutex; only when all twelve have run can
   main see 12. With --threads 6 the create site runs out of slots: executions are cut at 6
   threads and the answer is SAFE up to bound (many_threads_limit); without --threads, siren
   check goes on to 16 threads and finds the violation. */
#include <assert.h>
#include <pthread.h>

#define N 12
int count = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t[N];
  for (int i = 0; i < N; i++) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  assert(count != N);
  return 0;
}
