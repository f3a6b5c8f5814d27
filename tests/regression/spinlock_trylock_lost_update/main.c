/* The second thread updates the counter even when pthread_spin_trylock fails (EBUSY): an
   update can be lost. */
#include <pthread.h>
#include <assert.h>
pthread_spinlock_t lock;
int counter;
void *locked(void *arg) {
  pthread_spin_lock(&lock);
  counter = counter + 1;
  pthread_spin_unlock(&lock);
  return 0;
}
void *careless(void *arg) {
  int busy = pthread_spin_trylock(&lock);
  counter = counter + 1;
  if (!busy) pthread_spin_unlock(&lock);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
  pthread_create(&a, 0, locked, 0);
  pthread_create(&b, 0, careless, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 2);
  return 0;
}
