// Triage regression program: pairs ordered by create/join, lock-protected pairs, disjoint array
// cells, an unreachable write, and one real race (r).
#include <pthread.h>
int g, h, u, r, never, arr[4];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  g = 1;
  arr[1] = 5;
  pthread_mutex_lock(&m);
  h++;
  pthread_mutex_unlock(&m);
  r = 1;
  if (never)
    u = 7;
  return 0;
}
int main(void) {
  pthread_t t;
  g = 0;
  arr[0] = 1;
  pthread_create(&t, 0, worker, 0);
  arr[2] = 3;
  u = 2;
  pthread_mutex_lock(&m);
  h = h + 1;
  pthread_mutex_unlock(&m);
  r = 2;
  pthread_join(t, 0);
  g = 2;
  return 0;
}
