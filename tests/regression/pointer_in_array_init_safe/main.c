/* pointer_in_array_init with assertions that hold (each pointer reaches its own global). */
#include <pthread.h>
#include <assert.h>
extern int g, h;
int *arr[2] = { &h, &g };
int h, g;
void *writer(void *_) { *arr[1] = 1; *arr[0] = 2; return 0; }
int main(void) { pthread_t w; pthread_create(&w, 0, writer, 0); pthread_join(w, 0); assert(g == 1 && h == 2); return 0; }
