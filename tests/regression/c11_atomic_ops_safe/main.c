/* C11 atomics: ++, compound assignment and plain reads of an _Atomic object are atomic
   read-modify-writes and loads (C11 6.5.2.4, 6.5.16.2); atomic_exchange, a fetch_or with an
   explicit (relaxed) order and the atomic_flag test-and-set act at once too. */
#include <pthread.h>
#include <stdatomic.h>
extern void reach_error(void);
_Atomic int x;
atomic_uint bits;
atomic_flag once = ATOMIC_FLAG_INIT;
atomic_int winners;
void *t1(void *arg) {
  x++;
  atomic_fetch_or_explicit(&bits, 1u, memory_order_relaxed);
  if (!atomic_flag_test_and_set(&once)) atomic_fetch_add(&winners, 1);
  return 0;
}
void *t2(void *arg) {
  x += 2;
  atomic_fetch_or(&bits, 2u);
  if (!atomic_flag_test_and_set(&once)) atomic_fetch_add(&winners, 1);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  int seen = x;
  if (seen != 0 && seen != 1 && seen != 2 && seen != 3) reach_error();
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (x != 3 || atomic_exchange(&bits, 0u) != 3u || bits != 0u) reach_error();
  if (atomic_load(&winners) != 1) reach_error();
  return 0;
}
