/* C11 atomics: two threads atomic_fetch_add the same counter; each add is one atomic
   read-modify-write, so no update is lost. */
#include <pthread.h>
#include <stdatomic.h>
extern void reach_error(void);
atomic_int x;
void *inc(void *arg) { atomic_fetch_add(&x, 1); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (atomic_load(&x) != 2) reach_error();
  return 0;
}
