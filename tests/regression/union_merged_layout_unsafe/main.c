/* The same union without the lock on the reader's side: main may read s.x after the
   worker's write of `a` (the same cell) and s.y before its write of s.y. */
#include <assert.h>
#include <pthread.h>
union U { int a; struct { int x, y; } s; } u;
void *worker(void *arg) {
  u.a = 1;
  u.s.y = 2;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int x = u.s.x, y = u.s.y;
  assert(!(x == 1 && y == 0));
  pthread_join(t, 0);
  return 0;
}
