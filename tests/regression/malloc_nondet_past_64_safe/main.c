/* An access past the first 64 elements of a malloc of a non-constant size: the check that
   ends UNKNOWN at a capacity of 64 elements is tried again with a larger one, which answers. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 100 && n <= 1000);
  int *a = malloc(n * sizeof(int));
  a[99] = 1;
  if (a[99] != 1) reach_error();
  return 0;
}
