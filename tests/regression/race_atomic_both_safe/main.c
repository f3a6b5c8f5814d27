/* race_atomic_vs_plain with both accesses atomic (an atomic function, and an explicit atomic
   block whose write is not its first step): no data race. */
#include <pthread.h>
int m;
void __VERIFIER_atomic_set(int v) { m = v; }
int __VERIFIER_atomic_get(void) { return m; }
void *t1(void *arg) {
  __VERIFIER_atomic_set(1);
  __VERIFIER_atomic_begin();
  int t = 2;
  m = t;
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) { pthread_t id; pthread_create(&id, 0, t1, 0); int s = __VERIFIER_atomic_get(); return s; }
