/* The correct use of a weak compare-exchange: retried in a loop, spurious failures included. */
#include <pthread.h>
#include <stdatomic.h>
extern void reach_error(void);
atomic_int x;
void *inc(void *arg) {
  int v = atomic_load(&x);
  while (!atomic_compare_exchange_weak(&x, &v, v + 1))
    ;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (atomic_load(&x) != 2) reach_error();
  return 0;
}
