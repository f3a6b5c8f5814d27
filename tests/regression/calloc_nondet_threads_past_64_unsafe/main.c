/* A table of a nondet size (100 to 1000 slots, calloc'ed): a thread marks one slot, main
   looks at another of index 90 or more; both may be the same slot, past the first 64 elements
   siren models first. Found with a larger capacity, and replayed natively. */
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int n;
int *table;
void *mark(void *arg) {
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k < n);
  table[k] = 1;
  return 0;
}
int main(void) {
  n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 100 && n <= 1000);
  table = calloc(n, sizeof(int));
  pthread_t t;
  pthread_create(&t, 0, mark, 0);
  int j = __VERIFIER_nondet_int();
  __VERIFIER_assume(j >= 90 && j < n);
  pthread_join(t, 0);
  if (table[j] == 1) reach_error();
  return 0;
}
