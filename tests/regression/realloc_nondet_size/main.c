/* realloc to a size only known at run time: modelled where it is not 0 (the object then has
 * the capacity of an object of a non-constant size), a Limit where it may be 0
 * (implementation-defined), so no verdict depends on glibc's choice. */
#include <assert.h>
#include <stdlib.h>

extern unsigned __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  int *p = malloc(2 * sizeof(int));
  p[0] = 7;
  p[1] = 8;
  int *q = realloc(p, n * sizeof(int));
  assert(q[0] == 7);
  free(q);
  return 0;
}
