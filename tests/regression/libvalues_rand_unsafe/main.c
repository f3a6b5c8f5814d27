/* The twin of libvalues_rand_unknown whose bug does not depend on rand()'s value beyond what
   the real rand() gives: a lost update of cnt by two threads. The counterexample uses rand()'s
   values (each thread tests r >= 0), is replayed natively with the real rand(), and the
   violation happens: UNSAFE. */
#include <pthread.h>
#include <assert.h>
int rand(void);
int cnt;
void *t(void *arg) {
  int r = rand();
  if (r >= 0) {
    int tmp = cnt;
    cnt = tmp + 1;
  }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(cnt == 2);
  return 0;
}
