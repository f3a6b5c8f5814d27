/* memset through a void pointer has no cells to work on: a modelling limit where it is
 * reached, not a refusal of a program that never reaches it. */
#include <assert.h>
#include <string.h>

void clear(void *p, unsigned long n, int really) {
  if (really) memset(p, 0, n);
}

int main(void) {
  int x = 1;
  clear(&x, sizeof x, 0);
  assert(x == 1);
  return 0;
}
