/* An access past the 64 modelled elements of a malloc of a non-constant size: UNKNOWN, and
   the reason says it may be the capacity. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 100);
  int *a = malloc(n * sizeof(int));
  a[99] = 1;
  if (a[99] != 1) reach_error();
  return 0;
}
