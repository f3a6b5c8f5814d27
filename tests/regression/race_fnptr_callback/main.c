/* Two threads run the same registered callback; it writes a global without a lock. */
#include <pthread.h>
int events;
void on_event(int n) { events = events + n; }
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
