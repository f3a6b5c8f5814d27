/* Threads claim chunks of 4 cells of an array of nondeterministic length under a lock and
   fill them (after pthread-lit's sssc12, whose length made siren stop at the allocation):
   every index they touch is below the length. */
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int *data;
int len;
int next;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  int c = 0, end = 0;
  pthread_mutex_lock(&m);
  if (next + 4 <= len) {
    c = next;
    next = end = next + 4;
  }
  pthread_mutex_unlock(&m);
  while (c < end) {
    if (!(0 <= c && c < len)) reach_error();
    data[c] = 0;
    c++;
  }
  return 0;
}
int main(void) {
  pthread_t t[2];
  len = __VERIFIER_nondet_int();
  if (len <= 0) return 0;
  data = malloc(sizeof(int) * len);
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  return 0;
}
