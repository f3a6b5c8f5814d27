/* The writer updates the value even when pthread_rwlock_trywrlock answers EBUSY (a reader
   holds the lock): the reader sees the value change under its read lock. */
#include <pthread.h>
#include <assert.h>
pthread_rwlock_t rw;
int value;
void *reader(void *arg) {
  if (pthread_rwlock_tryrdlock(&rw) == 0) {
    int a = value;
    int b = value;
    pthread_rwlock_unlock(&rw);
    assert(a == b);
  }
  return 0;
}
void *writer(void *arg) {
  int busy = pthread_rwlock_trywrlock(&rw);
  value = value + 1;
  if (!busy) pthread_rwlock_unlock(&rw);
  return 0;
}
int main(void) {
  pthread_t r, w;
  pthread_rwlock_init(&rw, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_join(r, 0);
  pthread_join(w, 0);
  return 0;
}
