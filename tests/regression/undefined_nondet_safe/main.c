/* nondet values from a function without a body, constrained before use: never out of range. */
#include <pthread.h>
#include <assert.h>
int nondet_int(void);
unsigned int nondet_uint(void);
int x;
void *t(void *a) { int v = nondet_int(); if (v < 0 || v > 3) v = 0; x = v; return 0; }
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  unsigned u = nondet_uint() % 4u;
  pthread_join(id, 0);
  assert(x + u <= 6);
  return 0;
}
