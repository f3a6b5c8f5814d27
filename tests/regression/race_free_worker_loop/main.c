/* Workers created in a loop without a bound share one object; each increments its counter
 * under the lock, and one of them may free it without the lock: the free races with another
 * worker's locked increment: the explicit-state search finds the race (a free is a write of
 * the whole object). */
#include <pthread.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct shared {
  int count;
};

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
struct shared *s;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  s->count++;
  pthread_mutex_unlock(&m);
  if (__VERIFIER_nondet_int()) free(s);
  return NULL;
}

int main(void) {
  s = malloc(sizeof(struct shared));
  if (!s) return 0;
  s->count = 0;
  while (__VERIFIER_nondet_int()) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
  }
  return 0;
}
