/* siren's kernel model (kernel/README.md): the few pthread declarations it is written with, the
 * kernel's printing macros and the kernel functions Whoop's model does not declare.
 * glibc's <pthread.h> cannot be included beside a kernel's headers (time.h, types.h clash), so
 * the names siren and the native oracle know are declared here with glibc's sizes. */
#ifndef SIREN_KERNEL_H
#define SIREN_KERNEL_H

typedef unsigned long pthread_t;
#if __SIZEOF_POINTER__ == 8
typedef union { char __size[40]; long __align; } pthread_mutex_t;
#else
typedef union { char __size[24]; long __align; } pthread_mutex_t;
#endif
typedef union { char __size[48]; long long __align; } pthread_cond_t;
#if __SIZEOF_POINTER__ == 8
typedef union { char __size[56]; long __align; } pthread_rwlock_t;
#else
typedef union { char __size[32]; long __align; } pthread_rwlock_t;
#endif
#define SIREN_RWLOCK_INITIALIZER { { 0 } }
#define SIREN_MUTEX_INITIALIZER { { 0 } }
#define SIREN_COND_INITIALIZER { { 0 } }

int pthread_create(pthread_t *thread, const void *attr, void *(*start)(void *), void *arg);
int pthread_join(pthread_t thread, void **result);
int pthread_mutex_init(pthread_mutex_t *m, const void *attr);
int pthread_mutex_lock(pthread_mutex_t *m);
int pthread_mutex_trylock(pthread_mutex_t *m);
int pthread_mutex_unlock(pthread_mutex_t *m);
int pthread_cond_init(pthread_cond_t *c, const void *attr);
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int pthread_cond_broadcast(pthread_cond_t *c);
int pthread_rwlock_init(pthread_rwlock_t *l, const void *attr);
int pthread_rwlock_rdlock(pthread_rwlock_t *l);
int pthread_rwlock_wrlock(pthread_rwlock_t *l);
int pthread_rwlock_tryrdlock(pthread_rwlock_t *l);
int pthread_rwlock_trywrlock(pthread_rwlock_t *l);
int pthread_rwlock_unlock(pthread_rwlock_t *l);

/* The marker of a kernel environment: siren's front end treats the functions without a body
 * as the kernel's (docs/drivers.md "Kernel functions without a body"). Never defined or used. */
extern int __siren_kernel_environment;

extern int __VERIFIER_nondet_int(void);
extern long __VERIFIER_nondet_long(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern void __VERIFIER_assume(int cond);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

/* The driver data of the one device the harness models (docs/drivers.md "One device"): the
 * harness sets it to the driver's data object before init; linux/device.h, linux/pci.h and
 * linux/platform_device.h here read and write it, one atomic access each (GCC __atomic
 * builtins, as asm/atomic.h: a __VERIFIER_atomic_begin() here would rule out atomic_t). */
static void *__siren_drvdata;
static inline void *__siren_get_drvdata(void) { return __atomic_load_n(&__siren_drvdata, __ATOMIC_SEQ_CST); }
static inline void __siren_set_drvdata(void *d) { __atomic_store_n(&__siren_drvdata, d, __ATOMIC_SEQ_CST); }

/* The kernel's printing macros (kernel.h / printk.h), which Whoop's model does not define:
 * they print with printk (kernel/readonly.txt). */
#define pr_emerg(...) printk(__VA_ARGS__)
#define pr_alert(...) printk(__VA_ARGS__)
#define pr_crit(...) printk(__VA_ARGS__)
#define pr_err(...) printk(__VA_ARGS__)
#define pr_warning(...) printk(__VA_ARGS__)
#define pr_warn(...) printk(__VA_ARGS__)
#define pr_notice(...) printk(__VA_ARGS__)
#define pr_info(...) printk(__VA_ARGS__)
#define pr_cont(...) printk(__VA_ARGS__)
#define pr_debug(...) printk(__VA_ARGS__)
int printk(const char *fmt, ...);

/* Kernel functions that Whoop's model does not declare (a driver's call would be an implicit
 * declaration returning int): macros, so that no prototype conflicts. An object the driver
 * only passes back to the kernel (a work queue, a proc entry) is an opaque cell; one the
 * driver reads or writes is a fresh object of its type. Any of them may fail (null), as the
 * kernel's may. Their arguments are evaluated (a callback passed there stays an entry point). */
static inline void *__siren_opaque_object(void) {
  static char object;
  return __VERIFIER_nondet_bool() ? (void *)0 : (void *)&object;
}
#define __siren_new_object(type) (__VERIFIER_nondet_bool() ? (type *)0 : (type *)__builtin_malloc(sizeof(type)))
#define create_singlethread_workqueue(name) ((struct workqueue_struct *)__siren_opaque_object())
#define create_workqueue(name) ((struct workqueue_struct *)__siren_opaque_object())
#define alloc_ordered_workqueue(...) ((void)(__VA_ARGS__), (struct workqueue_struct *)__siren_opaque_object())
#define create_proc_read_entry(...) ((void)(__VA_ARGS__), (struct proc_dir_entry *)__siren_opaque_object())
#define platform_device_register_simple(...) ((void)(__VA_ARGS__), __siren_new_object(struct platform_device))
#define blk_fetch_request(q) __siren_new_object(struct request)
#define init_waitqueue_head(q) ((void)(q))
#define ia64_platform_is(name) ((void)(name), __VERIFIER_nondet_bool())

/* Wait queues (linux/wait.h; Whoop's model declares none of these, so a call would pass the
 * wait queue by value). wait_event(wq, cond) sleeps until cond holds: the thread goes on only
 * where cond is true, read without a lock as the kernel reads it. The _interruptible and
 * _killable forms may instead return -ERESTARTSYS (a signal), the _timeout forms 0 (the time
 * ran out) or else a positive number of jiffies left. wake_up* wakes the sleepers: with the
 * condition re-read by them, it has nothing else to do. */
#define __SIREN_ERESTARTSYS 512
static inline long __siren_jiffies_left(void) {
  long left = __VERIFIER_nondet_long();
  __VERIFIER_assume(left > 0);
  return left;
}
#define wait_event(wq, cond) ((void)&(wq), __VERIFIER_assume(cond))
#define wait_event_interruptible(wq, cond) \
  ((void)&(wq), __VERIFIER_nondet_bool() ? -__SIREN_ERESTARTSYS : (__VERIFIER_assume(cond), 0))
#define wait_event_killable(wq, cond) wait_event_interruptible(wq, cond)
#define wait_event_timeout(wq, cond, timeout) \
  ((void)&(wq), (void)(timeout), __VERIFIER_nondet_bool() ? 0L : (__VERIFIER_assume(cond), __siren_jiffies_left()))
#define wait_event_interruptible_timeout(wq, cond, timeout)                                                \
  ((void)&(wq), (void)(timeout),                                                                          \
   __VERIFIER_nondet_bool() ? (__VERIFIER_nondet_bool() ? 0L : (long)-__SIREN_ERESTARTSYS)                 \
                            : (__VERIFIER_assume(cond), __siren_jiffies_left()))
#define wake_up(wq) ((void)(wq))
#define wake_up_all(wq) ((void)(wq))
#define wake_up_interruptible(wq) ((void)(wq))
#define wake_up_interruptible_all(wq) ((void)(wq))

#endif
