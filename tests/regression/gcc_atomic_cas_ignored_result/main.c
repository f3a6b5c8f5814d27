/* A lock taken with GCC's __atomic_compare_exchange_n whose result is ignored: both threads
   enter the critical section. */
#include <pthread.h>
extern void reach_error(void);
int owner;
int inside;
void *enter(void *arg) {
  int expected = 0;
  __atomic_compare_exchange_n(&owner, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
  int n = __atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST);
  if (n != 1) reach_error();
  __atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
  __atomic_store_n(&owner, 0, __ATOMIC_RELEASE);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, enter, 0);
  pthread_create(&b, 0, enter, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
