/* pthread_specific_safe, but the worker given &b increments b: b is 1 at the end. */
#include <pthread.h>
#include <assert.h>
pthread_key_t key;
int a, b;
void *t(void *arg) {
  assert(pthread_getspecific(key) == 0);
  pthread_setspecific(key, arg);
  int *mine = pthread_getspecific(key);
  *mine = *mine + 1;
  return 0;
}
int main(void) {
  pthread_t x, y;
  pthread_key_create(&key, 0);
  pthread_setspecific(key, &b);
  pthread_create(&x, 0, t, &a); pthread_create(&y, 0, t, &b);
  pthread_join(x, 0); pthread_join(y, 0);
  assert(pthread_getspecific(key) == &b);
  assert(a == 1 && b == 0);
  return 0;
}
