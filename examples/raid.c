// The seed's "raid" shape: a device struct reached only through pointers, shared by two
// threads without synchronization, no conditional reading any of it.
#include <pthread.h>
struct raid_dev { int stripes; int degraded; long sectors; };
struct raid_dev md;
void *resync(void *arg) {
  struct raid_dev *d = arg;
  d->stripes = 4;
  d->sectors = d->sectors + 128;
  d->degraded = d->stripes - 4;
  return 0;
}
int main(void) {
  pthread_t t;
  struct raid_dev *d = &md;
  pthread_create(&t, 0, resync, d);
  d->sectors = 1024;
  d->degraded = 1;
  d->stripes = d->stripes + 1;
  pthread_join(t, 0);
  return 0;
}
