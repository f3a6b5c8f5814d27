/* siren-fuzz seed 52 template chain3 */
#include <assert.h>
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int g0 = 0;
int g1 = 0;
int g2 = 0;
pthread_mutex_t m;
pthread_t h0, h1, h2;
void *t0(void *arg) {
  int l0 = 0;
  l0 = g1;
  assert(l0 != 1);
  g2 = g2 + 1;
  return 0;
}
void *t1(void *arg) {
  g2 = g2 + 1;
  pthread_mutex_lock(&m);
    if (g0 == 6) {
      g1 = 1;
    }
  pthread_mutex_unlock(&m);
  return 0;
}
void *t2(void *arg) {
  int l0 = 0;
  g0 = 2;
  l0 = g0;
  g2 = g2 + 1;
  return 0;
}
int main(void) {
  int l0 = 0;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  g2 = g2 + g2;
  pthread_join(h0, 0);
  pthread_join(h2, 0);
  assert(l0 != 2 && g1 > g2);
  return 0;
}
