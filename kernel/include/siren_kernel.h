/* siren's kernel model (kernel/README.md): the few pthread declarations it is written with.
 * glibc's <pthread.h> cannot be included beside a kernel's headers (time.h, types.h clash), so
 * the names siren and the native oracle know are declared here with glibc's sizes. */
#ifndef SIREN_KERNEL_H
#define SIREN_KERNEL_H

typedef unsigned long pthread_t;
#if __SIZEOF_POINTER__ == 8
typedef union { char __size[40]; long __align; } pthread_mutex_t;
#else
typedef union { char __size[24]; long __align; } pthread_mutex_t;

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

#endif
typedef union { char __size[48]; long long __align; } pthread_cond_t;
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

extern int __VERIFIER_nondet_int(void);
extern long __VERIFIER_nondet_long(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern _Bool __VERIFIER_nondet_bool(void);


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

#endif
