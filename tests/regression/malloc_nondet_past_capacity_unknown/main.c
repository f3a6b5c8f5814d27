/* An access past every capacity siren tries for a malloc of a non-constant size (64, 1024,
   16384 elements; the next would exceed 100000 cells): UNKNOWN, and the reason says it may be
   the capacity. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 300000);
  int *a = malloc(n * sizeof(int));
  a[299999] = 1;
  if (a[299999] != 1) reach_error();
  return 0;
}
