/* calloc(n, ...) where n is a parameter that every call passes as 3 (as in
   pthread-complex/bounded_buffer.c): the object has exactly 3 cells. */
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
int **slots;
void init(int n) { slots = calloc(n, sizeof(int *)); }
int x;
void *worker(void *arg) {
  slots[2] = &x;
  return 0;
}
int main(void) {
  pthread_t t;
  init(3);
  pthread_create(&t, 0, worker, 0);
  if (slots[2] == &x) reach_error();
  pthread_join(t, 0);
  return 0;
}
