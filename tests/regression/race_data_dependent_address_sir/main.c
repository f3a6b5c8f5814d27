// A race whose address depends on the order of two writes no conditional reads: idx is 1 at
// the store through p only when w's write of 1 comes after main's write of 0 (both atomic, so
// idx itself is not racy). SIR must treat the address computed from idx like a conditional of
// that pair (sensitive), or it may keep only the other order and miss the race between
// `*p = 5` and `slots[1] = 3`.
#include <pthread.h>
int slots[2];
int idx;
void __VERIFIER_atomic_set(int v) { idx = v; }
int __VERIFIER_atomic_get(void) { return idx; }
void *w(void *arg) {
  __VERIFIER_atomic_set(1);
  return 0;
}
void *r(void *arg) {
  int *p = &slots[__VERIFIER_atomic_get()];
  *p = 5;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  __VERIFIER_atomic_set(0);
  pthread_join(a, 0);
  pthread_create(&b, 0, r, 0);
  slots[1] = 3;
  pthread_join(b, 0);
  return 0;
}
