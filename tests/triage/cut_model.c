// tests/e2e/triage_bounded_test.py: thread 1 calls f17, which inlines to more than the thread
// model's instruction limit (ir/thread_model.cpp kMaxThreadInstructions), so its later call of h()
// is a Limit assertion, not inlined: the lockset analysis sees no access of g in thread 1 and finds
// no candidate. That is no claim about the code left out (UNKNOWN, not NO_RACE). With -DSMALL
// (f13, under the limit) the race on g is found.
#include <pthread.h>
int g;
void f0(void) { int x = 1; x = x + 1; (void)x; }
void f1(void) { f0(); f0(); }
void f2(void) { f1(); f1(); }
void f3(void) { f2(); f2(); }
void f4(void) { f3(); f3(); }
void f5(void) { f4(); f4(); }
void f6(void) { f5(); f5(); }
void f7(void) { f6(); f6(); }
void f8(void) { f7(); f7(); }
void f9(void) { f8(); f8(); }
void f10(void) { f9(); f9(); }
void f11(void) { f10(); f10(); }
void f12(void) { f11(); f11(); }
void f13(void) { f12(); f12(); }
void f14(void) { f13(); f13(); }
void f15(void) { f14(); f14(); }
void f16(void) { f15(); f15(); }
void f17(void) { f16(); f16(); }
#ifdef SMALL
#define BIG f13
#else
#define BIG f17
#endif
void h(void) { g = 1; }
void *t1(void *a) { BIG(); h(); return 0; }
void *t2(void *a) { h(); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
