/* Driver style: the private data is allocated as void * (never converted at the call) and
   reached by the workers through a conversion of the global pointer; the counter is
   incremented without the lock, so one update can be lost. The heap object takes its type
   from the first conversion of `priv` (struct priv *). */
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>
struct priv { pthread_mutex_t lock; int count; int flags; };
void *priv;
void *worker(void *arg) {
  struct priv *p = priv;
  p->count = p->count + 1;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  priv = malloc(sizeof(struct priv));
  struct priv *p = priv;
  pthread_mutex_init(&p->lock, 0);
  p->count = 0;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(p->count == 2);
  return 0;
}
