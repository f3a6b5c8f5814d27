/* Every thread reads `table` only after pthread_once returned, and init wrote it inside
   pthread_once: no data race (the once control itself is a synchronisation object). */
#include <pthread.h>
pthread_once_t once = PTHREAD_ONCE_INIT;
int table;
void init(void) { table = 42; }
void *user(void *a) { pthread_once(&once, init); return (void *)(long)table; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, user, 0);
  pthread_create(&b, 0, user, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
