/* pthread_once runs init exactly once and every caller returns after it finished; try-locks
   of a reader-writer lock either take it or answer EBUSY. */
#include <pthread.h>
#include <assert.h>
pthread_once_t once = PTHREAD_ONCE_INIT;
pthread_rwlock_t rw;
int inits, value, writes;
void init(void) { inits = inits + 1; value = 10; }
void *t(void *a) {
  pthread_once(&once, init);
  assert(value >= 10);
  if (pthread_rwlock_trywrlock(&rw) == 0) { value = value + 1; writes = writes + 1; pthread_rwlock_unlock(&rw); }
  if (pthread_rwlock_tryrdlock(&rw) == 0) { int v = value; pthread_rwlock_unlock(&rw); assert(v >= 10); }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_rwlock_init(&rw, 0);
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(inits == 1);
  assert(value == 10 + writes);
  return 0;
}
