/* A __VERIFIER_nondet_int() call written inside a macro: the trace's row shows the macro's
 * name as its statement, and must still carry the value (the native replay feeds it back;
 * without it the native run draws its own value and misses the violation). */
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
#define PICK(x) if (__VERIFIER_nondet_int() == 1234567) x = 1; else x = 2;
int g;
void *worker(void *arg) {
  int x;
  PICK(x)
  g = x;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(g != 1);
  return 0;
}
