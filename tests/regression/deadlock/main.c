/* Two locks taken in opposite orders can deadlock; a deadlock is not an assertion failure,
   and both bodies finish in bounded time, so the bound is complete. */
#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t m1, m2;
int done = 0;
void *t(void *arg) {
  pthread_mutex_lock(&m2);
  pthread_mutex_lock(&m1);
  done = 1;
  pthread_mutex_unlock(&m1);
  pthread_mutex_unlock(&m2);
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  pthread_mutex_lock(&m1);
  pthread_mutex_lock(&m2);
  pthread_mutex_unlock(&m2);
  pthread_mutex_unlock(&m1);
  pthread_join(id, 0);
  if (done != 1) reach_error();
  return 0;
}
