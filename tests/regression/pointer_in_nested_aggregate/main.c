/* A pointer to a global in a struct in an array in a struct (initialised), plus the same
   shape built at run time in main's frame and passed to the thread as its argument. */
#include <pthread.h>
#include <assert.h>
struct In { int k; int *p; };
struct Out { int n; struct In in[2]; };
extern int g, h;
struct Out o = { 1, { { 0, &h }, { 0, &g } } };
int h, g;
void *writer(void *arg) {
  struct Out *l = arg;
  *o.in[1].p = 1;
  *l->in[0].p = 2;
  return 0;
}
int main(void) {
  struct Out local;
  local.n = 0;
  local.in[0].k = 0;
  local.in[0].p = &h;
  local.in[1].p = 0;
  pthread_t w;
  pthread_create(&w, 0, writer, &local);
  pthread_join(w, 0);
  assert(g == 0);
  return 0;
}
