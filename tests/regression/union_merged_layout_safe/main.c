/* A union whose members have different cells that never overlap partially: `a` and `s.x`
   are one cell, `s.y` is a cell of its own (semantics.md, "Memory"). A worker writes through
   one member, main reads through the other, under a lock. */
#include <assert.h>
#include <pthread.h>
union U { int a; struct { int x, y; } s; } u;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  u.s.y = 2;
  u.a = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  int x = u.s.x, y = u.s.y;
  pthread_mutex_unlock(&m);
  assert((x == 0 && y == 0) || (x == 1 && y == 2));
  pthread_join(t, 0);
  assert(u.s.x == 1 && u.s.y == 2);
  return 0;
}
