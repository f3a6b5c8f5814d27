/* issue 41: Whoop's assumption. A kernel function without a body does not write a driver
 * structure that holds pointers (struct file), nor opaque data (void *); its return value is
 * arbitrary. The driver's flags field keeps its value. */
#include <assert.h>
#include <stdlib.h>
extern int __siren_kernel_environment;
struct file { void *private_data; int f_flags; };
int nonseekable_open(void *inode, struct file *filp);
int main(void) {
  struct file *f = malloc(sizeof *f);
  if (!f) return 0;
  f->f_flags = 3;
  f->private_data = 0;
  int r = nonseekable_open(0, f);
  if (r != 0 && r != 1) return 0; /* any value: both branches stay */
  assert(f->f_flags == 3);
  return 0;
}
