/* The twin of libvalues_race_ffs_safe: the thread writes `data` when ffs(mask) is 4, as the
   real ffs gives for 0x28; main reads data unprotected: a real data race, replayed
   natively (UNSAFE). */
#include <pthread.h>
#include <strings.h>
int mask = 0x28;  /* bits 3 and 5 */
int data;
void *t(void *arg) {
  int i = ffs(mask);
  if (i == 4) data = 1;
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  int v = data;
  pthread_join(id, 0);
  return v;
}
