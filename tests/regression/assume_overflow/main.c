/* Without upper bounds on the nondet values, x - y wraps around (siren's integers wrap, as
   CBMC's do) and the error becomes reachable. */
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int g;
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 5);
  __VERIFIER_assume(y < -3);
  g = x - y;
  if (g < 10) reach_error();
  return 0;
}
