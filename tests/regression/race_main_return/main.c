/* main's `return a` reads a before the process ends: it races with t1's write. */
#include <pthread.h>
int a;
void *t1(void *arg) { a = 1; return 0; }
int main(void) { pthread_t id; pthread_create(&id, 0, t1, 0); return a; }
