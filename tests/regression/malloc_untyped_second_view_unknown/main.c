/* An allocation typed at its first use (int *, so four int cells) and then also read
   through a long *: a long spans two int cells, which siren's cells cannot express, so the
   answer is UNKNOWN (a possible memory-safety violation), never the value of a wrong cell. */
#include <stdlib.h>
#include <assert.h>
int main(void) {
  void *p = malloc(16);
  int *words = p;
  long *longs = p;
  words[0] = 1;
  words[1] = 0;
  assert(longs[0] == 1);
  return 0;
}
