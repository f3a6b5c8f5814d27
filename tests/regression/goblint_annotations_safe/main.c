// Goblint's test annotations (its goblint.h, issue 43): __goblint_assume is an assumption
// (the index never names the mutex main holds), __goblint_assume_join a join, the others
// change nothing. From Goblint's 05-lval_ls/19-idxunknown_unlock_precise.c, where siren
// reported a race while it ignored the assumption.
#include <pthread.h>

void __goblint_check(_Bool exp);
void __goblint_assume(_Bool exp);
void __goblint_assume_join(/* pthread_t thread */);
void __goblint_globalize(void *ptr);
extern int __VERIFIER_nondet_int(void);

int data;
pthread_mutexattr_t mutexattr;
pthread_mutex_t m[10];

void *t_fun(void *arg) {
  pthread_mutex_lock(&m[4]);
  data++;
  pthread_mutex_unlock(&m[4]);
  return NULL;
}

int main(void) {
  pthread_mutexattr_init(&mutexattr);
  pthread_mutexattr_settype(&mutexattr, PTHREAD_MUTEX_ERRORCHECK);
  for (int i = 0; i < 10; i++) pthread_mutex_init(&m[i], &mutexattr);
  int i = __VERIFIER_nondet_int();
  __goblint_assume(5 <= i);
  __goblint_assume(i < 10);
  __goblint_globalize(&data);
  pthread_t id;
  pthread_create(&id, NULL, t_fun, NULL);
  pthread_mutex_lock(&m[4]);
  pthread_mutex_unlock(&m[i]);  // EPERM: m[i] is not main's (error-checking)
  data++;
  pthread_mutex_unlock(&m[4]);
  __goblint_assume_join(id);
  data++;  // after the join
  return 0;
}
