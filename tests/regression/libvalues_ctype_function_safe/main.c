/* The <ctype.h> functions (not glibc's macros: the parentheses) are modelled exactly for the
   "C" locale with glibc's results: isdigit('7') is 2048, toupper('q') is 'Q'. SAFE. */
#include <ctype.h>
#include <pthread.h>
#include <assert.h>
char s[] = "7q ";
void *t(void *arg) {
  s[1] = (toupper)(s[1]);
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  assert((isdigit)(s[0]) == 2048);
  assert((isspace)(s[2]) && !(isalpha)(s[0]));
  pthread_join(id, 0);
  assert(s[1] == 'Q' && (isupper)(s[1]));
  return 0;
}
