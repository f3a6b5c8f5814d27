// getpwuid() declared by the program instead of <pwd.h>: siren lets it return any struct passwd
// outside the program (or a global one), but the C library defines it, so a race through its
// result is not printed (UNKNOWN). (glibc's getpwuid returns one static buffer, so this race
// is real.)
#include <pthread.h>

struct passwd {
  char *pw_name;
  char *pw_passwd;
  unsigned pw_uid;
  unsigned pw_gid;
  char *pw_gecos;
  char *pw_dir;
  char *pw_shell;
};

extern struct passwd *getpwuid(unsigned uid);

void *t_fun(void *arg) {
  getpwuid(0)->pw_uid = 1;
  return NULL;
}

int main(void) {
  pthread_t id;
  pthread_create(&id, NULL, t_fun, NULL);
  getpwuid(0)->pw_uid = 2;
  return 0;
}
