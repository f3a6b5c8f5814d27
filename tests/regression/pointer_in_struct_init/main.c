/* A pointer to a global held in a struct member (initialised), written through by a thread. */
#include <pthread.h>
#include <assert.h>
struct S { int x; int *p; };
extern int g;
struct S s = { 0, &g };
int g;
void *writer(void *_) { *s.p = 1; return 0; }
int main(void) { pthread_t w; pthread_create(&w, 0, writer, 0); pthread_join(w, 0); assert(g == 0); return 0; }
