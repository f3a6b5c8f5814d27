/* issue 41: siren's kernel model of kmalloc/kzalloc (kernel/include/linux/slab.h). Whoop's
 * Model/linux/slab.h allocates sizeof(size), 8 bytes, whatever is asked: the write to b->last
 * would be out of bounds. kzalloc zeroes what it allocates, so the assertion holds; with
 * -DKMALLOC (kernel_kmalloc_not_zeroed) the same object from kmalloc holds arbitrary bytes. */
#include <siren_kernel.h>
#include <linux/types.h>
#include <linux/gfp.h>
#include <linux/slab.h>
#include <assert.h>

struct big {
  long a[6];
  int last;
};

int main(void) {
#ifdef KMALLOC
  struct big *b = kmalloc(sizeof(*b), GFP_KERNEL);
#else
  struct big *b = kzalloc(sizeof(*b), GFP_KERNEL);
#endif
  if (!b) return 0;
  b->last = 5;
  assert(b->a[3] == 0 && b->last == 5);
  kfree(b);
  return 0;
}
