/* Two workers and main meet at a barrier twice: each writes its slot in phase 1 and reads the
   others' slots in phase 2, then again with new values. Exactly one waiter per round gets
   PTHREAD_BARRIER_SERIAL_THREAD. */
#include <pthread.h>
#include <assert.h>
pthread_barrier_t bar;
int slot[3];
int serial;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void round_trip(int me) {
  slot[me] = me + 1;
  if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD) {
    pthread_mutex_lock(&m);
    serial = serial + 1;
    pthread_mutex_unlock(&m);
  }
  assert(slot[(me + 1) % 3] == (me + 1) % 3 + 1);
  pthread_barrier_wait(&bar);
  slot[me] = 10 * (me + 1);
  pthread_barrier_wait(&bar);
  assert(slot[(me + 2) % 3] == 10 * ((me + 2) % 3 + 1));
}
void *worker(void *arg) { round_trip((int)(long)arg); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_barrier_init(&bar, 0, 3);
  pthread_create(&a, 0, worker, (void *)1);
  pthread_create(&b, 0, worker, (void *)2);
  round_trip(0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(serial == 1);
  pthread_barrier_destroy(&bar);
  return 0;
}
