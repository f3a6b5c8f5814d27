// As race_search_per_entry_locks_safe, but main reads one entry's count without its lock after
// the loop: a read/write race with the worker's increment (found by the explicit-state search;
// `--test-race-search-writes-only` counts only write/write pairs and misses it).
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
  int seen = table[N - 1].refs;  // no lock: races with the worker's last increment
  pthread_join(t, NULL);
  return seen;
}
