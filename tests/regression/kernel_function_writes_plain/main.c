/* issue 41: in a kernel environment (siren_kernel.h declares the marker), a kernel function
 * without a body writes arbitrary values to the plain data it gets a pointer to: the struct
 * of numbers behind &t, the array buf. The assertion that t.sec kept its value can fail. */
#include <assert.h>
extern int __siren_kernel_environment;
struct timeval { long tv_sec; long tv_usec; };
void do_gettimeofday(struct timeval *tv);
int sprintf(char *buf, const char *fmt, ...);

int main(void) {
  struct timeval t;
  char buf[8] = "abc";
  t.tv_sec = 5;
  sprintf(buf, "%d", 42);
  do_gettimeofday(&t);
  if (buf[0] == 'a') return 0; /* buf was written too: both paths stay */
  assert(t.tv_sec == 5);
  return 0;
}
