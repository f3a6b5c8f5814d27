// scanf reads standard input, which may hold anything: x may be 42 (and the input may also
// convert nothing, or end: r is then 0 or EOF and x keeps its value).
#include <stdio.h>

extern void reach_error(void);

int main(void) {
  int x = 0;
  int r = scanf("%d", &x);
  if (r == 1 && x == 42) reach_error();
  return 0;
}
