/* A pointer into the middle of an int (byte 1 of s.b), then read as an int: the access
   overlaps two cells, which siren's cells cannot express, so the answer is UNKNOWN (a
   possible memory-safety violation), never the value of a wrong cell. */
#include <assert.h>
struct two { int a, b; } s = { 1, 2 };
int main(void) {
  char *p = (char *)&s.b + 1;
  int v = *(int *)p;
  assert(v != 12345);
  return 0;
}
