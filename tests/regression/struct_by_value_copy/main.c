/* A struct parameter is a copy: the caller's struct keeps its value (the assertion that the
 * callee's change reached it fails). */
#include <assert.h>

struct cfg {
  int a;
  int b;
};

int bump(struct cfg c) {
  c.a = c.a + 10;
  return c.a;
}

int main(void) {
  struct cfg local = {1, 2};
  int r = bump(local);
  assert(r == 11);
  assert(local.a == 11);
  return 0;
}
