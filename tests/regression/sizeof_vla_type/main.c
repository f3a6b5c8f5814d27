// sizeof of a variable-length array type evaluates its size expressions: n ints, 3 rows of n
// chars, n rows of 2 shorts.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(1 <= n && n <= 5);
  unsigned long a = sizeof(int[n]);
  unsigned long b = sizeof(char[3][n]);
  unsigned long c = sizeof(short[n][2]);
  if (a != 4ul * n || b != 3ul * n || c != 4ul * n) reach_error();
  return 0;
}
