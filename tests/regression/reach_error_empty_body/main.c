/* Older SV-COMP files define reach_error with an empty body: the call is the violation. */
#include <pthread.h>
void reach_error() {}
int flag = 0;
void *t(void *arg) { flag = 1; return 0; }
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  pthread_join(id, 0);
  if (flag) { ERROR: { reach_error(); } }
  return 0;
}
