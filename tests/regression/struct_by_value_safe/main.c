/* Structs passed by value: the function gets a copy (its changes stay in it), through a
 * direct call, a call through a pointer, and with a struct a call returns as the argument. */
#include <assert.h>

struct cfg {
  int a;
  int b[3];
  char *name;
};

struct cfg global = {1, {2, 3, 4}, "x"};

int sum(struct cfg c, int k) {
  c.a += k;
  return c.a + c.b[0] + c.b[2];
}
int middle(struct cfg c) { return c.b[1]; }
struct cfg make(int x) {
  struct cfg c = {x, {x, x, x}, 0};
  return c;
}
int (*fp)(struct cfg) = middle;

int main(void) {
  struct cfg local = global;
  int s = sum(local, 10);
  assert(s == 17);
  assert(local.a == 1);
  assert(fp(global) == 3);
  assert(sum(make(5), 0) == 15);
  return 0;
}
