/* What the model of main's arguments and sscanf guarantees: argc >= 1, argv[argc] is null
   (here argc <= 3), distinct arguments, sscanf returns EOF..#conversions and leaves the
   variables it did not assign unchanged. */
#include <stdio.h>
extern void reach_error(void);
int main(int argc, char **argv) {
  int x = 5, y = 7;
  char c = 'q';
  if (argc < 1) reach_error();
  if (argc <= 3 && argv[argc] != 0) reach_error();
  if (argv[0] == 0) reach_error();
  if (argc >= 3) {
    if (argv[1] == argv[2]) reach_error();
    int r = sscanf(argv[2], "%d,%*s %c%d", &x, &c, &y);
    if (r < -1 || r > 3) reach_error();
    if (r < 1 && x != 5) reach_error();
    if (r < 2 && c != 'q') reach_error();
    if (r < 3 && y != 7) reach_error();
  }
  return 0;
}
