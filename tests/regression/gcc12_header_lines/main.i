# 0 "gcc12_header_lines.c"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "gcc12_header_lines.c"
/* Lines of `gcc-12 -E` output on Debian bookworm (glibc 2.36), copied as GCC wrote them: the
   forms Clang 16 rejects (frontend/gcc_compat.cpp), then a lost update. */
# 1 "/usr/include/x86_64-linux-gnu/bits/pthreadtypes.h" 1 3 4
typedef unsigned long int pthread_t;

union pthread_attr_t
{
  char __size[56];
  long int __align;
};

typedef union pthread_attr_t pthread_attr_t;
# 202 "/usr/include/pthread.h" 3 4
extern int pthread_create (pthread_t *__restrict __newthread,
      const pthread_attr_t *__restrict __attr,
      void *(*__start_routine) (void *),
      void *__restrict __arg) __attribute__ ((__nothrow__)) __attribute__ ((__nonnull__ (1, 3)));
# 219 "/usr/include/pthread.h" 3 4
extern int pthread_join (pthread_t __th, void **__thread_return);
# 7 "/usr/include/x86_64-linux-gnu/bits/types/FILE.h" 3 4
typedef struct _IO_FILE FILE;
# 178 "/usr/include/stdio.h" 3 4
extern int fclose (FILE *__stream);
# 188 "/usr/include/stdio.h" 3 4
extern FILE *tmpfile (void)
  __attribute__ ((__malloc__)) __attribute__ ((__malloc__ (fclose, 1))) ;
# 222 "/usr/include/stdio.h" 3 4
extern char *tempnam (const char *__dir, const char *__pfx)
   __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__malloc__)) __attribute__ ((__malloc__ (__builtin_free, 1)));
# 20 "/usr/include/x86_64-linux-gnu/bits/mathcalls-helper-functions.h" 3 4
extern int __fpclassifyf128 (_Float128 __value) __attribute__ ((__nothrow__ , __leaf__))
     __attribute__ ((__const__));
# 10 "gcc12_header_lines.c"
const char *note = "__malloc__ (kept, 1) and _Float128 in a string stay as they are";
int g;
void *w(void *a) { g++; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  g++;
  pthread_join(t, 0);
  return 0;
}
