/* Issue 17, class 2: the read in get() races with t1's write although get()'s result is
   discarded (the thread model used to drop `return a` when the call has no left-hand side). */
#include <pthread.h>
int a;
void *t1(void *arg) { a = 1; return 0; }
int get(void) { return a; }
int main(void) { pthread_t id; pthread_create(&id, 0, t1, 0); get(); return 0; }
