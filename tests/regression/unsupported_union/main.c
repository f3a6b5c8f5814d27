/* Unions are not representable in siren's cell memory: the answer is UNKNOWN with the
   location, never a guess. */
#include <pthread.h>
extern void reach_error(void);
union U { int i; char c[4]; } u;
int main(void) {
  u.i = 1;
  if (u.c[0] == 1) reach_error();
  return 0;
}
