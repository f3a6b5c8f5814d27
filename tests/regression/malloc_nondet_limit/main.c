/* Without a bound on the size, a request beyond the capacity is possible: UNKNOWN. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  unsigned n = __VERIFIER_nondet_int();
  char *a = malloc(n);
  if (n > 0) a[0] = 1;
  return 0;
}
