/* siren-fuzz seed 1 template chain3 */
#include <assert.h>
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int g0 = 0;
int g1 = 0;
pthread_mutex_t m;
pthread_t h0, h1, h2;
void *t0(void *arg) {
  pthread_mutex_lock(&m);
    if (g0 == 1) {
      g1 = 2;
    }
  pthread_mutex_unlock(&m);
  return 0;
}
void *t1(void *arg) {
  int l0 = 0;
  l0 = g1;
  assert(l0 != 2);
  l0 = g0;
  return 0;
}
void *t2(void *arg) {
  int l0 = 0;
  l0 = 2;
  g0 = 1;
  return 0;
}
int main(void) {
  int l1 = 0;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  assert(g0 >= l1 && g1 > 2);
  pthread_join(h0, 0);
  pthread_join(h2, 0);
  if (!(g0 >= 2)) reach_error();
  return 0;
}
