// A malloc site in a loop allocates a new object each time: the five cells keep their five
// values. siren gives a site on a cycle one object first; the UNKNOWN at its second execution
// ("heap: call site executed more than once") makes check load the program again with 16
// objects per such site (ir::ThreadModelOptions::heap_slots), which answers SAFE.
#include <stdlib.h>

extern void reach_error(void);

int main(void) {
  int *p[5];
  for (int i = 0; i < 5; i++) {
    p[i] = malloc(sizeof(int));
    if (!p[i]) return 0;
    *p[i] = i;
  }
  for (int i = 0; i < 5; i++)
    if (*p[i] != i) reach_error();
  for (int i = 0; i < 5; i++) free(p[i]);
  return 0;
}
