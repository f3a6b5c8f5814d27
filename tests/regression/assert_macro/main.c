/* A failing assert() from <assert.h> is a violation, like reach_error(). */
#include <pthread.h>
#include <assert.h>
int x = 0;
void *t(void *arg) { x = 3; return 0; }
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  int seen = x;
  assert(seen == 0 || seen == 2);
  return 0;
}
