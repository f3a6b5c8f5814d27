// Goblint's tests/04-mutex/78-type-array.c: both calls may return the same struct S, but the
// threads write different members of it: no race.
#include <pthread.h>

struct S {
  int field;
  int arr[2];
};

extern struct S *getS();

void *t_fun(void *arg) {
  getS()->arr[1] = 1; // NORACE
  return NULL;
}

int main(void) {
  pthread_t id;
  pthread_create(&id, NULL, t_fun, NULL);
  getS()->field = 2; // NORACE
  return 0;
}
