/* The bug needs a nondet value far outside the explicit search's small domain: --engine auto
   hands over to BMC, which finds it (and the explicit search alone must not say SAFE). */
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int x;
void *w(void *arg) { x = __VERIFIER_nondet_int(); return 0; }
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, w, 0);
  pthread_join(id, 0);
  if (x == 123456) reach_error();
  return 0;
}
