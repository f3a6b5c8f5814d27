/* siren-fuzz seed 23 template chain3 */
#include <assert.h>
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int g0 = 0;
int g1 = 0;
pthread_t h0, h1, h2;
void *t0(void *arg) {
  int l0 = 0, l1 = 0;
  if (g0 == 7) {
    g1 = 1;
  }
  l0 = g1;
  l0 = l1;
  return 0;
}
void *t1(void *arg) {
  int l0 = 0;
  l0 = g1;
  assert(l0 != 1);
  l0 = 0 + 1;
  return 0;
}
void *t2(void *arg) {
  g0 = 3;
  return 0;
}
int main(void) {
  int l0 = 0;
  pthread_create(&h0, 0, t0, 0);
  l0 = g1;
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  if (g0 == 1) {
    l0 = g1 + 1;
  }
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  assert(g0 > 1);
  return 0;
}
