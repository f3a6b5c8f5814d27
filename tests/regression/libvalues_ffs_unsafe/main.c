/* The twin of libvalues_ffs_safe without the lock: both threads can read the mask before
   either writes, claim the same bit, and bit 2 stays set (a real lost update, which happens
   natively with the real ffs). */
#include <pthread.h>
#include <strings.h>
#include <assert.h>
int mask = 0x6;
void *claim(void *arg) {
  int v = mask;
  int i = ffs(v);
  assert(i == 2 || i == 3);
  mask = v & ~(1 << (i - 1));
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, claim, 0);
  pthread_create(&b, 0, claim, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(mask == 0);
  return 0;
}
