// scanf assigns only the conversions it made (its result): with r < 2 the second variable keeps
// its value, and r is never more than the two conversions nor less than EOF.
#include <stdio.h>

extern void reach_error(void);

int main(void) {
  int a = 1;
  long b = 7;
  int r = scanf("%d %ld", &a, &b);
  if (r < 2 && b != 7) reach_error();
  if (r < -1 || r > 2) reach_error();
  return 0;
}
