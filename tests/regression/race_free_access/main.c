/* free() races with a thread's access to the object (C11 7.22.3p2: for data races, free
 * accesses the object its argument points to, as a write). */
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
  free(it);
  pthread_join(t, NULL);
  return 0;
}
