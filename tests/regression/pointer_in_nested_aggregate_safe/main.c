/* pointer_in_nested_aggregate with the assertion that holds: both writes reach their
   globals (g is the last object: see pointer_in_struct_init_safe). */
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
  assert(g == 1 && h == 2);
  return 0;
}
