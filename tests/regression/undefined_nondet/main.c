/* CBMC's convention: nondet_int() has no body, so each call returns an arbitrary int. */
#include <pthread.h>
#include <assert.h>
int nondet_int(void);
int x;
void *t(void *a) { x = nondet_int(); return 0; }
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  pthread_join(id, 0);
  assert(x != 5);
  return 0;
}
