/* global_pointer_init with the assertion that holds: g is 1 after the join. (With the
   unmapped initialiser, p pointed to p itself: siren said UNSAFE.) */
#include <pthread.h>
#include <assert.h>
int g;
int *p = &g;
void *writer(void *_) { *p = 1; return 0; }
int main(void) { pthread_t w; pthread_create(&w, 0, writer, 0); pthread_join(w, 0); assert(g == 1); assert(p == &g); return 0; }
