/* malloc and a variable-length array whose size is nondeterministic but bounded: the objects
   get a capacity of 64 elements, and every access the assumption allows is below it. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 0 && n <= 5);
  int *a = malloc(n * sizeof(int));
  int v[n];
  for (int i = 0; i < n; i++) { a[i] = i; v[i] = 2 * i; }
  if (a[n - 1] != n - 1 || v[n - 1] != 2 * n - 2) reach_error();
  free(a);
  return 0;
}
