/* A message whose payload is a union read through another member than the one written, by
   another thread: same width, same bits (an int over an unsigned; an int * over a const int *). */
#include <pthread.h>
#include <assert.h>
union word { int i; unsigned u; };
union slot { const int *c; int *p; };
struct msg { int kind; union word w; union slot s; };
struct msg m = { 1, { .u = 7u } };
int target = 42;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
void *producer(void *arg) {
  pthread_mutex_lock(&lock);
  m.w.u = 0xffffffffu;
  m.s.p = &target;
  m.kind = 2;
  pthread_mutex_unlock(&lock);
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, producer, 0);
  pthread_mutex_lock(&lock);
  if (m.kind == 2) {
    assert(m.w.i == -1);
    assert(*m.s.c == 42);
  } else {
    assert(m.w.i == 7);
  }
  pthread_mutex_unlock(&lock);
  union slot local;
  local.p = &target;
  assert(local.c == &target);
  pthread_join(id, 0);
  return 0;
}
