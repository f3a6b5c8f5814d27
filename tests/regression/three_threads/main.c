/* Only reachable when three created threads have all run before main's check. */
#include <pthread.h>
extern void reach_error(void);
int a, b, c;
void *ta(void *arg) { a = 1; return 0; }
void *tb(void *arg) { b = 1; return 0; }
void *tc(void *arg) { c = 1; return 0; }
int main(void) {
  pthread_t x, y, z;
  pthread_create(&x, 0, ta, 0);
  pthread_create(&y, 0, tb, 0);
  pthread_create(&z, 0, tc, 0);
  int ra = a, rb = b, rc = c;
  if (ra && rb && rc) reach_error();
  return 0;
}
