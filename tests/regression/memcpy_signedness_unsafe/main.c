/* memcpy between char and unsigned char layouts (8139too, r8169): the same bytes, read back
 * through either signedness; c[1] is 1, so the assertion on line 16 fails (native agrees). */
#include <string.h>
#include <assert.h>
struct A { char name[4]; int x; };
struct B { unsigned char name[4]; int x; };
int main() {
  struct A a = {{-1, 2, -3, 4}, 7};
  struct B b;
  memcpy(&b, &a, sizeof b);
  assert(b.name[0] == 255 && b.name[2] == 253 && b.x == 7);
  unsigned char u[3] = {200, 1, 2};
  char c[3];
  memcpy(c, u, 3);
  assert(c[0] == -56);
  assert(c[1] == 2);
  return 0;
}
