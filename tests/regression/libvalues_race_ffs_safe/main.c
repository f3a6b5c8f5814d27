/* siren race: the thread writes `data` only when ffs(mask) names a bit that is clear in the
   mask, which the real ffs never does; main reads data unprotected. With ffs modelled
   exactly there is no race: SAFE. */
#include <pthread.h>
#include <strings.h>
int mask = 0x28;  /* bits 3 and 5 */
int data;
void *t(void *arg) {
  int i = ffs(mask);
  if (i != 4) data = 1;
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  int v = data;
  pthread_join(id, 0);
  return v;
}
