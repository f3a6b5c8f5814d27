/* siren-fuzz seed 3 template random */
#include <assert.h>
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int g0 = 1;
int g1 = 1;
int arr[3] = {0, 1, 0};
int *p = &g1;
pthread_t h0;
void *t0(void *arg) {
  assert(g1 < *p);
  return 0;
}
int main(void) {
  arr[0] = arr[0] + 1;
  pthread_create(&h0, 0, t0, 0);
  pthread_join(h0, 0);
  if (!(g0 >= arr[2])) reach_error();
  return 0;
}
