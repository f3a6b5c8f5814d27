/* realloc keeps the old elements when the object grows or shrinks, and realloc(NULL, n) is
 * malloc(n) (C11 7.22.3.5). */
#include <assert.h>
#include <stdlib.h>

struct pair {
  int key;
  int *value;
};

int main(void) {
  int *a = malloc(2 * sizeof(int));
  a[0] = 1;
  a[1] = 2;
  a = realloc(a, 4 * sizeof(int));
  a[2] = 3;
  a[3] = 4;
  assert(a[0] == 1 && a[1] == 2 && a[2] == 3 && a[3] == 4);
  a = realloc(a, sizeof(int));
  assert(a[0] == 1);
  free(a);

  int v = 7;
  struct pair *p = realloc(NULL, sizeof(struct pair));
  p->key = 5;
  p->value = &v;
  p = realloc(p, 3 * sizeof(struct pair));
  assert(p->key == 5 && *p->value == 7);
  free(p);
  return 0;
}
