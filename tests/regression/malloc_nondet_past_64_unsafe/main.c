/* A bug past index 64 of a malloc of a non-constant size: every 16th element is written, and
   the check that all of them are small fails first at index 112. Found with a capacity larger
   than the first one (64 elements). */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 64 && n <= 200);
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i += 16) a[i] = i;
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k < n && k % 16 == 0);
  if (a[k] > 100) reach_error();
  return 0;
}
