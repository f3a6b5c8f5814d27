/* LDV-style driver: the device struct is embedded in the driver's private struct, and the
   file operations reach the private struct from the device through container_of. The read
   callback takes the private mutex; the write callback forgets it: a data race on `count`. */
#include <pthread.h>
#include <stddef.h>

#define container_of(ptr, type, member) \
  ({ const typeof(((type *)0)->member) *__mptr = (ptr); (type *)((char *)__mptr - offsetof(type, member)); })

struct device { int id; int flags; };
struct my_data {
  int count;
  pthread_mutex_t lock;
  struct device dev;
  int buffer[4];
};
struct file_operations { int (*read)(struct device *); void (*write)(struct device *, int); };

int my_read(struct device *d) {
  struct my_data *p = container_of(d, struct my_data, dev);
  pthread_mutex_lock(&p->lock);
  int v = p->count;
  pthread_mutex_unlock(&p->lock);
  return v;
}
void my_write(struct device *d, int v) {
  struct my_data *p = container_of(d, struct my_data, dev);
  p->count = v; /* no lock */
  p->buffer[v & 3] = v;
}
struct file_operations fops = { .read = my_read, .write = my_write };
struct my_data data;

void *reader(void *arg) { fops.read((struct device *)arg); return 0; }
void *writer(void *arg) { fops.write((struct device *)arg, 1); return 0; }

int main(void) {
  pthread_t a, b;
  pthread_mutex_init(&data.lock, 0);
  pthread_create(&a, 0, reader, &data.dev);
  pthread_create(&b, 0, writer, &data.dev);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
