/* The union's members have different cell layouts (an int over four chars): a byte of `i`
   is not a cell of siren's memory, so siren says UNKNOWN with the place. */
#include <assert.h>
union U { int i; char c[4]; };
union U u;
int main(void) {
  u.i = 0x01020304;
  assert(u.c[0] == 4);
  return 0;
}
