// __goblint_check tells Goblint what to check and changes nothing when the program runs: a
// check that fails does not end the execution, so the race after it is there (siren, which
// first made the check an assertion, stopped there and answered no race).
#include <pthread.h>

void __goblint_check(_Bool exp);

int g;

void *t_fun(void *arg) {
  g = 2;
  return NULL;
}

int main(void) {
  pthread_t id;
  pthread_create(&id, NULL, t_fun, NULL);
  __goblint_check(0);
  g = 1;
  pthread_join(id, NULL);
  return 0;
}
