/* An atomic load followed by an atomic store is not one read-modify-write: the other thread
   can store in between and one increment is lost. */
#include <pthread.h>
#include <stdatomic.h>
extern void reach_error(void);
atomic_int x;
void *inc(void *arg) {
  int v = atomic_load(&x);
  atomic_store(&x, v + 1);
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
