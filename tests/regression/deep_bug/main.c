/* The error needs the worker to finish eight loop iterations first: no execution shorter
   than 10 steps reaches it. */
#include <pthread.h>
extern void reach_error(void);
int counter = 0;
void *worker(void *arg) {
  for (int i = 0; i < 8; i++) counter = counter + 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  if (counter == 8) reach_error();
  return 0;
}
