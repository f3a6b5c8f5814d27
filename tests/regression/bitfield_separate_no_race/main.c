/* Bit-fields separated by a member that is not a bit-field (x and z), or by a zero-width
   bit-field (z and w), are different memory locations (C11 3.14): one thread each, no race. */
#include <pthread.h>
struct regs {
  int x : 3;
  int y;
  int z : 3;
  int : 0;
  int w : 3;
} s;
void *t1(void *arg) {
  s.x = 1;
  return 0;
}
void *t2(void *arg) {
  s.w = -2;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  s.z = 2;
  s.y = 7;
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
