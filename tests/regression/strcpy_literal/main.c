/* strcpy writes one character per step: a reader running between two of its steps sees a
   partly copied string ("a" where "abc" is being written). */
#include <pthread.h>
#include <string.h>
extern void reach_error(void);
char buf[8];
void *writer(void *arg) {
  strcpy(buf, "abc");
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  if (buf[0] == 'a' && buf[1] == 0) reach_error();
  pthread_join(t, 0);
  return 0;
}
