/* An uninitialised field read through a pointer: its value is arbitrary (siren's model of
   an indeterminate value), so the error is reachable. The explicit-state search enumerates
   such a value only when some execution reads the cell before writing it; it must find the
   cell by its byte offset (s.b is byte 4, cell 1). */
extern void reach_error(void);
struct P { int a; int b; };
int main(void) {
  struct P s;
  s.a = 0;
  int *q = &s.b;
  if (*q == 5) reach_error();
  return 0;
}
