/* A call through a pointer that no assignment set: not a skipped call, not a guess: UNKNOWN. */
#include <assert.h>
int (*hook)(int);
int twice(int v) { return 2 * v; }
int main(void) {
  int (*unused)(int) = twice;
  int r = hook(3);
  assert(r == 6);
  return 0;
}
