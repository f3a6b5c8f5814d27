/* An atomic read-modify-write (__sync_fetch_and_add) and a plain read of the same int are not
   both atomic: a data race. */
#include <pthread.h>
int g;
void *t1(void *arg) { __sync_fetch_and_add(&g, 1); return 0; }
int main(void) { pthread_t id; pthread_create(&id, 0, t1, 0); int s = g; return s; }
