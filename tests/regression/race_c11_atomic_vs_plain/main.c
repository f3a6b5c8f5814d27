/* atomic_init is not an atomic operation (C11 7.17.2.2p2): initialising m while another thread
   atomically adds to it is a data race. */
#include <pthread.h>
#include <stdatomic.h>
atomic_int m;
void *t1(void *arg) {
  atomic_fetch_add(&m, 1);
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t1, 0);
  atomic_init(&m, 5);
  return 0;
}
