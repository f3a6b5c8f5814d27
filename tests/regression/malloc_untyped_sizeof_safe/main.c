/* As malloc_untyped_sizeof_race, but the second worker gets its own job, allocated in the
   pthread_create call (typed by sizeof(struct job) too): no two threads write one job. */
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
  pthread_create(&t2, 0, worker, calloc(1, sizeof(struct job)));
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  free(shared);
  return 0;
}
