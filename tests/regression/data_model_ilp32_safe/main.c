/* The data model decides the layout: in ILP32 (--32) `p` is 4 bytes, so `l` is at byte 8
   and the byte arithmetic below reads it. In LP64 (the default) byte 8 is `p` (null), and
   the same program fails: see ../data_model_lp64_unsafe, which reuses this file. No system
   header, so that --32 needs no i386 C library. */
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
struct S { int a; long *p; long l; } s = { 1, 0, 7 };
int main(void) {
  char *b = (char *)&s;
  long v = *(long *)(b + 8);
  assert(v == 7);
  return 0;
}
