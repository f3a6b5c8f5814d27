// Bit-fields, exact (issue 41): Clang's layout for the data model, signed / unsigned / _Bool
// fields, zero-width and unnamed ones, a field that does not fit starting a new unit, packed
// structs and a run whose bytes are not a power of two; written and read back (negative values,
// wrap-around, compound assignment, ++/--, the value of an assignment), initialised (global,
// local, designated, {0}), copied and memset. The sizes and offsets asserted are Clang's
// (clang -fdump-record-layouts, x86-64 and i386). No C library header, so that --32 needs no
// i386 C library (bitfield_values_safe_32 reuses this file).
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
#define offsetof(t, m) __builtin_offsetof(t, m)
void *memset(void *, int, __SIZE_TYPE__);

struct S {
  char c;
  int a : 3;            // plain int: signed (Clang, GCC)
  unsigned b : 5;
  _Bool flag : 1;
  int : 0;              // the next field starts a new int unit
  unsigned d : 30;
  int e : 7;            // does not fit after d: a new unit
  long l;
  unsigned : 4;         // padding
  signed char g : 4;
  unsigned long long big : 40;
  short tail;
};

struct __attribute__((packed)) P {  // v and w are one run of bytes 1..4, y right after it
  char x;
  unsigned v : 20;
  unsigned w : 9;
  char y;
};

struct Q {  // a run of 3 bytes with a char in the fourth: a 3-byte cell
  unsigned v : 20;
  char y;
  int z : 2;
};

struct S gs = {'x', -2, 17, 1, 5, -9, 77, 3, 123456789012ULL, -5};
struct P gp = {.y = 9, .w = 300, .v = 0xABCDE};
struct Q gq = {0};

int main(void) {
  // layout: Clang's
#if __SIZEOF_LONG__ == 8
  assert(sizeof(struct S) == 32);
  assert(offsetof(struct S, l) == 16);
  assert(offsetof(struct S, tail) == 30);
#else
  assert(sizeof(struct S) == 24);
  assert(offsetof(struct S, l) == 12);
  assert(offsetof(struct S, tail) == 22);
#endif
  assert(offsetof(struct S, c) == 0);
  assert(sizeof(struct P) == 6);
  assert(offsetof(struct P, y) == 5);
  assert(sizeof(struct Q) == 8);
  assert(offsetof(struct Q, y) == 3);

  // the global initialiser
  assert(gs.c == 'x' && gs.a == -2 && gs.b == 17 && gs.flag == 1 && gs.d == 5 && gs.e == -9);
  assert(gs.l == 77 && gs.g == 3 && gs.big == 123456789012ULL && gs.tail == -5);
  assert(gp.x == 0 && gp.v == 0xABCDE && gp.w == 300 && gp.y == 9);
  assert(gq.v == 0 && gq.y == 0 && gq.z == 0);

  // a local initialiser, designated and in order
  struct S s = {'y', 3, 31, 0, 1000000000, 63, 5, -8, 99, 7};
  struct S z = {0};
  struct Q q = {.z = -1, .v = 1048575};
  assert(s.c == 'y' && s.a == 3 && s.b == 31 && s.flag == 0 && s.d == 1000000000 && s.e == 63);
  assert(s.l == 5 && s.g == -8 && s.big == 99 && s.tail == 7);
  assert(z.a == 0 && z.b == 0 && z.flag == 0 && z.d == 0 && z.e == 0 && z.g == 0 && z.big == 0);
  assert(q.v == 1048575 && q.y == 0 && q.z == -1);

  // writes: sign extension, wrap-around, neighbours untouched
  s.a = 4;  // 3 bits: -4
  assert(s.a == -4 && s.b == 31 && s.c == 'y' && s.flag == 0);
  s.b += 3;  // 34 mod 32
  assert(s.b == 2 && s.a == -4);
  s.b++;
  assert(s.b == 3);
  int v = (s.e = 64);  // the value of the assignment is the field's: -64
  assert(v == -64 && s.e == -64 && s.d == 1000000000);
  assert(++s.e == -63);
  assert(s.e-- == -63 && s.e == -64);
  s.flag = 5;  // _Bool: 1
  assert(s.flag == 1 && s.a == -4 && s.b == 3);
  s.d = 0xFFFFFFFFu;  // 30 bits
  assert(s.d == 0x3FFFFFFF && s.e == -64);
  s.big = 0xFFFFFFFFFFFFull + 2;  // 40 bits: (2^48 + 1) mod 2^40 = 1
  assert(s.big == 1 && s.g == -8 && s.tail == 7);
  gs.g = 7;
  gs.g++;  // 4 bits, signed: 8 -> -8
  assert(gs.g == -8 && gs.l == 77);
  unsigned m = gs.b * 2u;
  gs.b = m;  // 34 -> 2
  assert(gs.b == 2 && gs.a == -2 && gs.flag == 1);

  gp.w = gp.w + 300;  // 600 mod 512 = 88
  gp.v -= 0xABCDF;    // -1 mod 2^20
  assert(gp.w == 88 && gp.v == 0xFFFFF && gp.y == 9 && gp.x == 0);
  q.v = q.v + 2;  // 2^20 + 1 mod 2^20
  q.z = 2;        // 2 bits, signed: -2
  assert(q.v == 1 && q.z == -2 && q.y == 0);

  // struct copy, memset
  struct S t = s;
  assert(t.e == -64 && t.b == 3 && t.a == -4 && t.flag == 1 && t.d == 0x3FFFFFFF);
  memset(&t, 0, sizeof t);
  assert(t.a == 0 && t.e == 0 && t.big == 0 && t.c == 0);
  memset(&t, 0xff, sizeof t);
  assert(t.a == -1 && t.b == 31 && t.d == 0x3FFFFFFF && t.e == -1 && t.g == -1);

  // the bits where Clang puts them: a union of the run and an integer of the cell's size
  union {
    struct {
      unsigned lo : 3, mid : 4, hi : 1;
    } f;
    unsigned char byte;
  } u = {{5, 9, 1}};
  assert(u.byte == (5 | 9 << 3 | 1 << 7));
  u.f.mid = 2;
  assert(u.byte == (5 | 2 << 3 | 1 << 7));
  u.byte = 0x5a;
  assert(u.f.lo == 2 && u.f.mid == 11 && u.f.hi == 0);
  return 0;
}
