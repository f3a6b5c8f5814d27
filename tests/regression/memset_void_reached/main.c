/* memset through a void pointer, reached: UNKNOWN at the call (a modelling limit). */
#include <assert.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);

void clear(void *p, unsigned long n, int really) {
  if (really) memset(p, 0, n);
}

int main(void) {
  int x = 1;
  clear(&x, sizeof x, __VERIFIER_nondet_int());
  assert(x == 1);
  return 0;
}
