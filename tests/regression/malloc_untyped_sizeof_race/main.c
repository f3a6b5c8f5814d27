/* Each worker gets its argument straight from malloc (no variable, no conversion at the
   call): the object is typed by the size's sizeof(struct job) factor. Both workers write
   the same job's result without a lock: a data race. */
#include <pthread.h>
#include <stdlib.h>
struct job { int id; long result; };
void *worker(void *arg) {
  struct job *j = arg;
  j->result = j->id * 2;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  void *shared = calloc(1, sizeof(struct job));
  pthread_create(&t1, 0, worker, shared);
  pthread_create(&t2, 0, worker, shared);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  free(shared);
  return 0;
}
