// An rwlock function given a pthread_mutex_t (Goblint's 04-mutex/58-pthread-lock-return.c
// does this): undefined behaviour, so UNKNOWN, not a race between the "read-locked" and
// "write-locked" sections (siren reported one).
#include <pthread.h>

int g;
pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

void *t_fun(void *arg) {
  if (!pthread_rwlock_rdlock(&mutex)) {
    g++;
    pthread_rwlock_unlock(&mutex);
  }
  return NULL;
}

int main(void) {
  pthread_t id;
  pthread_create(&id, NULL, t_fun, NULL);
  pthread_rwlock_wrlock(&mutex);
  g++;
  pthread_rwlock_unlock(&mutex);
  pthread_join(id, NULL);
  return 0;
}
