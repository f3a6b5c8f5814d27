/* The thread writes x only through an alias; main's check sees the write. */
#include <pthread.h>
extern void reach_error(void);
int x = 0;
int *p;
void *writer(void *arg) { int *q = (int *)arg; *q = 5; return 0; }
int main(void) {
  pthread_t t;
  p = &x;
  pthread_create(&t, 0, writer, p);
  pthread_join(t, 0);
  if (x == 5) reach_error();
  return 0;
}
