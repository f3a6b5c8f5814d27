/* --no-undefined-nondet: a call to a function without a body is unsupported. */
#include <assert.h>
int nondet_int(void);
int main(void) {
  int v = nondet_int();
  assert(v == v);
  return 0;
}
