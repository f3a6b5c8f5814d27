// pthread_self and pthread_equal (issue 43): a thread's own handle is the one pthread_create
// stored, main's differs from every created thread's and is not 0 (glibc's is an address).
#include <assert.h>
#include <pthread.h>

pthread_t seen[2];

void *worker(void *arg) {
  seen[(long)arg] = pthread_self();
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  assert(pthread_equal(seen[0], t[0]) && pthread_equal(seen[1], t[1]));
  assert(!pthread_equal(seen[0], seen[1]));
  assert(!pthread_equal(pthread_self(), t[0]) && !pthread_equal(pthread_self(), t[1]));
  assert(pthread_self() != 0);
  return 0;
}
