/* siren's kernel model (kernel/README.md): replaces SMACK's header, which Whoop's kernel model
 * (shared/benchmarks/linux-drivers/Model) includes. Its nondeterministic value is siren's; its
 * Boogie code strings have no C meaning: a call that is still reached is UNKNOWN (a variadic
 * function without a body). */
#ifndef SIREN_SMACK_H
#define SIREN_SMACK_H

extern int __VERIFIER_nondet_int(void);
#define __SMACK_nondet() __VERIFIER_nondet_int()
void __SMACK_code(const char *fmt, ...);
void *malloc(unsigned long size);
void free(void *p);

#endif
