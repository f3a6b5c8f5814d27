/* realloc to size 0 is implementation-defined (C11 7.22.3p1; glibc frees the object and
 * returns null): not modelled, so a verdict that would depend on it is never given. */
#include <stdlib.h>

extern void reach_error(void);

int main(void) {
  int *p = malloc(sizeof(int));
  int *q = realloc(p, 0);
  if (q == NULL) reach_error();
  return 0;
}
