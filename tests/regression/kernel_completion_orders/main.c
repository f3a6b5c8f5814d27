/* issue 41: siren's kernel model of completions and wait queues (kernel/include/linux/
 * completion.h, siren_kernel.h). The worker writes data, then completes; main waits for the
 * completion before it reads data, and waits on the queue until `ready` is set. With
 * -DCOMPLETE_EARLY (kernel_completion_early_bug) the worker completes before it writes data. */
#include <siren_kernel.h>
#include <linux/types.h>
#include <linux/completion.h>
#include <linux/wait.h>
#include <assert.h>

static DECLARE_COMPLETION(done);
static wait_queue_head_t q;
static int ready, data;

static void *worker(void *a) {
#ifdef COMPLETE_EARLY
  complete(&done); /* too early: main may read data before it is written */
#endif
  data = 42;
#ifndef COMPLETE_EARLY
  complete(&done);
#endif
  return a;
}
static void *setter(void *a) {
  ready = 1;
  wake_up(&q);
  return a;
}
int main(void) {
  pthread_t t, u;
  pthread_create(&t, 0, worker, 0);
  pthread_create(&u, 0, setter, 0);
  wait_for_completion(&done);
  assert(data == 42);
  if (wait_event_interruptible(q, ready == 1) == 0) assert(ready == 1);
  return 0;
}
