/* Passing a shared struct by value reads its fields at the call: a race with a write of one. */
#include <pthread.h>
struct cfg { int a; int b; };
struct cfg shared = {1, 2};
int total(struct cfg c) { return c.a + c.b; }
void *worker(void *arg) { shared.b = 5; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int s = total(shared);
  pthread_join(t, 0);
  return s;
}
