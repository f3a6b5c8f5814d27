/* Writing to a string literal is undefined in C: the write is a memory-safety error
   (UNKNOWN), so the reach_error() after it does not count. */
#include <pthread.h>
extern void reach_error(void);
char *s;
void *writer(void *arg) {
  s[1] = 'x';
  return 0;
}
int main(void) {
  pthread_t t;
  s = "abc";
  pthread_create(&t, 0, writer, 0);
  pthread_join(t, 0);
  if (s[1] == 'x') reach_error();
  return 0;
}
