// foo() has no body and is given bar: bar and the thread take the same mutex, so a single call
// does not race, but foo may call bar again later or from another thread, which siren does not
// model: no race is not a verdict siren can give here (UNKNOWN, a modelling limit).
#include <pthread.h>

extern void foo(void (*callback)(int));

int glob;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *t_fun(void *arg) {
  pthread_mutex_lock(&m);
  glob = glob + 1;
  pthread_mutex_unlock(&m);
  return NULL;
}

void bar(int x) {
  pthread_mutex_lock(&m);
  glob = glob + x;
  pthread_mutex_unlock(&m);
}

int main() {
  pthread_t id;
  pthread_create(&id, NULL, t_fun, NULL);
  foo(bar);
  pthread_join(id, NULL);
  return 0;
}
