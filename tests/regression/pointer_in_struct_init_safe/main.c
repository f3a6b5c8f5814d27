/* pointer_in_struct_init with the assertion that holds. g is the last object, so a pointer
   left with its program object id pointed past the thread model's objects: UNKNOWN
   ("possible memory-safety violation") although the pointer is valid. */
#include <pthread.h>
#include <assert.h>
struct S { int x; int *p; };
extern int g;
struct S s = { 0, &g };
int g;
void *writer(void *_) { *s.p = 1; return 0; }
int main(void) { pthread_t w; pthread_create(&w, 0, writer, 0); pthread_join(w, 0); assert(g == 1 && s.x == 0); return 0; }
