/* fill() has no body and gets a pointer it could write through: "changes nothing" would be a
   guess, so siren says UNKNOWN. */
#include <assert.h>
void fill(int *p);
int x;
int main(void) {
  fill(&x);
  assert(x == 0);
  return 0;
}
