/* rand() is declared, not defined: siren lets it return any int, but the real rand() returns
   a value in [0, RAND_MAX]. The assertion fails only with a negative value, so siren's
   counterexample does not happen natively with the real library: UNKNOWN naming rand(). */
#include <pthread.h>
#include <assert.h>
int rand(void);
int x;
void *t(void *arg) {
  x = rand();
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  pthread_join(id, 0);
  assert(x >= 0);
  return 0;
}
