/* A thread that never ends: no bound is complete, so the answer is only "up to bound". */
#include <pthread.h>
extern void reach_error(void);
int x = 0;
void *spin(void *arg) { while (1) { x = 1 - x; } return 0; }
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, spin, 0);
  if (x > 1) reach_error();
  return 0;
}
