/* Two threads increment a counter under a pthread spin lock (modelled as a mutex). */
#include <pthread.h>
#include <assert.h>
pthread_spinlock_t lock;
int counter;
void *inc(void *arg) {
  pthread_spin_lock(&lock);
  counter = counter + 1;
  pthread_spin_unlock(&lock);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 2);
  pthread_spin_destroy(&lock);
  return 0;
}
