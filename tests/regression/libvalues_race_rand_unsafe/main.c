/* The twin of libvalues_race_rand_unknown: the thread writes `data` when rand() >= 0,
   which the real rand() does; main reads it unprotected: a real data race, confirmed
   natively (UNSAFE). */
#include <pthread.h>
int rand(void);
int data;
void *t(void *arg) {
  if (rand() >= 0) data = 1;
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  int v = data;
  pthread_join(id, 0);
  return v;
}
