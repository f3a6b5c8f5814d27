/* A compare-and-swap that fails only reads (C11 5.1.2.4: accesses conflict when one of them
   modifies the location): g is never 1, so the worker's CAS never writes, and main's plain
   read of g races with nothing. (The native oracle once counted every CAS as a write.) */
#include <pthread.h>
int g;
void *t(void *arg) { __sync_val_compare_and_swap(&g, 1, 2); return 0; }
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int seen = g;
  pthread_join(h, 0);
  return seen;
}
