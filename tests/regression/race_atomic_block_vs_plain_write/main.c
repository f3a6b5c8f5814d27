/* A read inside an explicit atomic block (not its first step, through a pointer) against a
   plain write in another thread: a data race. */
#include <pthread.h>
int m;
int *q = &m;
void *t1(void *arg) {
  __VERIFIER_atomic_begin();
  int t = 0;
  t = *q;
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) { pthread_t id; pthread_create(&id, 0, t1, 0); m = 3; return 0; }
