/* A spin lock from GCC's __sync builtins protects a plain counter. */
#include <pthread.h>
extern void reach_error(void);
int lock;
int counter;
void acquire(void) {
  while (!__sync_bool_compare_and_swap(&lock, 0, 1))
    ;
}
void release(void) { __sync_lock_release(&lock); }
void *inc(void *arg) {
  acquire();
  counter = counter + 1;
  release();
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __sync_synchronize();
  if (counter != 2) reach_error();
  return 0;
}
