// Goblint's tests/04-mutex/56-extern_call_by_ptr_rc.c: foo() has no body and is given bar, so
// it may call bar, which writes glob under mutex1 while the thread writes it under mutex2.
#include <pthread.h>

extern void foo(int (*callback)(void));

int glob;
pthread_mutex_t mutex1 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t mutex2 = PTHREAD_MUTEX_INITIALIZER;

void *t_fun(void *arg) {
  pthread_mutex_lock(&mutex2);
  glob = glob + 1; // RACE!
  pthread_mutex_unlock(&mutex2);
  return NULL;
}

int bar() {
  pthread_mutex_lock(&mutex1);
  glob = glob + 1; // RACE!
  pthread_mutex_unlock(&mutex1);
  return 0;
}

int main() {
  pthread_t id;
  pthread_create(&id, NULL, t_fun, NULL);
  foo(bar);
  pthread_join(id, NULL);
  return 0;
}
