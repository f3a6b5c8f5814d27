/* Byte arithmetic on a pointer to a struct of ints: 4 bytes are one int, so the pointer
   lands on s.b. siren's pointers count bytes (semantics.md, "Memory"), like C's. (When they
   counted cells this read s.e, a wrong UNSAFE; then it was UNKNOWN.) A char pointer kept in
   a variable moves in bytes too. */
#include <assert.h>
struct six { int a, b, c, d, e, f; } s = { 1, 2, 3, 4, 5, 6 };
int main(void) {
  int *q = (int *)((char *)&s + 4);
  assert(*q == 2);
  char *b = (char *)&s;
  b = b + 16;
  assert(*(int *)b == 5);
  return 0;
}
