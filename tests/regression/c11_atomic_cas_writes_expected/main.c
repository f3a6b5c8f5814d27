/* A failing compare-exchange writes the value it saw to *expected (C11 7.17.7.4p2). */
#include <stdatomic.h>
extern void reach_error(void);
atomic_int x = 5;
int main(void) {
  int expected = 0;
  if (!atomic_compare_exchange_strong(&x, &expected, 7) && expected == 5) reach_error();
  return 0;
}
