/* Two adjacent bit-fields are one memory location (C11 3.14): writing them from two threads
   without a lock is a data race, although the fields are different. */
#include <pthread.h>
struct flags {
  unsigned ready : 1;
  unsigned count : 7;
} f;
void *worker(void *arg) {
  f.ready = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, worker, 0);
  f.count = 5;
  pthread_join(h, 0);
  return 0;
}
