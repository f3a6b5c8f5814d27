/* race_fnptr_callback with the callback under a mutex: no data race. */
#include <pthread.h>
int events;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void on_event(int n) { pthread_mutex_lock(&m); events = events + n; pthread_mutex_unlock(&m); }
void (*handler)(int);
void *dispatcher(void *arg) { handler(1); return 0; }
int main(void) {
  pthread_t a, b;
  handler = on_event;
  pthread_create(&a, 0, dispatcher, 0);
  pthread_create(&b, 0, dispatcher, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return events;
}
