/* pthread_exit's value reaches pthread_join. */
#include <pthread.h>
extern void reach_error(void);
void *t(void *arg) { long v = (long)arg; pthread_exit((void *)(v + 1)); return 0; }
int main(void) {
  pthread_t id;
  void *ret;
  pthread_create(&id, 0, t, (void *)41);
  pthread_join(id, &ret);
  if ((long)ret != 42) reach_error();
  return 0;
}
