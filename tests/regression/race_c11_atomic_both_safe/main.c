/* Every access to m is atomic (an _Atomic object's loads, stores and ++, atomic_store) and so
   are the __sync / __atomic accesses to the plain int g: no data race. */
#include <pthread.h>
#include <stdatomic.h>
atomic_int m;
int g;
void *t1(void *arg) {
  atomic_store(&m, 1);
  m = 2;
  m++;
  __sync_fetch_and_add(&g, 1);
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t1, 0);
  int s = m + atomic_load(&m);
  s += __atomic_load_n(&g, __ATOMIC_SEQ_CST);
  __atomic_store_n(&g, 0, __ATOMIC_SEQ_CST);
  return s;
}
