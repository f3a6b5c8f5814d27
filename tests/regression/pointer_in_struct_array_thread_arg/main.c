/* pointer_in_struct_array_thread_arg_safe with an assertion that fails exactly when both
   threads' writes reach their globals. */
#include <pthread.h>
#include <assert.h>
int g, h;
struct S { int *p; int v; };
struct S tab[2] = { { &g, 1 }, { &h, 2 } };
void *writer(void *arg) { struct S *s = arg; *s->p = s->v; return 0; }
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, writer, &tab[i]);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  assert(g != 1 || h != 2);
  return 0;
}
