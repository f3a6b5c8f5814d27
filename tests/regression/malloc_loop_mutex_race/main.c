// Goblint's tests/04-mutex/44-malloc_sound.c: ten mutexes from one malloc site in a loop; the
// thread locks the eighth, main the fourth, around the same increment: a race (found once the
// site has an object per execution).
#include <pthread.h>
#include <stdlib.h>

int glob;
pthread_mutex_t *p, *q;

void *f(void *x) {
  pthread_mutex_lock(q);
  glob++;
  pthread_mutex_unlock(q);
  return NULL;
}

int main(void) {
  pthread_t t1;
  for (int i = 0; i < 10; i++) {
    pthread_mutex_t *a = malloc(sizeof(pthread_mutex_t));
    if (!a) return 0;
    pthread_mutex_init(a, 0);
    if (i == 3) p = a;
    if (i == 7) q = a;
  }
  pthread_create(&t1, 0, f, 0);
  pthread_mutex_lock(p);
  glob++;
  pthread_mutex_unlock(p);
  return 0;
}
