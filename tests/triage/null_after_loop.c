// tests/e2e/triage_bounded_test.py: thread 1 dereferences a null pointer after its loop; the
// warning (x at lines 12 and 23) is under one lock. Triage answers it NO_RACE_UP_TO_BOUND b where
// b is the last depth before the dereference can happen (-DNO_NULL: NO_RACE, proven).
#include <pthread.h>
int *p;
int x;
int steps;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t1(void *arg) {
  for (int i = 0; i < 6; ++i) {
    pthread_mutex_lock(&m);
    x = x + 1;
    pthread_mutex_unlock(&m);
  }
#ifndef NO_NULL
  *p = 3;
#endif
  return 0;
}
void *t2(void *arg) {
  for (int i = 0; i < 6; ++i) {
    pthread_mutex_lock(&m);
    x = x + 2;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
