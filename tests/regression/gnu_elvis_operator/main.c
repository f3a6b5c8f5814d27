/* GNU `a ?: b` (Linux drivers: `fp->read_command ? : 2`): a, evaluated once, if non-zero,
 * else b. The side effect of a happens once; the assertion on the second call's value fails. */
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
static int calls;
static int next(int v) {
  calls++;
  return v;
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  int a = next(x) ?: 7;
  assert(calls == 1);
  assert(x == 0 ? a == 7 : a == x);
  int *p = 0;
  int *q = p ?: &a;
  assert(q == &a);
  assert((next(3) ?: 9) == 3 && calls == 2);
  assert((next(0) ?: 9) != 9);  /* fails: 0 ?: 9 is 9 */
  return 0;
}
