/* A 4-bit signed counter incremented 8 times wraps to -8: the failure is reachable only
   when the field is read sign-extended. The twin (bitfield_sign_extension_safe) stops at 7. */
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
#ifndef LIMIT
#define LIMIT 8
#endif
struct counter {
  unsigned low : 2;
  int ticks : 4;
  unsigned high : 2;
} c = {3, 0, 3};
int n;
void *ticker(void *arg) {
  for (int i = 0; i < n; i++) c.ticks++;
  return 0;
}
int main(void) {
  n = __VERIFIER_nondet_int();
  if (n < 0 || n > LIMIT) return 0;
  pthread_t h;
  pthread_create(&h, 0, ticker, 0);
  pthread_join(h, 0);
  if (c.ticks < 0 || c.low != 3 || c.high != 3) reach_error();
  return 0;
}
