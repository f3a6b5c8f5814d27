// pthread_detach (issue 43): a detached thread runs beside main, unjoined; its write races
// with main's.
#include <pthread.h>

int x;

void *worker(void *arg) {
  x = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_attr_t a;
  pthread_attr_init(&a);
  pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
  pthread_t u;
  pthread_create(&u, &a, worker, 0);
  pthread_create(&t, 0, worker, 0);
  pthread_detach(t);
  x = 2;
  return 0;
}
