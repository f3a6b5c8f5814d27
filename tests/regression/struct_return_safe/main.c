/* Functions returning a struct (Linux's current_fs_time returns a struct timespec): the result
   is written through a hidden first parameter at `return`, into the destination of `x = f()` or
   of an initialiser, also when the return's value is itself such a call. -DBUG asserts a wrong
   value of the thread's stamp. */
#include <assert.h>
#include <pthread.h>
struct ts { long sec; long nsec; };
struct ts clock_now;
struct ts trunc_ts(struct ts *t, long gran) {
  struct ts r = *t;
  r.nsec -= r.nsec % gran;
  return r;
}
struct ts now(long gran) { return trunc_ts(&clock_now, gran); }
struct ts stamp;
void *writer(void *a) { stamp = now(10); return 0; }
int main(void) {
  clock_now.sec = 4; clock_now.nsec = 1234;
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  struct ts mine = now(100);
  assert(mine.sec == 4 && mine.nsec == 1200);
  pthread_join(t, 0);
  assert(stamp.nsec == 1230);
#ifdef BUG
  assert(stamp.nsec == 1234);
#endif
  return 0;
}
