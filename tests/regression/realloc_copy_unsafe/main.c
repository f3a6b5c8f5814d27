/* realloc copies the old elements: a[1] is 2 after the object grows, so the assertion fails
 * (a model that did not copy, or copied from the wrong element, would miss it or fail at
 * another one). */
#include <assert.h>
#include <stdlib.h>

int main(void) {
  int *a = malloc(2 * sizeof(int));
  a[0] = 1;
  a[1] = 2;
  a = realloc(a, 3 * sizeof(int));
  a[2] = 3;
  assert(a[0] == 1);
  assert(a[1] == 5);
  free(a);
  return 0;
}
