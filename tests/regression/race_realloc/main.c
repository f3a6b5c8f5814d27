/* realloc frees the old object, and free accesses it (C11 7.22.3p2): it races with a
 * thread's unlocked read of that object. */
#include <pthread.h>
#include <stdlib.h>

int *buf;
int total;

void *reader(void *arg) {
  int *b = arg;
  total = b[0];
  return NULL;
}

int main(void) {
  pthread_t t;
  buf = malloc(2 * sizeof(int));
  buf[0] = 1;
  pthread_create(&t, NULL, reader, buf);
  buf = realloc(buf, 8 * sizeof(int));
  pthread_join(t, NULL);
  free(buf);
  return 0;
}
