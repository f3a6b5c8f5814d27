/* malloc of a size without any bound: the object has a capacity of 64 elements, and only an
   access past them would be UNKNOWN; this program touches the first byte only: SAFE. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  unsigned n = __VERIFIER_nondet_int();
  char *a = malloc(n);
  if (n > 0) {
    a[0] = 1;
    if (a[0] != 1) reach_error();
  }
  return 0;
}
