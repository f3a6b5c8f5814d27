/* The same increments under a mutex cannot lose an update. */
#include <pthread.h>
extern void reach_error(void);
int x = 0;
pthread_mutex_t m;
void *inc(void *arg) {
  pthread_mutex_lock(&m);
  x++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_mutex_init(&m, 0);
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (x != 2) reach_error();
  return 0;
}
