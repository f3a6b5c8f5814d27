/* Issue 17, class 1: a global pointer initialised to &g; the thread writes through it, so
   the assertion fails. (The thread model used to keep the initialiser's program object id,
   which names another object of the thread model: siren said SAFE.) */
#include <pthread.h>
#include <assert.h>
int g;
int *p = &g;
void *writer(void *_) { *p = 1; return 0; }
int main(void) { pthread_t w; pthread_create(&w, 0, writer, 0); pthread_join(w, 0); assert(g == 0); return 0; }
