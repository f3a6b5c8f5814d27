/* fnptr_ops_table with the callbacks' update under the table's mutex: x ends at 2. The get
   callback chosen at run time (inc or dec by a flag) decides the sign. */
#include <pthread.h>
#include <assert.h>
struct ops { int (*get)(int); void (*put)(int *, int); pthread_mutex_t lock; };
int x;
int up = 1;
int get_inc(int a) { return a + 1; }
int get_dec(int a) { return a - 1; }
void put_plain(int *p, int v) { *p = v; }
struct ops fops = { .get = get_inc, .put = put_plain };
void *worker(void *arg) {
  struct ops *o = arg;
  pthread_mutex_lock(&o->lock);
  o->put(&x, o->get(x));
  pthread_mutex_unlock(&o->lock);
  return 0;
}
int main(void) {
  pthread_t a, b;
  void *(*start)(void *) = worker;
  pthread_mutex_init(&fops.lock, 0);
  if (!up) fops.get = get_dec;
  pthread_create(&a, 0, start, &fops);
  pthread_create(&b, 0, worker, &fops);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(x == 2);
  return 0;
}
