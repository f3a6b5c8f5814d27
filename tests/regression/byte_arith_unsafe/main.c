/* Byte arithmetic through a char pointer kept in a variable, then a write through the
   int pointer it becomes: the write goes to s.c (byte 8), so the assertion fails. */
#include <assert.h>
struct six { int a, b, c, d, e, f; } s = { 1, 2, 3, 4, 5, 6 };
int main(void) {
  char *b = (char *)&s;
  b += 2 * sizeof(int);
  *(int *)b = 30;
  assert(s.c == 3);
  return 0;
}
