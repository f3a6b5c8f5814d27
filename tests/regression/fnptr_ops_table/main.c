/* A driver-style operations table: the threads start through a function pointer and update
   x through the table's callbacks, without a lock: an update can be lost. */
#include <pthread.h>
#include <assert.h>
struct ops { int (*get)(int); void (*put)(int *, int); };
int x;
int get_inc(int a) { return a + 1; }
int get_dec(int a) { return a - 1; }
void put_plain(int *p, int v) { *p = v; }
struct ops fops = { .get = get_inc, .put = put_plain };
void *worker(void *arg) { struct ops *o = arg; o->put(&x, o->get(x)); return 0; }
int main(void) {
  pthread_t a, b;
  void *(*start)(void *) = worker;
  pthread_create(&a, 0, start, &fops);
  pthread_create(&b, 0, worker, &fops);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(x == 2);
  return 0;
}
