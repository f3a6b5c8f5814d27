/* A race on element 70 of a calloc of a nondet length (101 to 999): past the first 64
   elements siren models first, found with a larger capacity. */
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int n; int *a;
void *w(void *arg) { a[70] = 1; return 0; }
int main(void) {
  n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 100 && n < 1000);
  a = calloc(n, sizeof(int));
  pthread_t t; pthread_create(&t, 0, w, 0);
  int x = a[70];
  pthread_join(t, 0);
  return x;
}
