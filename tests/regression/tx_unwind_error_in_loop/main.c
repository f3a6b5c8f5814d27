// A loop under a mutex whose body only touches cells every thread touches under that mutex:
// with transaction frames one transaction runs on through its head (check --tx-unwind), and
// the error is reached in a later pass of such a frame; the counterexample must replay (and
// happen natively). tx_unwind_loop_safe checks this file with -DLIMIT=67: SAFE, proven.
#include <assert.h>
#include <pthread.h>

#ifndef LIMIT
#define LIMIT 60  // 11 + 10 + ... + 6 = 51, then 56, 60: fails after the producer ran
#endif

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int items[16];
int count;

void *producer(void *arg) {
  pthread_mutex_lock(&m);
  for (int i = 0; i < 12; i++) {
    items[count] = i;
    count = count + 1;
  }
  pthread_mutex_unlock(&m);
  return 0;
}

void *consumer(void *arg) {
  int sum = 0;
  pthread_mutex_lock(&m);
  while (count > 0) {
    count = count - 1;
    sum = sum + items[count];
    assert(sum < LIMIT);  // (0 + 1 + ... + 11 = 66 at most)
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
