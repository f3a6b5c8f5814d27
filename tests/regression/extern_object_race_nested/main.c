// Goblint's tests/04-mutex/77-type-nested-fields.c: getS() may return the struct S inside the
// struct T that getT() returns, so the two writes of field race.
#include <pthread.h>

struct S {
  int field;
};

struct T {
  struct S s;
};

extern struct S *getS();
extern struct T *getT();

void *t_fun(void *arg) {
  getS()->field = 1; // RACE!
  return NULL;
}

int main(void) {
  pthread_t id;
  pthread_create(&id, NULL, t_fun, NULL);
  getT()->s.field = 2; // RACE!
  return 0;
}
