/* __VERIFIER_assume and assume_abort_if_not cut executions; abort() is not an error. The
   ranges are bounded so that x - y cannot overflow (it would wrap and reach the error). */
#include <pthread.h>
extern void reach_error(void);
extern void abort(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
void assume_abort_if_not(int cond) { if (!cond) abort(); }
int g;
void *t(void *arg) { g = g + 1; return 0; }
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 5 && x < 1000);
  assume_abort_if_not(y < -3 && y > -1000);
  g = x - y;
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  pthread_join(id, 0);
  if (g < 10 || x < 3) reach_error();
  return 0;
}
