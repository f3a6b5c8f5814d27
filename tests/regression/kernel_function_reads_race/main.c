/* issue 41: a kernel function without a body reads the variable behind a pointer argument
 * (copy_to_user(&stats)): the read races with the other thread's write. */
#include <pthread.h>
extern int __siren_kernel_environment;
struct stats { int rx; int tx; };
struct stats stats;
unsigned long report(const void *to, const struct stats *from, unsigned long n);
void *reader(void *arg) {
  report(arg, &stats, sizeof stats);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, (void *)0x1000);
  stats.tx = 1;
  pthread_join(t, 0);
  return 0;
}
