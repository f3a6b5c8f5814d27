/* Increments inside __VERIFIER_atomic_* functions and atomic sections are one step. */
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x = 0;
void __VERIFIER_atomic_inc(void) { x = x + 1; }
void *t1(void *arg) { __VERIFIER_atomic_inc(); return 0; }
void *t2(void *arg) {
  __VERIFIER_atomic_begin();
  int tmp = x;
  x = tmp + 1;
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (x != 2) reach_error();
  return 0;
}
