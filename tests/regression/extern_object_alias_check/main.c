// A function without a body that returns a pointer never returns NULL, and two calls may
// return the same object: the second assertion fails, the first never does.
#include <assert.h>

struct S {
  int field;
};

extern struct S *getS();

int main(void) {
  struct S *a = getS(), *b = getS();
  assert(a != 0 && b != 0);
  a->field = 1;
  b->field = 2;
  assert(a->field == 1);
  return 0;
}
