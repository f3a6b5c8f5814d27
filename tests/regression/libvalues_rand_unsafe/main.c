/* The twin of libvalues_rand_unknown whose bug does not depend on rand()'s value: each thread
   stores rand() (any value would do) and increments cnt without a lock. The counterexample
   uses rand()'s values (in the trace), is replayed natively with the real rand(), and the
   lost update happens there too: UNSAFE. */
#include <pthread.h>
#include <assert.h>
int rand(void);
int last, cnt;
void *t(void *arg) {
  last = rand();
  int tmp = cnt;
  cnt = tmp + 1;
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
