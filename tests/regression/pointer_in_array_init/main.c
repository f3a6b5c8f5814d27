/* Pointers to globals held in an initialised array, written through by a thread. */
#include <pthread.h>
#include <assert.h>
extern int g, h;
int *arr[2] = { &h, &g };
int h, g;
void *writer(void *_) { *arr[1] = 1; *arr[0] = 2; return 0; }
int main(void) { pthread_t w; pthread_create(&w, 0, writer, 0); pthread_join(w, 0); assert(g == 0); return 0; }
