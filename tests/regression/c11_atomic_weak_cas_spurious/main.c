/* A weak compare-exchange may fail although the values are equal (C11 7.17.7.4p4); this code
   wrongly assumes it cannot. */
#include <stdatomic.h>
extern void reach_error(void);
atomic_int x;
int main(void) {
  int expected = 0;
  if (!atomic_compare_exchange_weak(&x, &expected, 1)) reach_error();
  return 0;
}
