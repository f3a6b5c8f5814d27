/* The same size derivation is exact: slots[3] is out of bounds of the 3-cell object. */
#include <stdlib.h>
extern void reach_error(void);
int **slots;
void init(int n) { slots = calloc(n, sizeof(int *)); }
int main(void) {
  init(3);
  if (slots[3] != 0) reach_error();
  return 0;
}
