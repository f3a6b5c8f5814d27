/* Two threads each claim the lowest free bit of a shared mask with ffs() under a lock. With
   ffs returning any int (the old convention for functions without a body), the assertions
   fail (ffs naming a bit that is clear); ffs is modelled exactly: SAFE. */
#include <pthread.h>
#include <strings.h>
#include <assert.h>
int mask = 0x6;  /* bits 1 and 2 free */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *claim(void *arg) {
  pthread_mutex_lock(&m);
  int v = mask;
  int i = ffs(v);
  assert(i == 2 || i == 3);
  mask = v & ~(1 << (i - 1));
  pthread_mutex_unlock(&m);
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
