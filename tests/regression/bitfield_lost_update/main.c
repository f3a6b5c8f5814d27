/* A bit-field write is a read-modify-write of its memory location: two threads that set two
   different adjacent bit-fields without a lock can lose one of the updates. */
#include <pthread.h>
extern void reach_error(void);
struct state {
  unsigned opened : 1;
  unsigned armed : 1;
  unsigned mode : 3;
} st;
void *open_it(void *arg) {
  st.opened = 1;
  return 0;
}
void *arm_it(void *arg) {
  st.armed = 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, open_it, 0);
  pthread_create(&b, 0, arm_it, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (!(st.opened && st.armed)) reach_error();
  return 0;
}
