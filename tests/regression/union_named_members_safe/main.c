/* The kernel's kfifo pattern: a union of a struct and pointers whose members partly overlap,
   where only the struct member is ever read or written (the pointers are named only inside
   sizeof and typeof). The union's cells are the named member's (frontend/types.cpp
   union_cells), so the program is modelled; -DBUG asserts a wrong value. */
#include <assert.h>
struct fifo { unsigned int in, out, mask; void *data; };
struct box {
  union {
    struct fifo f;
    unsigned char *type;
    char (*rectype)[4];
  };
  int n;
};
struct box b;
int main(void) {
  b.f.in = 3;
  b.f.out = 1;
  b.n = 7;
  unsigned long sz = sizeof(*b.type) + sizeof(*b.rectype);
  typeof(b.type) p = 0;
  assert(b.f.in - b.f.out == 2 && sz == 5 && p == 0 && b.n == 7);
#ifdef BUG
  assert(b.f.in == b.f.out);
#endif
  return 0;
}
