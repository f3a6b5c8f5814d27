/* A caller of pthread_once may not use what init sets before pthread_once returns: here one
   thread reads `value` before calling pthread_once at all. */
#include <pthread.h>
#include <assert.h>
pthread_once_t once = PTHREAD_ONCE_INIT;
int value;
void init(void) { value = 10; }
void *early(void *a) { assert(value == 10); pthread_once(&once, init); return 0; }
void *late(void *a) { pthread_once(&once, init); assert(value == 10); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, late, 0);
  pthread_create(&b, 0, early, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
