/* Issue 17, class 3: a write inside an atomic function and a plain read are not both atomic:
   a data race (SV-COMP no-data-race; the race is in the state where t1 is inside its atomic
   section and main stands at the read). */
#include <pthread.h>
int m;
void __VERIFIER_atomic_set(int v) { m = v; }
void *t1(void *arg) { __VERIFIER_atomic_set(1); return 0; }
int main(void) { pthread_t id; pthread_create(&id, 0, t1, 0); int s = m; return s; }
