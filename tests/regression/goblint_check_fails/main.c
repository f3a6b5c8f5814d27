// __goblint_check is an assertion (Goblint's goblint.h): this one fails when the worker has
// not run yet.
#include <pthread.h>

void __goblint_check(_Bool exp);

int g;

void *t_fun(void *arg) {
  g = 1;
  return NULL;
}

int main(void) {
  pthread_t id;
  pthread_create(&id, NULL, t_fun, NULL);
  __goblint_check(g == 1);
  pthread_join(id, NULL);
  return 0;
}
