/* x++ is a read step and a write step: two threads can lose an update. */
#include <pthread.h>
extern void reach_error(void);
int x = 0;
void *inc(void *arg) { x++; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (x != 2) reach_error();
  return 0;
}
