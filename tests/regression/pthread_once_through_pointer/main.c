// pthread_once given its routine through a pointer (Goblint's 87-once/08): whichever thread
// gets there first runs init through the pointer, the other waits for it, so both see g == 1.
#include <pthread.h>

extern void reach_error(void);

int g;
void init(void) { g = 1; }
void other(void) { g = 3; }

void (*initp)(void) = init;
pthread_once_t once = PTHREAD_ONCE_INIT;

void *thread(void *arg) {
  pthread_once(&once, initp);
  if (g != 1) reach_error();
  return NULL;
}

int main(void) {
  pthread_t id;
  void (*unused)(void) = other;  // another function without parameters whose address is taken
  (void)unused;
  pthread_create(&id, NULL, thread, NULL);
  pthread_once(&once, initp);
  if (g != 1) reach_error();
  pthread_join(id, NULL);
  return 0;
}
