/* A condition-variable hand-off with the waiting condition re-checked in a loop (as POSIX
   requires, since wake-ups may be spurious). */
#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t m;
pthread_cond_t c;
int ready = 0, data = 0;
void *producer(void *arg) {
  pthread_mutex_lock(&m);
  data = 7;
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_mutex_init(&m, 0);
  pthread_cond_init(&c, 0);
  pthread_create(&id, 0, producer, 0);
  pthread_mutex_lock(&m);
  while (!ready) pthread_cond_wait(&c, &m);
  int d = data;
  pthread_mutex_unlock(&m);
  pthread_join(id, 0);
  if (d != 7) reach_error();
  return 0;
}
