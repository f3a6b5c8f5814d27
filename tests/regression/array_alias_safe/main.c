/* Writes through a pointer into a[1] never touch a[0]. */
#include <pthread.h>
extern void reach_error(void);
int a[4];
void *writer(void *arg) { int *q = (int *)arg; q[1] = 7; q[2] = 8; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, a);
  pthread_join(t, 0);
  if (a[0] != 0 || a[1] != 7 || a[2] != 8 || a[3] != 0) reach_error();
  return 0;
}
