// The assertion mixes up the handles: a worker that runs first stores its own handle, which
// is not main's.
#include <assert.h>
#include <pthread.h>

pthread_t seen;

void *worker(void *arg) {
  seen = pthread_self();
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(pthread_equal(seen, pthread_self()));
  return 0;
}
