// An attribute that selects semantics siren does not model (issue 40, "a rule, not a patch"):
// priority inheritance. The answer is UNKNOWN naming the call, never the default's verdict.
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m;
int x;

void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  x = x + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
  pthread_mutex_init(&m, &a);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(x == 1);
  return 0;
}
