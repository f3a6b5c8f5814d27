/* free() after the thread that uses the object is joined: no race (the join orders them). */
#include <pthread.h>
#include <stdlib.h>

struct item {
  int count;
  int flags;
};

void *worker(void *arg) {
  struct item *it = arg;
  it->flags = 1;
  return NULL;
}

int main(void) {
  pthread_t t;
  struct item *it = malloc(sizeof(struct item));
  if (!it) return 0;
  it->count = 0;
  pthread_create(&t, NULL, worker, it);
  pthread_join(t, NULL);
  free(it);
  return 0;
}
