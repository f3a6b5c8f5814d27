/* Global (and static local) pointers initialised to addresses inside aggregates: an array
   element by pointer arithmetic, a member of a struct in an array in a struct, a pointer to
   such a pointer; a thread writes through each. (With the initialisers' program object ids
   left unmapped, siren ended UNKNOWN "possible memory-safety violation".) */
#include <pthread.h>
#include <assert.h>
struct In { int k; int *p; };
struct Out { int n; struct In in[2]; };
struct Out o;
int arr[3];
int *pa = arr + 1;
int *pk = &o.in[1].k;
int **pp = &pa;
struct In *pi = &o.in[1];
void *writer(void *_) {
  static int *sp = &arr[2];
  *pa = 1;
  *pk = 2;
  **pp += 1;
  pi->p = &arr[0];
  *pi->p = 4;
  *sp = 5;
  return 0;
}
int main(void) {
  pthread_t w;
  pthread_create(&w, 0, writer, 0);
  pthread_join(w, 0);
  assert(arr[1] == 2 && o.in[1].k == 2 && arr[0] == 4 && arr[2] == 5);
  return 0;
}
