/* __builtin_clz(0) is undefined behaviour: UNKNOWN naming it, never a value (a value would
   let the assertion fail or hold by guess). */
#include <pthread.h>
#include <assert.h>
unsigned mask = 1;
void *t(void *arg) {
  mask = 0;
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  int n = __builtin_clz(mask);
  assert(n == 31);
  pthread_join(id, 0);
  return 0;
}
