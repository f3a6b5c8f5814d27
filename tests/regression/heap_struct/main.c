/* A malloc'ed struct shared through a pointer; the consumer sees the producer's writes in
   order only under the lock protocol, but the flag is written before the data. */
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
struct msg { int ready; int data; };
struct msg *box;
void *producer(void *arg) {
  box->ready = 1;
  box->data = 42;
  return 0;
}
int main(void) {
  pthread_t id;
  box = (struct msg *)malloc(sizeof(struct msg));
  box->ready = 0;
  box->data = 0;
  pthread_create(&id, 0, producer, 0);
  if (box->ready) {
    if (box->data != 42) reach_error();
  }
  return 0;
}
