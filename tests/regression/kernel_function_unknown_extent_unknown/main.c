/* issue 41: a kernel function that may write numbers of unknown extent (u8 *) cannot be
 * modelled: UNKNOWN when the call is reached, naming it; a program that never reaches it is
 * still answered (the check below). */
#include <assert.h>
#include <stdlib.h>
extern int __siren_kernel_environment;
extern int __VERIFIER_nondet_int(void);
void memcpy_fromio(unsigned char *to, const void *from, unsigned long n);
int main(void) {
  unsigned char *p = malloc(16);
  if (!p) return 0;
  p[0] = 1;
  if (__VERIFIER_nondet_int()) memcpy_fromio(p, (void *)0, 4);
  assert(p[0] == 1);
  return 0;
}
