/* main's argc is any value >= 1 and sscanf of an argument can produce any int: the check
   thread sees the value parsed from argv[1]. */
#include <pthread.h>
#include <stdio.h>
extern void reach_error(void);
int n = 1;
void *check(void *arg) {
  if (n == 42) reach_error();
  return 0;
}
int main(int argc, char *argv[]) {
  pthread_t t;
  if (argc == 2) sscanf(argv[1], "%d", &n);
  pthread_create(&t, 0, check, 0);
  pthread_join(t, 0);
  return 0;
}
