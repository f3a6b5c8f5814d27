/* siren race: the thread writes `data` only when rand() < 0, which the real rand() never
   returns; main reads it unprotected. The race needs an impossible value: not a RACE
   (UNKNOWN naming rand()). */
#include <pthread.h>
int rand(void);
int data;
void *t(void *arg) {
  if (rand() < 0) data = 1;
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  int v = data;
  pthread_join(id, 0);
  return v;
}
