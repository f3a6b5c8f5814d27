/* strcpy, strlen, strncpy, strcmp, memset and memcpy after the writer thread is joined: the
   results are exact, so every check holds. */
#include <pthread.h>
#include <string.h>
extern void reach_error(void);
char buf[8];
char copy[8];
int arr[4];
struct pair { int a; int *p; } ps[2];
void *writer(void *arg) {
  strcpy(buf, "abc");
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  pthread_join(t, 0);
  if (strlen(buf) != 3) reach_error();
  strncpy(copy, buf, sizeof copy);
  if (strcmp(copy, "abc") != 0) reach_error();
  if (strcmp(copy, "abd") >= 0) reach_error();
  if (copy[7] != 0) reach_error();
  memset(arr, 0xff, sizeof arr);
  if (arr[2] != -1) reach_error();
  int src[4] = {1, 2, 3, 4};
  memcpy(arr, src, sizeof src);
  if (arr[3] != 4 || arr[0] != 1) reach_error();
  ps[1].p = &arr[0];
  memset(ps, 0, sizeof ps);
  if (ps[1].p != 0) reach_error();
  const char *s = "xyz";
  if (s[1] != 'y' || s[3] != 0) reach_error();
  return 0;
}
