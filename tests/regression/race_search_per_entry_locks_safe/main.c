// Each entry of a table has its own mutex, and both threads lock an entry's mutex around every
// access to that entry (the shape of Goblint's 06-symbeq/02-funloop_norace). Race-free; the
// two loops of ten calls are too deep for the BMC's completeness check within the time limit,
// while the explicit-state search visits every reachable state in well under a second.
#include <pthread.h>

#define N 10

struct entry {
  int refs;
  pthread_mutex_t lock;
} table[N];

void addref(struct entry *e) {
  pthread_mutex_lock(&e->lock);
  e->refs++;
  pthread_mutex_unlock(&e->lock);
}

void *worker(void *arg) {
  for (int i = 0; i < N; i++) addref(&table[i]);
  return NULL;
}

int main(void) {
  for (int i = 0; i < N; i++) pthread_mutex_init(&table[i].lock, NULL);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  for (int i = N - 1; i >= 0; i--) addref(&table[i]);
  pthread_join(t, NULL);
  return 0;
}
