/* printf's %n writes the number of characters printed through its pointer argument, which
   siren does not model: unsupported (UNKNOWN), not a skipped write. */
#include <stdio.h>
#include <assert.h>
int main(void) {
  int n = 0;
  printf("abc%n\n", &n);
  assert(n == 0);
  return 0;
}
