// Goblint's tests/06-symbeq/16-type_rc.c: get_s() has no body, so both calls may return the
// same struct s (docs/semantics.md "Functions without a body that return a pointer"): the
// writes race.
#include <pthread.h>

struct s {
  int datum;
  pthread_mutex_t mutex;
};

extern struct s *get_s();

void *t_fun(void *arg) {
  struct s *s = get_s();
  s->datum = 5; // RACE!
  return NULL;
}

int main() {
  int *d;
  struct s *s;
  pthread_t id;
  s = get_s();
  d = &s->datum;
  pthread_create(&id, NULL, t_fun, NULL);
  *d = 8; // RACE!
  return 0;
}
