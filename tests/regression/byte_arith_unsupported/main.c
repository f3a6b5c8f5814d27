/* Byte arithmetic on a pointer to a struct of ints: 4 bytes are one int here, not four cells.
   siren's pointers count cells (semantics.md), so it says UNKNOWN instead of reading s.e
   (it used to: a wrong UNSAFE). */
#include <assert.h>
struct six { int a, b, c, d, e, f; } s = { 1, 2, 3, 4, 5, 6 };
int main(void) {
  int *q = (int *)((char *)&s + 4);
  assert(*q == 2);
  return 0;
}
