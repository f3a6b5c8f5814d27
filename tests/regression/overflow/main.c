/* 200 + 200 wraps to 144 in an unsigned char: the error is only reachable through the
   overflow. */
#include <pthread.h>
extern void reach_error(void);
unsigned char u = 0;
pthread_mutex_t m;
void *add(void *arg) {
  pthread_mutex_lock(&m);
  u = u + 200;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, add, 0);
  pthread_create(&b, 0, add, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (u == 144) reach_error();
  return 0;
}
