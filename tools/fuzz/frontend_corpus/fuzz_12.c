/* siren-fuzz seed 12 template deep */
#include <assert.h>
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int g0 = 0;
int g1 = 0;
pthread_t h0, h1;
void *t0(void *arg) {
  for (int i0 = 0; i0 < 2; i0++) {
    g0 = g0 + 1;
  }
  return 0;
}
void *t1(void *arg) {
  int l0 = 0;
  l0 = g0;
  if (!(!(g0 == 2))) reach_error();
  return 0;
}
int main(void) {
  int l0 = 0;
  if (g0 <= 0) {
    l0 = 3;
    l0 = g0 + 1;
  }
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  l0 = g0 + g0;
  assert(g1 < 2);
  return 0;
}
