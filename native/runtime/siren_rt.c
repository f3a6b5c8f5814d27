/* The native oracle's runtime (native/README.md). Linked into a C program that clang-16
 * compiled with -fsanitize=thread (ThreadSanitizer's *instrumentation* only: a call
 * __tsan_readN/__tsan_writeN(addr) before every load and store that may reach memory shared
 * between threads) and -finstrument-functions. The program's pthread calls reach this file
 * through `ld --wrap`. Nothing here knows siren's front end, IR or thread model.
 *
 * Execution model: real threads, real memory, exactly one thread runs at a time. Every
 * instrumented access, pthread call and __VERIFIER_* call is a scheduling point: the running
 * thread records its *pending* event, a strategy picks the next thread among those whose
 * pending event can execute, and that thread runs until its next scheduling point.
 *
 * A run ends with one outcome: ok (the program exited), violation (an assertion failed or
 * reach_error was called), race (two threads stand at conflicting pending accesses to
 * overlapping bytes, at least one a write, not both atomic), pruned (__VERIFIER_assume(0) or
 * abort()), deadlock, bound (too many scheduling points), timeout, crash (a signal) or limit
 * (too many threads).
 *
 * Runs: a constructor that runs before main forks one child per run (a fork server): each
 * child runs the program once under its own seed and writes one JSON line to a pipe; the
 * parent copies the lines to $SIREN_RT_OUT and never runs main itself.
 *
 * The dfs strategy is a systematic, stateful search over schedules: it hashes the program's
 * state at each choice point and stops at a state some run has already reached (the visited
 * set lives in memory the fork server shares with its children; see "systematic search").
 * With snapshots (the default) the program's threads are contexts of one kernel thread and a
 * run forks at each new choice point, one child per successor; without (SIREN_RT_UTHREADS=0,
 * or a program with thread-local variables) each child re-executes a prefix of choices the
 * parent gives it.
 *
 * Environment (all optional): SIREN_RT_RUNS (1), SIREN_RT_SEED (1), SIREN_RT_STRATEGY
 * (mixed|random|pct|round-robin|demote|dfs|replay), SIREN_RT_PCT_DEPTH (3; 0: 1, 2, 3 in turn), SIREN_RT_RACES (0|1), SIREN_RT_MAX_STEPS
 * (100000), SIREN_RT_RUN_MS (5000), SIREN_RT_STOP (1: stop after the first violation or
 * race), SIREN_RT_TIMEOUT_MS (0: none; no run starts after it), SIREN_RT_OUT (file; default
 * stderr), SIREN_RT_LINES (pc -> line table, needed by
 * replay), SIREN_RT_REPLAY (replay file), SIREN_RT_ATOMIC_FNS / SIREN_RT_ERROR_FNS
 * (comma-separated hex addresses of __VERIFIER_atomic_* functions / reach_error-like
 * functions defined by the program), SIREN_RT_SHOW_OUTPUT (1: keep the program's stdout),
 * SIREN_RT_DFS_SCHEDULE (dfs: follow these choices in one run, e.g. "0x3,2,1x4": thread 0 at
 * three scheduling points, then 2, then 1 at four; "s5:..." with the stacks of threads 0 and 2
 * shared), SIREN_RT_UTHREADS (dfs: 1 snapshots, 0 re-execution), SIREN_RT_TEST_BROKEN (test
 * only: 1 never preempts, 2 makes dfs hash shared memory only, 3 makes dfs take every stack
 * access as private, 4 makes dfs's sleep sets take every two transitions as commuting, 5 lets
 * any race end the replay of another race).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <sys/prctl.h>
#include <ucontext.h>

#define RT_WEAK __attribute__((weak))
#define RT_API __attribute__((visibility("default")))
#define RT_NOINLINE __attribute__((noinline))
#define MAX_THREADS 256
#define MAX_MUTEXES 4096
#define STACK_SIZE (1UL << 20) /* each created thread's stack, guard page included */

/* ---- configuration --------------------------------------------------------------------- */

enum { S_RANDOM, S_PCT, S_REPLAY, S_QUANTUM, S_DEMOTE, S_DFS };

static struct {
  unsigned long runs, max_steps, run_ms, pct_depth, timeout_ms;
  unsigned long long seed;
  int strategy_mixed, strategy, races, stop, show_output, test_broken, all_events;
  const char *out, *lines, *replay, *dfs_schedule;
  uintptr_t atomic_fns[64];
  int n_atomic_fns;
  uintptr_t error_fns[16];
  int n_error_fns;
} cfg;

static unsigned long env_ul(const char *name, unsigned long dflt) {
  const char *v = getenv(name);
  return v && *v ? strtoul(v, 0, 0) : dflt;
}

static int parse_addrs(const char *name, uintptr_t *out, int max) {
  const char *v = getenv(name);
  int n = 0;
  while (v && *v && n < max) {
    char *end;
    unsigned long long a = strtoull(v, &end, 16);
    if (end == v) break;
    out[n++] = (uintptr_t)a;
    v = *end == ',' ? end + 1 : end;
  }
  return n;
}

/* ---- per-run state (a fork child) ------------------------------------------------------ */

enum ev_kind { E_NONE, E_READ, E_WRITE, E_LOCK, E_UNLOCK, E_CREATE, E_JOIN, E_START, E_EXIT,
               E_ATOMIC, E_YIELD, E_RMW, E_ERROR, E_STUCK, E_NONDET };
/* E_NONDET ('N') is no scheduling point: logged when a __VERIFIER_nondet_* call returns, with
 * the value (as 64 bits) in addr, so that a failing run's inputs can be given to siren. */
static const char ev_char[] = "-RWLUCJSXAYMVZN";

struct event {
  unsigned char kind;
  unsigned char atomic;
  unsigned size;
  uintptr_t addr; /* access: address; lock/unlock: mutex; join: thread index */
  uintptr_t pc;
};

struct thr {
  sem_t sem;
  struct event pending;
  int live, finished, atomic_depth;
  /* A pending compare-and-swap writes only if it would succeed: the value it expects (size
   * bytes of pending.addr), read when a race is checked (cas_pending set). */
  int cas_pending;
  uint64_t cas_expected;
  unsigned long long prio;
  unsigned level; /* S_DEMOTE: 0 = in the front group; n = demoted by the n-th change point */
  unsigned long run_len;
  int fresh; /* chosen to start and not yet past its first scheduling point */
  void *(*fn)(void *);
  void *arg, *retval;
  pthread_t real;
  /* The thread's stack as dfs hashes it: from user_sp (where the frame of the program's code
   * that last called into the runtime begins) up to stack_hi (the top of the frame of its
   * outermost function, main or the start routine; 0 while unknown). */
  uintptr_t user_sp, stack_hi;
};

static struct thr T[MAX_THREADS];
static int nthreads, cur;
static unsigned long steps;
static unsigned long long rng_state;
static int run_index, out_fd = 2;
static unsigned long long run_seed;
/* Set by PC() in every entry point from the program: where its caller's frame begins. */
static uintptr_t entry_cfa;
/* The created threads' stacks: one slot of STACK_SIZE per thread index, mapped by the fork
 * server, so that a thread's stack (and what glibc keeps at its top) lies at the same address
 * in every run whatever else was mapped before it (dfs compares stacks and pointers into them). */
static char *stacks;
/* dfs: the program's threads are contexts of one kernel thread (uthreads), so that a run can fork
 * at a choice point and each child continue with another thread: the search explores a state's
 * successors from a copy of the process instead of re-executing the schedule that led there.
 * Not when the program has thread-local storage (its threads would share it). errno is saved
 * and restored around each hand-over, pthread_self and pthread keys are the runtime's. */
static int uthreads;
static ucontext_t uctx[MAX_THREADS];
pthread_t __real_pthread_self(void);
#define MAX_KEYS 64
static void (*key_dtors[MAX_KEYS])(void *);
static void *key_values[MAX_THREADS][MAX_KEYS];
static int n_keys;
static const char *run_strategy = "random";
static int in_child;
static unsigned long pct_k = 50;
static unsigned long quantum = 1; /* S_QUANTUM: scheduling points a thread keeps the CPU */
static unsigned long pct_change[8];
/* S_DEMOTE: change points (steps) at which the running thread is demoted behind every other,
 * whether the front group is served round robin (else uniformly at random), and the step at
 * which the current fairness epoch ends (every level is reset then: a thread spinning in the
 * front group for a demoted one cannot livelock the run). */
static unsigned long demote_at[4];
static unsigned n_demote, demotions;
static int demote_rr;
static unsigned long epoch_end;
static int want_events = 1;

struct logged { int tid; unsigned char kind, atomic; uintptr_t pc, addr; };
static struct logged *evlog;
static unsigned long evlog_n, evlog_cap;

/* kind: 0 normal/default, 1 recursive, 2 error-checking (glibc's __kind & 3, adaptive as
 * normal), read from the mutex's memory when a pthread_mutex_t is first seen (static
 * initialisers) or from the attribute at pthread_mutex_init; count: the owner's holds. */
struct mtx { uintptr_t addr; int owner; int kind; int count; int seen; };
static struct mtx M[MAX_MUTEXES];
static struct mtx *mutexes_used[MAX_MUTEXES]; /* M's entries in use, for the state hash */
static int n_mutexes_used;

static unsigned long long rnd(void) { /* splitmix64 */
  unsigned long long z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* ---- pc -> line table (replay; loaded from SIREN_RT_LINES) ---------------------------- */

struct line_row { uintptr_t pc; unsigned line; };
static struct line_row *lines;
static size_t nlines;

static void load_lines(const char *path) {
  FILE *f = path ? fopen(path, "r") : 0;
  if (!f) return;
  size_t cap = 1024;
  lines = malloc(cap * sizeof *lines);
  unsigned long long pc;
  unsigned line, file;
  while (fscanf(f, "%llx %u %u", &pc, &line, &file) == 3) {
    if (nlines == cap) lines = realloc(lines, (cap *= 2) * sizeof *lines);
    lines[nlines].pc = (uintptr_t)pc;
    lines[nlines].line = line;
    ++nlines;
  }
  fclose(f);
}

static unsigned line_of(uintptr_t pc) { /* the row with the greatest pc <= pc - 1 */
  if (!nlines || !pc) return 0;
  size_t lo = 0, hi = nlines;
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (lines[mid].pc <= pc - 1) lo = mid; else hi = mid;
  }
  return lines[lo].pc <= pc - 1 ? lines[lo].line : 0;
}

static int is_access_kind(int k);

/* ---- replay schedule ------------------------------------------------------------------- */
/* File: lines "S <thread> <line>" (one per step of the trace, in order; thread = native index:
 * main 0, then creation order) and "N <thread> <value>" (that thread's nondet values, in
 * order). A thread's pending event is matched to the first not yet passed step of the same
 * thread at the same line; the enabled thread whose pending event matches the earliest step
 * runs next. Events without a match run only when nothing else can. */

struct rstep { int tid; unsigned line; int cls; /* 0 not said, 1 locals, 2 access, 3 sync */ };
static struct rstep *rsteps;
static size_t nrsteps;
static size_t rpos[MAX_THREADS];     /* per thread: first step index not yet passed */
static size_t rlast[MAX_THREADS];    /* per thread: 1 + the last step index matched */
struct rrace_t { int tid; unsigned line; int write; uintptr_t lo, hi; };
static struct rrace_t rrace[2];       /* a race's two accesses ("E" lines) */
static int nrrace;
static long long *rnondet[MAX_THREADS];
static size_t rnondet_n[MAX_THREADS], rnondet_i[MAX_THREADS], rnondet_cap[MAX_THREADS];

static void load_replay(const char *path) {
  FILE *f = path ? fopen(path, "r") : 0;
  if (!f) return;
  size_t cap = 256;
  rsteps = malloc(cap * sizeof *rsteps);
  char k;
  int tid;
  long long v;
  while (fscanf(f, " %c %d %lld", &k, &tid, &v) == 3) {
    if (tid < 0 || tid >= MAX_THREADS) continue;
    if (k == 'E') {
      int w = 0;
      unsigned long long lo = 0, hi = 0;
      if (fscanf(f, " %d %llx %llx", &w, &lo, &hi) != 3) break;
      if (nrrace < 2) {
        rrace[nrrace].tid = tid;
        rrace[nrrace].line = (unsigned)v;
        rrace[nrrace].write = w;
        rrace[nrrace].lo = (uintptr_t)lo;
        rrace[nrrace].hi = (uintptr_t)hi;
        ++nrrace;
      }
      continue;
    }
    if (k == 'S') {
      int cls = 0;
      if (fscanf(f, " %d", &cls) != 1) break;
      if (nrsteps == cap) rsteps = realloc(rsteps, (cap *= 2) * sizeof *rsteps);
      rsteps[nrsteps].tid = tid;
      rsteps[nrsteps].line = (unsigned)v;
      rsteps[nrsteps].cls = cls;
      ++nrsteps;
    } else if (k == 'N') {
      if (rnondet_n[tid] == rnondet_cap[tid]) {
        rnondet_cap[tid] = rnondet_cap[tid] ? 2 * rnondet_cap[tid] : 16;
        rnondet[tid] = realloc(rnondet[tid], rnondet_cap[tid] * sizeof(long long));
      }
      rnondet[tid][rnondet_n[tid]++] = v;
    }
  }
  fclose(f);
  /* The racy accesses are matched after every step. */
  for (int i = 0; i < nrrace; ++i) {
    if (nrsteps == cap) rsteps = realloc(rsteps, (cap *= 2) * sizeof *rsteps);
    rsteps[nrsteps].tid = rrace[i].tid;
    rsteps[nrsteps].line = rrace[i].line;
    rsteps[nrsteps].cls = 2;
    ++nrsteps;
  }
}

static int at_race_access(int t);

/* Replay of a race: is thread t to wait? At its racy access, yes; and entering an atomic
 * section while the other racy thread is not at its access yet (the racy access may be inside
 * the section, which runs without a scheduling point). */
static int race_hold(int t) {
  if (at_race_access(t)) return 1;
  if (T[t].pending.kind != E_ATOMIC) return 0;
  int mine = 0, other_there = 0, other = 0;
  for (int i = 0; i < nrrace; ++i) {
    if (rrace[i].tid == t) mine = 1;
    else { other = 1; other_there |= at_race_access(rrace[i].tid); }
  }
  return mine && other && !other_there;
}

/* Is thread t standing at its racy access (replay of a race)? */
static int at_race_access(int t) {
  const struct event *e = &T[t].pending;
  if (!is_access_kind(e->kind)) return 0;
  for (int i = 0; i < nrrace; ++i) {
    const struct rrace_t *r = &rrace[i];
    if (r->tid != t || (r->write ? e->kind == E_READ : e->kind == E_WRITE)) continue;
    /* Its line, and its variable's bytes when known: the variable is the whole global (a
     * struct's every field), so the bytes alone would take another access of the same global
     * for the racy one (gdrom's gd.pending written at :258 for the race at :452). */
    if (r->line && line_of(e->pc) != r->line) continue;
    if (r->hi && !(e->addr < r->hi && r->lo < e->addr + e->size)) continue;
    if (r->line || r->hi) return 1;
  }
  return 0;
}

static size_t replay_match(int t, int *exact) {
  int k = T[t].pending.kind;
  /* A thread's start, its end and a failing assertion are no access: they match the
   * thread's next step, whatever it is. */
  unsigned line = (k == E_START || k == E_EXIT || k == E_ERROR) ? 0 : line_of(T[t].pending.pc);
  *exact = line != 0;
  /* Without a line: the thread's first step after the last one matched. */
  if (line == 0) {
    for (size_t j = rlast[t]; j < nrsteps; ++j)
      if (rsteps[j].tid == t) return j;
    return (size_t)-1;
  }
  /* An access matches a step that accesses memory, a pthread call a synchronisation step
   * (steps whose class the trace does not say match either); else any step on the line. */
  int want = is_access_kind(T[t].pending.kind) ? 2 : 3;
  for (size_t j = rpos[t]; j < nrsteps; ++j)
    if (rsteps[j].tid == t && rsteps[j].line == line && (rsteps[j].cls == want || rsteps[j].cls == 0)) return j;
  for (size_t j = rpos[t]; j < nrsteps; ++j)
    if (rsteps[j].tid == t && rsteps[j].line == line && rsteps[j].cls != 1) return j;
  return (size_t)-1;
}

/* ---- reporting ------------------------------------------------------------------------- */

static void out_str(const char *s) {
  size_t n = strlen(s);
  while (n) {
    ssize_t w = write(out_fd, s, n);
    if (w <= 0) { if (errno == EINTR) continue; return; }
    s += w;
    n -= (size_t)w;
  }
}

static void json_escape(char *dst, size_t cap, const char *src) {
  size_t o = 0;
  for (; src && *src && o + 7 < cap; ++src) {
    unsigned char c = (unsigned char)*src;
    if (c == '"' || c == '\\') { dst[o++] = '\\'; dst[o++] = (char)c; }
    else if (c < 0x20) o += (size_t)snprintf(dst + o, cap - o, "\\u%04x", c);
    else dst[o++] = (char)c;
  }
  dst[o] = 0;
}

static int reported;
static void out_schedule(void);
/* dfs: a search makes many runs; those without a failure are only counted, in one line after
 * the last run. */
static const char *const quiet_outcomes[] = {"ok", "pruned", "deadlock", "bound", "timeout", "crash", "limit",
                                             "visited", "restart"};
enum { N_QUIET = sizeof quiet_outcomes / sizeof *quiet_outcomes };
static int snapshot_leaf(const char *outcome);
static int leaf_index(void);

/* Writes this run's result line and ends the process. pc/pc2: the code addresses involved
 * (violation: the failing call; race: both accesses). */
static void finish(const char *outcome, const char *msg, uintptr_t pc, int tid, uintptr_t pc2,
                   int tid2) __attribute__((noreturn));
static void finish(const char *outcome, const char *msg, uintptr_t pc, int tid, uintptr_t pc2,
                   int tid2) {
  if (reported) _exit(0);
  reported = 1;
  if (snapshot_leaf(outcome)) _exit(0);
  char esc[1024], buf[2048];
  json_escape(esc, sizeof esc, msg);
  snprintf(buf, sizeof buf,
           "{\"run\":%d,\"seed\":%llu,\"strategy\":\"%s\",\"outcome\":\"%s\",\"message\":\"%s\","
           "\"steps\":%lu,\"threads\":%d,\"pc\":\"0x%lx\",\"thread\":%d,\"pc2\":\"0x%lx\","
           "\"thread2\":%d,\"pct_k\":%lu,\"pct_depth\":%lu",
           leaf_index(), run_seed, run_strategy, outcome, esc, steps,
           nthreads, (unsigned long)pc, tid, (unsigned long)pc2, tid2, pct_k,
           cfg.strategy == S_PCT ? cfg.pct_depth : 0UL);
  out_str(buf);
  int failure = !strcmp(outcome, "violation") || !strcmp(outcome, "race") ||
                !strcmp(outcome, "crash");
  if ((failure || cfg.all_events) && want_events && evlog) {
    out_str(",\"events\":[");
    for (unsigned long i = 0; i < evlog_n; ++i) {
      snprintf(buf, sizeof buf, "%s[%d,\"%c\",\"0x%lx\",\"0x%lx\",%d]", i ? "," : "",
               evlog[i].tid, ev_char[evlog[i].kind], (unsigned long)evlog[i].pc,
               (unsigned long)evlog[i].addr, evlog[i].atomic);
      out_str(buf);
    }
    out_str("]");
  }
  if (failure && cfg.strategy == S_DFS) out_schedule();
  out_str("}\n");
  _exit(0);
}

static void log_event(int tid, const struct event *e) {
  if (evlog_n == evlog_cap) {
    evlog_cap = evlog_cap ? 2 * evlog_cap : 4096;
    evlog = realloc(evlog, evlog_cap * sizeof *evlog);
    if (!evlog) { evlog_cap = evlog_n = 0; return; }
  }
  evlog[evlog_n].tid = tid;
  evlog[evlog_n].kind = e->kind;
  evlog[evlog_n].atomic = e->atomic;
  evlog[evlog_n].pc = e->pc;
  evlog[evlog_n].addr = e->addr;
  ++evlog_n;
}

/* ---- mutexes ----------------------------------------------------------------------------- */

static struct mtx *mutex_of(uintptr_t a) {
  size_t h = (size_t)((a >> 3) * 0x9e3779b97f4a7c15ULL) % MAX_MUTEXES;
  for (size_t i = 0; i < MAX_MUTEXES; ++i) {
    struct mtx *m = &M[(h + i) % MAX_MUTEXES];
    if (m->addr == a) return m;
    if (!m->addr) {
      m->addr = a;
      m->owner = -1;
      mutexes_used[n_mutexes_used++] = m;
      return m;
    }
  }
  finish("limit", "too many mutexes", 0, cur, 0, -1);
}

/* ---- scheduling ------------------------------------------------------------------------ */

static int enabled(int t) {
  struct thr *th = &T[t];
  if (!th->live || th->finished) return 0;
  switch (th->pending.kind) {
    case E_LOCK: { /* free, or held by t itself when relocking does not wait (recursive, error-checking) */
      const struct mtx *m = mutex_of(th->pending.addr);
      return m->owner < 0 || (m->owner == t && m->kind != 0);
    }
    case E_JOIN: return T[th->pending.addr].finished;
    case E_STUCK: return 0; /* __VERIFIER_assume(0), abort(): this thread never moves again */
    default: return 1;
  }
}

static int is_access_kind(int k) { return k == E_READ || k == E_WRITE || k == E_RMW; }
static int is_access(const struct event *e) { return is_access_kind(e->kind); }

/* Does thread t's pending access write, if it ran now? A compare-and-swap writes only when
 * memory holds the value it expects (C11: a failed one only reads). */
static int pending_writes(int t) {
  const struct event *e = &T[t].pending;
  if (e->kind == E_READ) return 0;
  if (e->kind == E_RMW && T[t].cas_pending)
    return memcmp((const void *)e->addr, &T[t].cas_expected, e->size) == 0;
  return 1;
}

static void check_races(int self) {
  const struct event *a = &T[self].pending;
  if (!cfg.races || !is_access(a)) return;
  for (int u = 0; u < nthreads; ++u) {
    if (u == self || !T[u].live || T[u].finished) continue;
    const struct event *b = &T[u].pending;
    if (!is_access(b)) continue;
    if (!pending_writes(self) && !pending_writes(u)) continue;
    if (a->atomic && b->atomic) continue;
    /* Replay of a race: only that race (both threads at their racy accesses) ends the run;
     * another one the schedule passes on its way (the same counter incremented just before)
     * would confirm a different warning. SIREN_RT_TEST_BROKEN=5 (test only): any race does. */
    if (nrrace == 2 && cfg.test_broken != 5 && !(at_race_access(self) && at_race_access(u))) continue;
    if (a->addr < b->addr + b->size && b->addr < a->addr + a->size)
      finish("race", "data race", b->pc, u, a->pc, self);
  }
}

/* Replay: thread t executes its pending event; pass the step it matches. Called for every
 * event a thread executes, also when nothing was to be chosen (one thread enabled, inside an
 * atomic section), so that a thread's place in the trace follows its own progress. */
static void replay_advance(int t) {
  if (cfg.strategy != S_REPLAY) return;
  int exact;
  size_t p = replay_match(t, &exact);
  /* A thread's start (and code without a line) matches its next step without passing it. */
  if (p == (size_t)-1 || !exact) return;
  /* Several native events may match one step whose class the trace does not say (x = x + 1
   * as one step, two accesses here): then stay unless the thread's next step has the same
   * line. A step whose class is said is passed. */
  size_t nx = p + 1;
  while (nx < nrsteps && rsteps[nx].tid != t) ++nx;
  rpos[t] = rsteps[p].cls != 0 || (nx < nrsteps && rsteps[nx].line == rsteps[p].line) ? p + 1 : p;
  rlast[t] = p + 1;
}

/* ---- systematic search (dfs) ----------------------------------------------------------- */
/* A depth-first search over schedules with state caching. A *choice point* is a scheduling
 * point where two or more threads are enabled. The search stack (per choice point of the
 * current path: the enabled threads, those tried, the one taken) and the set of visited
 * states live in memory the fork server maps shared before it forks. A run follows the
 * stack's first `prefix` choices; at each later choice point it hashes the program's state:
 * a state some run reached before ends the run (`visited`: its successors were or will be
 * explored from there); a new one is added and pushed with its lowest enabled thread taken.
 * After each run the fork server backtracks to the deepest point with an untried thread. When
 * none is left, every state reachable under these nondet values has been explored. That is the
 * search by re-execution; with snapshots (uthreads) a run forks at each new choice point
 * instead (dfs_fork) and prunes with sleep sets. Both take a thread's own stack as private
 * (dfs_invisible) and a thread's start as a step of its own (dfs_choose); native/README.md.
 *
 * The hash must tell apart states whose futures differ, or pruning loses behaviours:
 *  - memory: every location outside the stacks that the program accessed (its instrumented
 *    accesses), as the difference between its contents and its first contents (the
 *    executable's image for globals, zero elsewhere: malloc zeroes), summed over locations,
 *    so two paths that touched different locations but left the same memory compare equal;
 *  - per thread: its pending event, whether it finished, its atomic-section depth, its start
 *    argument and return value, and the bytes of its stack from the frame of the program's
 *    code that called into the runtime up to the frame of its outermost function: the
 *    program is compiled at -O0, where every value live across a call is in a stack slot
 *    (its code saves no callee-saved register, so none carries a value into the runtime);
 *  - the owner of each mutex, the number of threads and the nondet generator's state.
 * Dead stack slots that a frame has not written yet make equal states look different (more
 * runs, never a wrong prune). A hash collision merges two states: a bug may be missed, a
 * violation is never invented (every violation is a real run). Memory written only by code
 * that is not instrumented (libc) and never read by instrumented code is not hashed. */

/* Snapshots: what one transition did (sleep sets), from a choice point to the next: the
 * accesses of the thread that was chosen, outside its private stack. `dirty`: anything else
 * (another thread moved, a lock, create, join, exit, a nondet value, malloc, too many accesses),
 * which makes it dependent on every transition. */
#define FP_MAX 8
struct footprint {
  unsigned char n, dirty;
  unsigned char write[FP_MAX];
  unsigned size[FP_MAX];
  uintptr_t addr[FP_MAX];
};

struct dfs_frame {
  uint64_t enabled, tried;
  unsigned char choice;
  struct footprint fp; /* snapshots: the transition taken here, written by the child */
};
static struct dfs_shared {
  unsigned long prefix, depth; /* a run follows frames [0, prefix), then pushes up to depth */
  unsigned long states, cap;   /* visited states; slots of the table (a power of two) */
  int full;                    /* the table is three-quarters full: the search stops */
  int restart;                 /* the run marked a stack shared: the search starts again */
  unsigned long restarts;
  uint64_t shared_stacks;      /* threads (< 64) whose stack another thread accessed */
  /* snapshots (uthreads): the search is one tree of processes */
  int stop;                    /* a violation (with SIREN_RT_STOP), --runs or the time is up */
  unsigned long leaves;        /* processes that ended (runs) */
  unsigned long counts[16];    /* their quiet outcomes, as quiet_outcomes names them */
  struct timespec t0;          /* when the search began, for SIREN_RT_TIMEOUT_MS */
} *dfs;
/* dfs with uthreads: a choice point forks one child per thread but the last, which the process
 * takes itself; each child's subtree is searched before the next child is forked. */
static int snapshots;
static struct dfs_frame *dfs_f; /* cfg.max_steps + 1 frames */
static uint64_t *dfs_table;     /* the visited states' hashes, open addressing, 0 = empty */
static uint64_t *dfs_asleep;    /* snapshots: per slot, the threads asleep when it was explored */
/* Snapshots, in each process: the transition under way (since the last choice point), the choice
 * point it left (-1: none yet) and the sleep set it started from (threads and what they do). */
static struct footprint seg;
static int seg_thread = -1;
static long seg_point = -1;
static uint64_t sleep_mask;
static struct footprint sleep_fp[64];
static unsigned long dfs_point; /* choice points this run has passed */
static int dfs_follow;          /* SIREN_RT_DFS_SCHEDULE: one run along a given schedule */

/* The executable's data and bss as they were before any run: the first contents of globals. */
extern char __data_start[], _end[];
static unsigned char *image;
static uintptr_t main_stack_lo, main_stack_hi;

static uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

/* n bytes at p (p == 0: n zero bytes) into h. */
static uint64_t hash_bytes(uint64_t h, const unsigned char *p, size_t n) {
  uint64_t w = 0;
  for (; n >= 8; n -= 8) {
    if (p) { memcpy(&w, p, 8); p += 8; }
    h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
  }
  if (n) {
    w = 0;
    if (p) memcpy(&w, p, n);
    h = (h ^ w ^ ((uint64_t)n << 56)) * 0x9e3779b97f4a7c15ULL;
  }
  return mix64(h);
}

/* The locations the program accessed outside the stacks, an open-addressing set (mapped, not
 * malloc'd: the program's heap addresses must not depend on the runtime's own allocations). */
struct loc {
  uintptr_t addr;
  unsigned size;
  uint64_t first; /* the hash of its first contents */
};
static struct loc *locs;
static unsigned long n_locs, locs_cap;

static uint64_t loc_hash(uintptr_t addr, unsigned size, const unsigned char *p) {
  return hash_bytes(mix64(addr ^ ((uint64_t)size << 48)), p, size);
}

static int on_a_stack(uintptr_t a) {
  return (a >= main_stack_lo && a < main_stack_hi) ||
         (a >= (uintptr_t)stacks && a < (uintptr_t)stacks + MAX_THREADS * STACK_SIZE);
}

static void loc_put(struct loc *tab, unsigned long cap, const struct loc *l) {
  unsigned long i = mix64(l->addr ^ l->size) & (cap - 1);
  while (tab[i].size) i = (i + 1) & (cap - 1);
  tab[i] = *l;
}

static void note_location(uintptr_t addr, unsigned size) {
  if (on_a_stack(addr)) return; /* hashed with its thread's stack */
  if (locs_cap) {
    for (unsigned long i = mix64(addr ^ size) & (locs_cap - 1); locs[i].size; i = (i + 1) & (locs_cap - 1))
      if (locs[i].addr == addr && locs[i].size == size) return;
  }
  if (2 * (n_locs + 1) > locs_cap) {
    unsigned long cap = locs_cap ? 2 * locs_cap : 1024;
    struct loc *tab = mmap(0, cap * sizeof *tab, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (tab == MAP_FAILED) finish("limit", "dfs: no memory for the accessed locations", 0, cur, 0, -1);
    for (unsigned long i = 0; i < locs_cap; ++i)
      if (locs[i].size) loc_put(tab, cap, &locs[i]);
    if (locs) munmap(locs, locs_cap * sizeof *locs);
    locs = tab;
    locs_cap = cap;
  }
  const int global = addr >= (uintptr_t)__data_start && addr + size <= (uintptr_t)_end;
  struct loc l = {addr, size,
                  loc_hash(addr, size, global ? image + (addr - (uintptr_t)__data_start) : 0)};
  loc_put(locs, locs_cap, &l);
  ++n_locs;
}

/* The state at this scheduling point (0: it cannot be hashed, a thread's stack is unknown). */
static uint64_t state_hash(void) {
  uint64_t mem = 0;
  for (unsigned long i = 0; i < locs_cap; ++i)
    if (locs[i].size)
      mem += loc_hash(locs[i].addr, locs[i].size, (const unsigned char *)locs[i].addr) - locs[i].first;
  /* SIREN_RT_TEST_BROKEN=2 (test only): a deliberately wrong hash of shared memory only, which
   * merges states that differ in a thread's position or locals. */
  if (cfg.test_broken == 2) return mem | 1;
  uint64_t h = mix64(mem ^ (uint64_t)nthreads);
  for (int t = 0; t < nthreads; ++t) {
    const struct thr *th = &T[t];
    const struct event *e = &th->pending;
    h = mix64(h ^ e->kind ^ (uint64_t)e->atomic << 8 ^ (uint64_t)th->finished << 9 ^
              (uint64_t)th->atomic_depth << 10 ^ (uint64_t)e->size << 32);
    h = mix64(h ^ e->addr);
    h = mix64(h ^ e->pc);
    h = mix64(h ^ (uintptr_t)th->arg);
    h = mix64(h ^ (uintptr_t)th->retval);
    for (int k = 0; uthreads && k < n_keys; ++k) h = mix64(h ^ (uintptr_t)key_values[t][k]); /* its pthread keys */
    /* A thread yet to start, ending or ended has no frame of the program that matters. */
    if (th->finished || e->kind == E_START || e->kind == E_EXIT) continue;
    if (!th->stack_hi || th->user_sp >= th->stack_hi || th->stack_hi - th->user_sp > STACK_SIZE) return 0;
    h = hash_bytes(h, (const unsigned char *)th->user_sp, th->stack_hi - th->user_sp);
  }
  uint64_t locks = 0;
  for (int i = 0; i < n_mutexes_used; ++i)
    if (mutexes_used[i]->owner >= 0)
      locks += mix64(mutexes_used[i]->addr ^ (uint64_t)mutexes_used[i]->owner << 56 ^ (uint64_t)mutexes_used[i]->count << 40);
  h = mix64(h ^ locks);
  h = mix64(h ^ rng_state);
  return h ? h : 1;
}

/* The thread whose stack holds address a (-1: none, or a thread above the 64 that dfs tracks). */
static int stack_owner(uintptr_t a) {
  if (a >= main_stack_lo && a < main_stack_hi) return 0;
  if (a < (uintptr_t)stacks || a >= (uintptr_t)stacks + 64 * STACK_SIZE) return -1;
  return (int)((a - (uintptr_t)stacks) / STACK_SIZE);
}

/* Is e, a plain access by the running thread, invisible to the search (no scheduling point)?
 * Accesses to the running thread's own stack are, as long as no other thread has accessed that
 * stack in any run of the search. Such an access commutes with every step of every other
 * thread, so running it at once with the thread's next step loses no reachable state (the
 * classic merge of invisible steps). Soundness does not rest on a guess: the first access of a
 * thread to another thread's stack, in any run, marks that stack shared (its accesses are
 * scheduling points from then on) and restarts the search from an empty visited set. If some
 * execution of the program let a thread touch another's stack, the prefix before the first
 * such access commutes into one this search explores, so a completed search saw none. */
static int dfs_invisible(const struct event *e) {
  if (!is_access(e)) return 0;
  const int o = stack_owner(e->addr), o2 = stack_owner(e->addr + e->size - 1);
  const int plain = e->kind == E_READ || e->kind == E_WRITE;
  /* SIREN_RT_TEST_BROKEN=3 (test only): every stack access private, whoever's stack it is. */
  if (cfg.test_broken == 3) return plain && o >= 0 && o2 == o && !(dfs->shared_stacks >> o & 1);
  /* Any access (also a read-modify-write, also one that is a scheduling point anyway) to a
   * stack of another thread that is still taken as private makes it shared. */
  for (int k = 0; k < 2; ++k) {
    const int w = k ? o2 : o;
    if (w < 0 || w == cur || (dfs->shared_stacks >> w & 1)) continue;
    dfs->shared_stacks |= 1ULL << w;
    dfs->restart = 1;
    finish("restart", "a thread accessed another thread's stack: the search starts again", e->pc, cur, 0, -1);
  }
  return plain && o == cur && o2 == cur && !(dfs->shared_stacks >> cur & 1);
}

/* The slot of h in the visited states; *fresh: it was not there (now it is). */
static unsigned long dfs_slot(uint64_t h, int *fresh) {
  unsigned long i = h & (dfs->cap - 1);
  *fresh = 0;
  for (; dfs_table[i]; i = (i + 1) & (dfs->cap - 1))
    if (dfs_table[i] == h) return i;
  if (4 * (dfs->states + 1) > 3 * dfs->cap) {
    dfs->full = 1;
    finish("limit", "dfs: the table of visited states is full", 0, cur, 0, -1);
  }
  dfs_table[i] = h;
  ++dfs->states;
  *fresh = 1;
  return i;
}

/* ---- sleep sets (snapshots) ---- */
/* The transition under way executes event e of thread t. */
static void seg_add(int t, const struct event *e) {
  if (!snapshots || !in_child) return;
  if (t != seg_thread) seg.dirty = 1; /* another thread moved: not one thread's transition */
  int write;
  switch (e->kind) {
    case E_READ: write = 0; break;
    case E_WRITE: case E_RMW: case E_LOCK: case E_UNLOCK: write = 1; break; /* a lock: its mutex */
    case E_ATOMIC: return; /* the section's accesses follow as events of their own */
    default: seg.dirty = 1; return;
  }
  if (seg.n == FP_MAX) { seg.dirty = 1; return; }
  seg.addr[seg.n] = e->addr;
  seg.size[seg.n] = e->size ? e->size : 1;
  seg.write[seg.n] = (unsigned char)write;
  ++seg.n;
}

/* Do two transitions commute (neither enables nor disables the other, the same state after
 * both orders)? Yes when neither is dirty and no access of one overlaps a write of the other. */
static int independent(const struct footprint *a, const struct footprint *b) {
  if (cfg.test_broken == 4) return 1; /* test only: a deliberately broken relation, all commute */
  if (a->dirty || b->dirty) return 0;
  for (int i = 0; i < a->n; ++i)
    for (int j = 0; j < b->n; ++j)
      if ((a->write[i] || b->write[j]) && a->addr[i] < b->addr[j] + b->size[j] &&
          b->addr[j] < a->addr[i] + a->size[i])
        return 0;
  return 1;
}

/* Adds h to the visited states; 0 if it was there. */
static int dfs_visit(uint64_t h) {
  unsigned long i = h & (dfs->cap - 1);
  for (; dfs_table[i]; i = (i + 1) & (dfs->cap - 1))
    if (dfs_table[i] == h) return 0;
  if (4 * (dfs->states + 1) > 3 * dfs->cap) {
    dfs->full = 1;
    finish("limit", "dfs: the table of visited states is full", 0, cur, 0, -1);
  }
  dfs_table[i] = h;
  ++dfs->states;
  return 1;
}

static unsigned long ms_since(const struct timespec *t0) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (unsigned long)((now.tv_sec - t0->tv_sec) * 1000 + (now.tv_nsec - t0->tv_nsec) / 1000000);
}

/* Snapshots: a process of the search ends with this outcome. 1: it is only counted. */
static int snapshot_leaf(const char *outcome) {
  if (!snapshots) return 0;
  ++dfs->leaves;
  for (int k = 0; k < N_QUIET; ++k)
    if (!strcmp(outcome, quiet_outcomes[k]) && !cfg.all_events) {
      ++dfs->counts[k];
      return 1;
    }
  if (cfg.stop && (!strcmp(outcome, "violation") || !strcmp(outcome, "race"))) dfs->stop = 1;
  return 0;
}

/* The index of this run: with snapshots, of this process among the search's ended ones. */
static int leaf_index(void) { return snapshots ? (int)dfs->leaves - 1 : run_index; }

/* Snapshots: the successors of a new state at choice point d, in the order of the threads.
 * Returns (in some process) the thread that process continues with; the others end here. */
static int dfs_fork(uint64_t en, unsigned long d) {
  /* Sleep sets (Godefroid): a thread asleep here need not move from here, a run that reaches
   * this state by a path where its transition commutes explores it. Sleep sets prune
   * transitions, not states: every reachable state is still visited. First the transition
   * that led here: its footprint goes to the parent (which puts it to sleep for its later
   * children), and it wakes every sleeping thread it does not commute with. */
  if (seg_point >= 0) dfs_f[seg_point].fp = seg;
  for (uint64_t m = sleep_mask; m; m &= m - 1) {
    const int u = __builtin_ctzll(m);
    if (!(en >> u & 1) || !independent(&sleep_fp[u], &seg)) sleep_mask &= ~(1ULL << u);
  }
  /* With state caching: a state explored before with asleep threads S is explored again only
   * for those of S awake now, and S shrinks to what is asleep in both. */
  const uint64_t h = state_hash();
  if (h) {
    int fresh;
    const unsigned long i = dfs_slot(h, &fresh);
    if (fresh) dfs_asleep[i] = sleep_mask;
    else {
      const uint64_t wake = dfs_asleep[i] & ~sleep_mask;
      if (!wake) finish("visited", "a state explored before", 0, cur, 0, -1);
      dfs_asleep[i] &= sleep_mask;
      en &= wake;
    }
  }
  en &= ~sleep_mask;
  if (!en) finish("visited", "every thread is asleep: each successor is explored from elsewhere", 0, cur, 0, -1);
  for (;;) {
    const int c = __builtin_ctzll(en);
    en &= en - 1;
    dfs_f[d].choice = (unsigned char)c; /* the path to here, for the schedule of a failing run */
    dfs_f[d].fp.dirty = 1;               /* until the child says what its transition did */
    dfs_f[d].fp.n = 0;
    seg_point = (long)d;
    seg_thread = c;
    seg.n = seg.dirty = 0;
    if (dfs->stop || dfs->restart || dfs->full) _exit(0);
    if ((cfg.timeout_ms && ms_since(&dfs->t0) >= cfg.timeout_ms) || dfs->leaves >= cfg.runs) {
      dfs->stop = 1;
      _exit(0);
    }
    if (!en) { /* the last thread: this process */
      alarm((unsigned)((cfg.run_ms + 999) / 1000));
      return c;
    }
    /* The other threads: a copy of this process (a backup) waits until the subtree of c is
     * searched: until every process of that subtree has closed the pipe's write end, which they
     * inherit, as do the backups of deeper choice points (they go first, depth first). The
     * process that goes on with c keeps its ancestry: a fork's cost grows with the depth of the
     * process tree (the kernel links each mapping to an anonymous-memory object per ancestor),
     * and the tree is as deep as the path has taken a later thread, not as it has choice points. */
    int fds[2];
    if (pipe(fds) != 0) finish("limit", "dfs: no pipe for a choice point (too many open files)", 0, cur, 0, -1);
    const pid_t pid = fork();
    if (pid < 0) finish("limit", "dfs: fork failed", 0, cur, 0, -1);
    if (pid > 0) {
      close(fds[0]);
      alarm((unsigned)((cfg.run_ms + 999) / 1000));
      return c;
    }
    close(fds[1]);
    char x;
    while (read(fds[0], &x, 1) < 0 && errno == EINTR) {}
    close(fds[0]);
    sleep_mask |= 1ULL << c; /* explored: asleep for the later threads */
    sleep_fp[c] = dfs_f[d].fp;
  }
}

/* The thread to run at a choice point (n_en >= 2). */
static int dfs_choose(void) {
  uint64_t en = 0;
  for (int t = 0; t < nthreads; ++t)
    if (enabled(t)) en |= 1ULL << t;
  /* A thread that has not started yet: its first step, from its start to its first scheduling
   * point, touches only its own stack (and code that is not instrumented), so it commutes with
   * every step of every other thread and taking it alone here loses no state (a singleton
   * persistent set; it happens once per thread, so no cycle can postpone the others). */
  for (int t = 0; t < nthreads; ++t)
    if (en >> t & 1 && T[t].pending.kind == E_START) return t;
  const unsigned long d = dfs_point++;
  if (d < dfs->prefix) {
    const int c = dfs_f[d].choice;
    if (en >> c & 1) return c;
    finish("limit", "dfs: the run left the schedule it was given (the program does not repeat itself)", 0, cur,
           0, -1);
  }
  if (snapshots) return dfs_fork(en, d);
  if (!dfs_follow) {
    const uint64_t h = state_hash();
    if (h && !dfs_visit(h)) finish("visited", "a state explored before", 0, cur, 0, -1);
  }
  const int c = __builtin_ctzll(en);
  dfs_f[d].enabled = en;
  dfs_f[d].tried = 1ULL << c;
  dfs_f[d].choice = (unsigned char)c;
  dfs->depth = d + 1;
  return c;
}

/* The choices of this run, run-length encoded as SIREN_RT_DFS_SCHEDULE reads them. */
static void out_schedule(void) {
  char buf[32];
  out_str(",\"schedule\":\"");
  if (dfs->shared_stacks) { /* the stacks the search treated as shared, for the run again */
    snprintf(buf, sizeof buf, "s%llx:", (unsigned long long)dfs->shared_stacks);
    out_str(buf);
  }
  for (unsigned long i = 0; i < dfs_point;) {
    unsigned long j = i;
    while (j < dfs_point && dfs_f[j].choice == dfs_f[i].choice) ++j;
    if (j - i > 1) snprintf(buf, sizeof buf, "%s%dx%lu", i ? "," : "", dfs_f[i].choice, j - i);
    else snprintf(buf, sizeof buf, "%s%d", i ? "," : "", dfs_f[i].choice);
    out_str(buf);
    i = j;
  }
  out_str("\"");
}

/* Fork server: the shared search state, the image of the globals, the main thread's stack. */
static void dfs_init(void) {
  const unsigned long frames = cfg.max_steps + 2;
  const unsigned long cap = 1UL << env_ul("SIREN_RT_DFS_TABLE_BITS", 25); /* pages are touched as used */
  const int shared = MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE;
  dfs = mmap(0, sizeof *dfs, PROT_READ | PROT_WRITE, shared, -1, 0);
  dfs_f = mmap(0, frames * sizeof *dfs_f, PROT_READ | PROT_WRITE, shared, -1, 0);
  dfs_table = mmap(0, cap * sizeof *dfs_table, PROT_READ | PROT_WRITE, shared, -1, 0);
  dfs_asleep = mmap(0, cap * sizeof *dfs_asleep, PROT_READ | PROT_WRITE, shared, -1, 0);
  if (dfs == MAP_FAILED || dfs_f == MAP_FAILED || dfs_table == MAP_FAILED || dfs_asleep == MAP_FAILED) _exit(72);
  dfs->cap = cap;
  image = mmap(0, (size_t)(_end - __data_start), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (image == MAP_FAILED) _exit(72);
  memcpy(image, __data_start, (size_t)(_end - __data_start));
  pthread_attr_t a;
  void *lo;
  size_t size;
  if (pthread_getattr_np(__real_pthread_self(), &a) == 0) {
    if (pthread_attr_getstack(&a, &lo, &size) == 0) {
      main_stack_lo = (uintptr_t)lo;
      main_stack_hi = (uintptr_t)lo + size;
    }
    pthread_attr_destroy(&a);
  }
  /* "0x3,2,1x4": the choices of a failing run, to follow once; "s5:0x3,...": with the stacks
   * of threads 0 and 2 shared, as the search had them. */
  const char *p = cfg.dfs_schedule;
  if (p && *p == 's') {
    char *end;
    dfs->shared_stacks = strtoull(p + 1, &end, 16);
    p = *end == ':' ? end + 1 : end;
  }
  for (; p && *p && dfs->prefix < frames;) {
    char *end;
    const unsigned long t = strtoul(p, &end, 10);
    if (end == p || t >= 64) break;
    unsigned long n = 1;
    if (*end == 'x') n = strtoul(end + 1, &end, 10);
    for (; n > 0 && dfs->prefix < frames; --n) dfs_f[dfs->prefix++].choice = (unsigned char)t;
    p = *end == ',' ? end + 1 : end;
    dfs_follow = 1;
  }
}

/* Fork server, after a run: the next run's prefix. 0 when the search is over. */
static int dfs_backtrack(void) {
  if (dfs_follow || dfs->full) return 0;
  unsigned long d = dfs->depth;
  while (d > 0 && !(dfs_f[d - 1].enabled & ~dfs_f[d - 1].tried)) --d;
  if (d == 0) return 0;
  struct dfs_frame *f = &dfs_f[d - 1];
  const int c = __builtin_ctzll(f->enabled & ~f->tried);
  f->tried |= 1ULL << c;
  f->choice = (unsigned char)c;
  dfs->prefix = dfs->depth = d;
  return 1;
}

static int choose(void) {
  int n_en = 0, only = -1;
  for (int t = 0; t < nthreads; ++t)
    if (enabled(t)) { ++n_en; only = t; }
  if (n_en == 0) return -1;
  if (n_en == 1) return only;
  /* SIREN_RT_TEST_BROKEN (test only): a deliberately broken oracle that never preempts. */
  if (cfg.test_broken == 1 && enabled(cur)) return cur;
  if (cfg.strategy == S_DFS) return dfs_choose();
  if (cfg.strategy == S_REPLAY) {
    int best = -1;
    size_t best_pos = (size_t)-1;
    int held = 0; /* threads at their racy access wait while others can move */
    for (int t = 0; t < nthreads; ++t) held += enabled(t) && race_hold(t);
    for (int t = 0; t < nthreads; ++t) {
      if (!enabled(t) || (held < n_en && race_hold(t))) continue;
      int exact;
      size_t p = replay_match(t, &exact);
      if (best < 0 || p < best_pos) { best = t; best_pos = p; }
    }
    return best;
  }
  if (cfg.strategy == S_QUANTUM) {
    /* Round robin with a fixed quantum: the strict alternation that bugs needing many
     * preemptions want (PCT's depth and uniform random choices rarely give it). */
    if (enabled(cur) && (T[cur].run_len + 1 < quantum || T[cur].fresh)) return cur;
    for (int i = 1; i <= nthreads; ++i) {
      int t = (cur + i) % nthreads;
      if (enabled(t)) return t;
    }
    return only;
  }
  if (cfg.strategy == S_DEMOTE) {
    /* Round robin (or uniform choice) among the front group; a change point moves the running
     * thread behind all others. All threads start in the front group, so two workers can
     * alternate strictly while the thread that created them is held back: the many
     * preemptions PCT's depth cannot give (fib_bench, triangular). */
    for (unsigned i = 0; i < n_demote; ++i)
      if (demote_at[i] == steps && T[cur].live) T[cur].level = ++demotions;
    if (steps >= epoch_end) {
      for (int t = 0; t < nthreads; ++t) T[t].level = 0;
      epoch_end = steps + 4096;
    }
    unsigned top = ~0u;
    int n_top = 0;
    for (int t = 0; t < nthreads; ++t)
      if (enabled(t) && T[t].level <= top) { n_top = T[t].level < top ? 1 : n_top + 1; top = T[t].level; }
    if (!demote_rr) {
      unsigned long k = rnd() % (unsigned long)n_top;
      for (int t = 0; t < nthreads; ++t)
        if (enabled(t) && T[t].level == top && k-- == 0) return t;
    }
    if (enabled(cur) && T[cur].level == top && (T[cur].run_len + 1 < quantum || T[cur].fresh)) return cur;
    /* The round goes in a random order (the threads' random PCT priorities): with a fixed
     * order the thread created first always runs again before the one created next starts. */
    int next = -1, first = -1;
    for (int t = 0; t < nthreads; ++t) {
      if (t == cur || !enabled(t) || T[t].level != top) continue;
      if (T[t].prio > T[cur].prio && (next < 0 || T[t].prio < T[next].prio)) next = t;
      if (first < 0 || T[t].prio < T[first].prio) first = t;
    }
    return next >= 0 ? next : first >= 0 ? first : cur;
  }
  if (cfg.strategy == S_PCT) {
    for (unsigned i = 0; i < cfg.pct_depth - 1 && i < 8; ++i)
      if (pct_change[i] == steps && T[cur].live) T[cur].prio = cfg.pct_depth - 1 - i;
    /* Starvation guard: a thread that ran 2000 scheduling points in a row while others could
     * run (a spin loop) drops below every other priority. */
    if (T[cur].run_len > 2000 && enabled(cur)) { T[cur].prio = 0; T[cur].run_len = 0; }
    int best = -1;
    for (int t = 0; t < nthreads; ++t)
      if (enabled(t) && (best < 0 || T[t].prio > T[best].prio)) best = t;
    return best;
  }
  unsigned long k = rnd() % (unsigned long)n_en;
  for (int t = 0; t < nthreads; ++t)
    if (enabled(t) && k-- == 0) return t;
  return only;
}

static void no_thread_can_move(uintptr_t pc, int self) __attribute__((noreturn));

/* The running thread `cur` stands before event `e`: pick who runs next. Returns when `cur`
 * is chosen again, i.e. when its pending event may execute. */
static void sched(struct event e) {
  if (!in_child) return;
  int self = cur;
  T[self].pending = e;
  T[self].user_sp = entry_cfa;
  check_races(self);
  if (T[self].atomic_depth > 0 && enabled(self)) {
    replay_advance(self);
    log_event(self, &e);
    seg_add(self, &e);
    return;
  }
  if (++steps > cfg.max_steps) finish("bound", "scheduling-point bound reached", e.pc, self, 0, -1);
  int next = choose();
  if (next < 0) no_thread_can_move(e.pc, self);
  seg_add(next, &T[next].pending);
  replay_advance(next);
  T[next].run_len = next == self ? T[next].run_len + 1 : 0;
  /* Round robin: a thread's start is not a turn of its own (the turn is its first event). */
  T[next].fresh = T[next].pending.kind == E_START;
  log_event(next, &T[next].pending);
  if (next != self) {
    cur = next;
    if (uthreads) {
      const int saved = errno;
      swapcontext(&uctx[self], &uctx[next]);
      errno = saved;
    } else {
      sem_post(&T[next].sem);
      while (sem_wait(&T[self].sem) != 0) {}
    }
  }
}

/* No thread can move: a deadlock, unless every thread left is stuck for good in
 * __VERIFIER_assume(0) or abort() (siren's semantics: such a thread blocks), which prunes the run. */
static void no_thread_can_move(uintptr_t pc, int self) {
  /* A thread stopped for good may be what the others wait for (siren's Assume waits until
   * its condition holds; natively the condition cannot be evaluated again): not a deadlock. */
  for (int t = 0; t < nthreads; ++t)
    if (T[t].live && !T[t].finished && T[t].pending.kind == E_STUCK)
      finish("pruned", "the threads left wait for one stopped by __VERIFIER_assume(0) or abort()", pc, self, 0, -1);
  finish("deadlock", "no thread can move", pc, self, 0, -1);
}

/* The running thread `self` has ended: hand over to the next one. */
static void thread_ended(int self) {
  T[self].finished = 1;
  int alive = 0;
  for (int t = 0; t < nthreads; ++t) alive += T[t].live && !T[t].finished;
  if (!alive) finish("ok", "", 0, self, 0, -1);
  int moving = 0;
  for (int t = 0; t < nthreads; ++t) moving += T[t].live && !T[t].finished && T[t].pending.kind != E_STUCK;
  if (!moving) finish("ok", "", 0, self, 0, -1); /* the others are stopped for good */
  if (++steps > cfg.max_steps) finish("bound", "scheduling-point bound reached", 0, self, 0, -1);
  seg.dirty = 1; /* an exit enables joins */
  int next = choose();
  if (next < 0) no_thread_can_move(0, self);
  seg_add(next, &T[next].pending);
  replay_advance(next);
  T[next].run_len = 0;
  T[next].fresh = T[next].pending.kind == E_START;
  log_event(next, &T[next].pending);
  cur = next;
  if (uthreads) setcontext(&uctx[next]); /* this thread's context is not resumed again */
  sem_post(&T[next].sem);
}

/* The code address that called the entry point of the runtime using it. Each entry point from
 * the program uses it, so it also notes where the caller's stack frame begins (this entry
 * point's canonical frame address): the state dfs hashes covers the program's stack from
 * there up, not the runtime's frames below. */
#define PC() (entry_cfa = (uintptr_t)__builtin_dwarf_cfa(), (uintptr_t)__builtin_return_address(0))

static void access_ev(uintptr_t addr, unsigned size, int kind, int atomic, uintptr_t pc) {
  struct event e = {(unsigned char)kind, (unsigned char)(atomic || T[cur].atomic_depth > 0),
                    size, addr, pc};
  if (cfg.strategy == S_DFS) {
    if (in_child && dfs_invisible(&e)) {
      log_event(cur, &e);
      return;
    }
    note_location(addr, size);
  }
  sched(e);
}

/* ---- ThreadSanitizer instrumentation entry points --------------------------------------- */

#define RT_ACCESS(N)                                                                          \
  RT_API RT_NOINLINE void __tsan_read##N(void *a) { access_ev((uintptr_t)a, N, E_READ, 0, PC()); }      \
  RT_API RT_NOINLINE void __tsan_write##N(void *a) { access_ev((uintptr_t)a, N, E_WRITE, 0, PC()); }    \
  RT_API RT_NOINLINE void __tsan_unaligned_read##N(void *a) { access_ev((uintptr_t)a, N, E_READ, 0, PC()); } \
  RT_API RT_NOINLINE void __tsan_unaligned_write##N(void *a) { access_ev((uintptr_t)a, N, E_WRITE, 0, PC()); } \
  RT_API RT_NOINLINE void __tsan_volatile_read##N(void *a) { access_ev((uintptr_t)a, N, E_READ, 0, PC()); } \
  RT_API RT_NOINLINE void __tsan_volatile_write##N(void *a) { access_ev((uintptr_t)a, N, E_WRITE, 0, PC()); }
RT_ACCESS(1)
RT_ACCESS(2)
RT_ACCESS(4)
RT_ACCESS(8)
RT_ACCESS(16)

RT_API RT_NOINLINE void __tsan_read_range(void *a, unsigned long n) {
  if (n) access_ev((uintptr_t)a, (unsigned)n, E_READ, 0, PC());
}
RT_API RT_NOINLINE void __tsan_write_range(void *a, unsigned long n) {
  if (n) access_ev((uintptr_t)a, (unsigned)n, E_WRITE, 0, PC());
}
RT_API void __tsan_init(void) {}
RT_API void __tsan_func_entry(void *pc) { (void)pc; }
RT_API void __tsan_func_exit(void) {}
RT_API void __tsan_ignore_thread_begin(void) {}
RT_API void __tsan_ignore_thread_end(void) {}

RT_API RT_NOINLINE void *__tsan_memcpy(void *d, const void *s, unsigned long n) {
  if (n) {
    access_ev((uintptr_t)s, (unsigned)n, E_READ, 0, PC());
    access_ev((uintptr_t)d, (unsigned)n, E_WRITE, 0, PC());
  }
  return memcpy(d, s, n);
}
RT_API RT_NOINLINE void *__tsan_memmove(void *d, const void *s, unsigned long n) {
  if (n) {
    access_ev((uintptr_t)s, (unsigned)n, E_READ, 0, PC());
    access_ev((uintptr_t)d, (unsigned)n, E_WRITE, 0, PC());
  }
  return memmove(d, s, n);
}
RT_API RT_NOINLINE void *__tsan_memset(void *d, int c, unsigned long n) {
  if (n) access_ev((uintptr_t)d, (unsigned)n, E_WRITE, 0, PC());
  return memset(d, c, n);
}

/* C11 / GCC atomics: one atomic scheduling point, then the operation on real memory. A
 * compare-and-swap's point remembers the value it expects (pending_writes). */
static void cas_ev(uintptr_t a, unsigned size, uint64_t expected, uintptr_t pc) {
  T[cur].cas_expected = 0;
  memcpy(&T[cur].cas_expected, &expected, size); /* little-endian: the low `size` bytes */
  T[cur].cas_pending = 1;
  access_ev(a, size, E_RMW, 1, pc);
  T[cur].cas_pending = 0;
}

#define RT_FETCH(N, TY, OP)                                                                       \
  RT_API RT_NOINLINE TY __tsan_atomic##N##_fetch_##OP(volatile TY *a, TY v, int mo) {             \
    access_ev((uintptr_t)a, N / 8, E_RMW, 1, PC());                                               \
    return __atomic_fetch_##OP(a, v, __ATOMIC_SEQ_CST);                                           \
  }
#define RT_ATOMICS(N, TY)                                                                         \
  RT_API RT_NOINLINE TY __tsan_atomic##N##_load(const volatile TY *a, int mo) {                   \
    access_ev((uintptr_t)a, N / 8, E_READ, 1, PC());                                              \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                  \
  }                                                                                               \
  RT_API RT_NOINLINE void __tsan_atomic##N##_store(volatile TY *a, TY v, int mo) {                \
    access_ev((uintptr_t)a, N / 8, E_WRITE, 1, PC());                                             \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                     \
  }                                                                                               \
  RT_API RT_NOINLINE TY __tsan_atomic##N##_exchange(volatile TY *a, TY v, int mo) {               \
    access_ev((uintptr_t)a, N / 8, E_RMW, 1, PC());                                               \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                           \
  }                                                                                               \
  RT_FETCH(N, TY, add)                                                                            \
  RT_FETCH(N, TY, sub)                                                                            \
  RT_FETCH(N, TY, and)                                                                            \
  RT_FETCH(N, TY, or)                                                                             \
  RT_FETCH(N, TY, xor)                                                                            \
  RT_FETCH(N, TY, nand)                                                                           \
  RT_API RT_NOINLINE int __tsan_atomic##N##_compare_exchange_strong(volatile TY *a, TY *c, TY v,  \
                                                                    int mo, int fmo) {            \
    cas_ev((uintptr_t)a, N / 8, *c, PC());                                                        \
    return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);           \
  }                                                                                               \
  RT_API RT_NOINLINE int __tsan_atomic##N##_compare_exchange_weak(volatile TY *a, TY *c, TY v,    \
                                                                  int mo, int fmo) {              \
    cas_ev((uintptr_t)a, N / 8, *c, PC());                                                        \
    return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);           \
  }                                                                                               \
  RT_API RT_NOINLINE TY __tsan_atomic##N##_compare_exchange_val(volatile TY *a, TY c, TY v,       \
                                                                int mo, int fmo) {                \
    cas_ev((uintptr_t)a, N / 8, c, PC());                                                         \
    __atomic_compare_exchange_n(a, &c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                 \
    return c;                                                                                     \
  }
RT_ATOMICS(8, uint8_t)
RT_ATOMICS(16, uint16_t)
RT_ATOMICS(32, uint32_t)
RT_ATOMICS(64, uint64_t)
RT_API void __tsan_atomic_thread_fence(int mo) { (void)mo; }
RT_API void __tsan_atomic_signal_fence(int mo) { (void)mo; }

/* ---- -finstrument-functions: __VERIFIER_atomic_* functions and reach_error ------------- */

static void error_reached(uintptr_t pc, const char *what) __attribute__((noreturn));
/* A failing assertion is a scheduling point of its own (as it is a step in siren's model):
 * the other threads may run first, e.g. to reach a race that a race replay looks for. */
static void violation(uintptr_t pc, const char *what) __attribute__((noreturn));
static void violation(uintptr_t pc, const char *what) {
  struct event e = {E_ERROR, 0, 0, 0, pc};
  sched(e);
  finish("violation", what, pc, cur, 0, -1);
}

static void error_reached(uintptr_t pc, const char *what) {
  if (!in_child) abort();
  violation(pc, what);
}

extern int main() __attribute__((weak));
RT_API void __cyg_profile_func_enter(void *fn, void *site) {
  if (!in_child) return;
  entry_cfa = (uintptr_t)__builtin_dwarf_cfa();
  /* The top of the thread's outermost frame of the program (its canonical frame address; the
   * program, compiled at -O0, keeps a frame pointer): the end of the stack dfs hashes. */
  if (!T[cur].stack_hi && (cur ? fn == (void *)T[cur].fn : fn == (void *)main))
    T[cur].stack_hi = *(uintptr_t *)__builtin_frame_address(0) + 16; /* the caller's saved frame pointer */
  for (int i = 0; i < cfg.n_error_fns; ++i)
    if ((uintptr_t)fn == cfg.error_fns[i]) error_reached((uintptr_t)site, "reach_error() called");
  for (int i = 0; i < cfg.n_atomic_fns; ++i)
    if ((uintptr_t)fn == cfg.atomic_fns[i]) {
      if (T[cur].atomic_depth == 0) {
        struct event e = {E_ATOMIC, 1, 0, 0, (uintptr_t)site};
        sched(e);
      }
      ++T[cur].atomic_depth;
      return;
    }
}
RT_API void __cyg_profile_func_exit(void *fn, void *site) {
  if (!in_child) return;
  (void)site;
  for (int i = 0; i < cfg.n_atomic_fns; ++i)
    if ((uintptr_t)fn == cfg.atomic_fns[i] && T[cur].atomic_depth > 0) {
      --T[cur].atomic_depth;
      return;
    }
}

/* ---- SV-COMP / CBMC environment --------------------------------------------------------- */

RT_API RT_WEAK void __VERIFIER_atomic_begin(void) {
  if (!in_child) return;
  if (T[cur].atomic_depth == 0) {
    struct event e = {E_ATOMIC, 1, 0, 0, PC()};
    sched(e);
  }
  ++T[cur].atomic_depth;
}
RT_API RT_WEAK void __VERIFIER_atomic_end(void) {
  if (in_child && T[cur].atomic_depth > 0) --T[cur].atomic_depth;
}
RT_API RT_WEAK void reach_error(void) { error_reached(PC(), "reach_error() called"); }
RT_API RT_WEAK void __VERIFIER_error(void) { error_reached(PC(), "__VERIFIER_error() called"); }
RT_API RT_WEAK void __assert_fail(const char *expr, const char *file, unsigned line,
                                  const char *fn) {
  char msg[512];
  snprintf(msg, sizeof msg, "%s:%u: assertion %s", file ? file : "?", line, expr ? expr : "?");
  if (!in_child) abort();
  violation(PC(), msg);
}
/* __VERIFIER_assume(0) and abort() stop the calling thread for good (as siren's Assume and
 * Abort do); the others go on. Inside an atomic section the section is left first. */
static void stuck(uintptr_t pc) __attribute__((noreturn));
static void stuck(uintptr_t pc) {
  T[cur].atomic_depth = 0;
  struct event e = {E_STUCK, 0, 0, 0, pc};
  sched(e); /* never chosen again: the run ends elsewhere */
  finish("pruned", "stopped thread resumed", pc, cur, 0, -1);
}
RT_API RT_WEAK void __VERIFIER_assume(int c) {
  if (!c) {
    if (!in_child) _exit(0);
    stuck(PC());
  }
}
/* malloc'd memory is zeroed: siren treats its first contents as nondet, natively they would
 * be whatever the allocator had (earlier frees, the runtime's own use), so a replay of a siren
 * trace or a run's seed would not repeat. Zero is one of the values siren considers. */
void *__real_malloc(size_t);
RT_API void *__wrap_malloc(size_t n) {
  seg.dirty = 1; /* the order of allocations decides the addresses */
  void *p = __real_malloc(n);
  if (p) memset(p, 0, n);
  return p;
}
/* free writes the object (C11 7.22.3p2: for data races, it accesses the object its argument
 * points to): a write event over the allocation's usable bytes, as siren's race model has it
 * (race::RaceAccess::object). */
void __real_free(void *);
RT_API void __wrap_free(void *p) {
  if (p) access_ev((uintptr_t)p, (unsigned)malloc_usable_size(p), E_WRITE, 0, PC());
  __real_free(p);
}
/* realloc of an object: a new object (zeroed, as malloc's) with the old one's bytes, and the
 * old one freed: a write event over its usable bytes, as siren's model has it (the copy reads
 * them first; the free's write covers those reads). Never in place, as siren's model; a size
 * of 0 frees and returns null, as glibc's. */
RT_API void *__wrap_realloc(void *p, size_t n) {
  if (!p) return __wrap_malloc(n);
  const size_t old = malloc_usable_size(p);
  access_ev((uintptr_t)p, (unsigned)old, E_WRITE, 0, PC());
  if (n == 0) { /* glibc's realloc(p, 0): frees p, returns null */
    __real_free(p);
    return NULL;
  }
  void *q = __wrap_malloc(n);
  if (!q) return NULL;
  memcpy(q, p, old < n ? old : n);
  __real_free(p);
  return q;
}
RT_API void __wrap_abort(void) {
  if (!in_child) abort();
  stuck(PC());
}

static long long nondet_draw(long long lo, long long hi);
static long long nondet_value(long long lo, long long hi) {
  seg.dirty = 1; /* the order of draws decides who gets which value */
  const int t = cur;
  if (cfg.strategy == S_REPLAY && rnondet_i[t] < rnondet_n[t]) return rnondet[t][rnondet_i[t]++];
  return nondet_draw(lo, hi);
}
/* The value the program got (after the conversion to the function's type). */
static void nondet_log(long long v, uintptr_t pc) {
  if (!in_child) return;
  struct event e = {E_NONDET, 0, 0, (uintptr_t)(unsigned long long)v, pc};
  log_event(cur, &e);
}
static long long nondet_draw(long long lo, long long hi) {
  unsigned long long r = rnd();
  switch (r % 8) {
    case 0: case 1: { /* 0 and 1: the values of flags and of `if (nondet())` */
      long long v = (long long)((r >> 8) & 1);
      return v < lo ? lo : v > hi ? hi : v;
    }
    case 2: case 3: { /* small values, where most branches of test programs are decided */
      long long v = (long long)((r >> 8) % 9) - 4;
      if (v < lo) v = lo + (v - lo < 0 ? (lo - v) % 5 : 0);
      if (v > hi) v = hi;
      return v;
    }
    case 4: case 5: return (long long)((r >> 8) % 256) - (lo < 0 ? 128 : 0);
    default: return (long long)rnd();
  }
}
#define RT_NONDET(NAME, TY, LO, HI)                                                 \
  RT_API RT_WEAK RT_NOINLINE TY __VERIFIER_nondet_##NAME(void) {                         \
    const TY v = (TY)nondet_value(LO, HI);                                                \
    nondet_log((long long)v, PC());                                                       \
    return v;                                                                             \
  }
RT_NONDET(int, int, -2147483647LL - 1, 2147483647LL)
RT_NONDET(uint, unsigned, 0, 4294967295LL)
RT_NONDET(long, long, -9223372036854775807LL - 1, 9223372036854775807LL)
RT_NONDET(ulong, unsigned long, 0, 9223372036854775807LL)
RT_NONDET(short, short, -32768, 32767)
RT_NONDET(ushort, unsigned short, 0, 65535)
RT_NONDET(char, char, -128, 127)
RT_NONDET(uchar, unsigned char, 0, 255)
RT_NONDET(unsigned, unsigned, 0, 4294967295LL)
RT_NONDET(u32, unsigned, 0, 4294967295LL)
RT_NONDET(size_t, unsigned long, 0, 9223372036854775807LL)
RT_API RT_WEAK RT_NOINLINE _Bool __VERIFIER_nondet_bool(void) {
  const _Bool v = (_Bool)(nondet_value(0, 1) & 1);
  nondet_log(v, PC());
  return v;
}
RT_API RT_WEAK void *__VERIFIER_nondet_pointer(void) { return 0; }
/* A function the program calls but does not define: native.cpp links a stub that returns this
 * (siren: an arbitrary value of its type), logged at the stub's call site. */
RT_API long long __siren_rt_undefined_nondet(uintptr_t call_pc) {
  const long long v = nondet_value(-9223372036854775807LL - 1, 9223372036854775807LL);
  nondet_log(v, call_pc);
  return v;
}

/* ---- pthreads (ld --wrap) --------------------------------------------------------------- */

int __real_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int __real_pthread_join(pthread_t, void **);
void __real_pthread_exit(void *) __attribute__((noreturn));

static int index_of(pthread_t h) {
  for (int t = 0; t < nthreads; ++t)
    if (T[t].live && pthread_equal(T[t].real, h)) return t;
  return -1;
}

static void run_key_destructors(int me) {
  for (int round = 0; uthreads && round < 4; ++round) /* PTHREAD_DESTRUCTOR_ITERATIONS */
    for (int k = 0; k < n_keys; ++k)
      if (key_values[me][k] && key_dtors[k]) {
        void *v = key_values[me][k];
        key_values[me][k] = 0;
        key_dtors[k](v);
      }
}

/* A created thread's life: its start routine, then its end. */
static void run_thread(int me) {
  T[me].retval = T[me].fn(T[me].arg);
  run_key_destructors(me);
  thread_ended(me);
}

static void uthread_entry(int me) {
  run_thread(me); /* thread_ended does not come back to a uthread */
  _exit(73);
}

static void *trampoline(void *p) {
  int me = (int)(intptr_t)p;
  while (sem_wait(&T[me].sem) != 0) {}
  run_thread(me);
  return 0;
}

RT_API int __wrap_pthread_create(pthread_t *h, const pthread_attr_t *attr, void *(*fn)(void *),
                                 void *arg) {
  if (!in_child) return __real_pthread_create(h, attr, fn, arg);
  struct event e = {E_CREATE, 0, 0, 0, PC()};
  sched(e);
  if (nthreads == MAX_THREADS) finish("limit", "too many threads", e.pc, cur, 0, -1);
  if (cfg.strategy == S_DFS && nthreads == 64) finish("limit", "dfs: more than 64 threads", e.pc, cur, 0, -1);
  int t = nthreads++;
  struct thr *th = &T[t];
  memset(th, 0, sizeof *th);
  sem_init(&th->sem, 0, 0);
  th->live = 1;
  th->fn = fn;
  th->arg = arg;
  th->pending.kind = E_START;
  th->pending.addr = (uintptr_t)fn; /* shown in traces as the thread's start routine */
  th->prio = cfg.pct_depth + (rnd() >> 4);
  memset(key_values[t], 0, sizeof key_values[t]);
  /* The guard page at the bottom of its stack slot, made in the run that creates the thread:
   * 256 of them made up front would be 512 mappings, which each fork copies (dfs snapshots). */
  mprotect(stacks + t * STACK_SIZE, 4096, PROT_NONE);
  if (uthreads) {
    getcontext(&uctx[t]);
    uctx[t].uc_stack.ss_sp = stacks + t * STACK_SIZE + 4096; /* above its guard page */
    uctx[t].uc_stack.ss_size = STACK_SIZE - 4096;
    uctx[t].uc_link = 0;
    makecontext(&uctx[t], (void (*)(void))uthread_entry, 1, t);
    th->real = (pthread_t)(uintptr_t)th; /* a handle of its own, for pthread_equal */
  } else {
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setstack(&a, stacks + t * STACK_SIZE + 4096, STACK_SIZE - 4096); /* above its guard page */
    if (__real_pthread_create(&th->real, &a, trampoline, (void *)(intptr_t)t) != 0)
      finish("limit", "the system refused a thread", e.pc, cur, 0, -1);
    pthread_attr_destroy(&a);
  }
  if (h) *h = th->real;
  return 0;
}

RT_API int __wrap_pthread_join(pthread_t h, void **ret) {
  if (!in_child) return __real_pthread_join(h, ret);
  int t = index_of(h);
  if (t < 0) return 3; /* ESRCH */
  struct event e = {E_JOIN, 0, 0, (uintptr_t)t, PC()};
  sched(e);
  if (ret) *ret = T[t].retval;
  return 0;
}

RT_API void __wrap_pthread_exit(void *r) {
  if (!in_child) __real_pthread_exit(r);
  int me = cur;
  struct event e = {E_EXIT, 0, 0, 0, PC()};
  sched(e);
  T[me].retval = r;
  run_key_destructors(me);
  thread_ended(me);
  __real_pthread_exit(0);
}

RT_API pthread_t __wrap_pthread_self(void) { return in_child && uthreads ? T[cur].real : __real_pthread_self(); }

/* pthread keys: the runtime's own with uthreads (the C library's are per kernel thread), the
 * C library's otherwise. Destructors run when a thread returns or calls pthread_exit. */
int __real_pthread_key_create(pthread_key_t *, void (*)(void *));
void *__real_pthread_getspecific(pthread_key_t);
int __real_pthread_setspecific(pthread_key_t, const void *);
RT_API int __wrap_pthread_key_create(pthread_key_t *k, void (*dtor)(void *)) {
  if (!in_child || !uthreads) return __real_pthread_key_create(k, dtor);
  if (n_keys == MAX_KEYS) return EAGAIN;
  key_dtors[n_keys] = dtor;
  *k = (pthread_key_t)n_keys++;
  return 0;
}
RT_API void *__wrap_pthread_getspecific(pthread_key_t k) {
  if (!in_child || !uthreads) return __real_pthread_getspecific(k);
  return k < (pthread_key_t)n_keys ? key_values[cur][k] : 0;
}
int __real_pthread_key_delete(pthread_key_t);
RT_API int __wrap_pthread_key_delete(pthread_key_t k) {
  if (!in_child || !uthreads) return __real_pthread_key_delete(k);
  return k < (pthread_key_t)n_keys ? 0 : EINVAL;
}
RT_API int __wrap_pthread_setspecific(pthread_key_t k, const void *v) {
  if (!in_child || !uthreads) return __real_pthread_setspecific(k, v);
  if (k >= (pthread_key_t)n_keys) return EINVAL;
  key_values[cur][k] = (void *)v;
  return 0;
}

/* Glibc's semantics of the mutex kinds: a recursive mutex counts its owner's holds, an
 * error-checking one returns EDEADLK on a relock; both return EPERM when a thread that does
 * not hold them unlocks them; a normal one waits for ever on a relock. */
static struct mtx *pthread_mutex_of(pthread_mutex_t *m) {
  struct mtx *x = mutex_of((uintptr_t)m);
  if (!x->seen) {
    x->seen = 1;
    x->kind = m->__data.__kind & 3;
    if (x->kind == 3) x->kind = 0; /* adaptive: normal */
  }
  return x;
}
static int lock_common(pthread_mutex_t *m, uintptr_t pc) {
  struct event e = {E_LOCK, 0, 0, (uintptr_t)m, pc};
  sched(e);
  struct mtx *x = mutex_of((uintptr_t)m);
  if (x->owner == cur) {
    if (x->kind == 2) return 35; /* EDEADLK */
    ++x->count;
    return 0;
  }
  x->owner = cur;
  x->count = 1;
  return 0;
}
static int unlock_common(pthread_mutex_t *m, uintptr_t pc) {
  struct event e = {E_UNLOCK, 0, 0, (uintptr_t)m, pc};
  sched(e);
  struct mtx *x = mutex_of((uintptr_t)m);
  if (x->kind != 0 && x->owner != cur) return 1; /* EPERM */
  if (--x->count > 0 && x->kind == 1) return 0;
  x->owner = -1;
  x->count = 0;
  return 0;
}
RT_API int __wrap_pthread_mutex_lock(pthread_mutex_t *m) {
  if (!in_child) return 0;
  pthread_mutex_of(m);
  return lock_common(m, PC());
}
RT_API int __wrap_pthread_mutex_unlock(pthread_mutex_t *m) {
  if (!in_child) return 0;
  pthread_mutex_of(m);
  return unlock_common(m, PC());
}
static int trylock_common(uintptr_t m, uintptr_t pc) {
  if (!in_child) return 0;
  struct event e = {E_YIELD, 0, 0, m, pc};
  sched(e);
  struct mtx *x = mutex_of(m);
  if (x->owner == cur && x->kind == 1) {
    ++x->count;
    return 0;
  }
  if (x->owner >= 0) return 16; /* EBUSY */
  x->owner = cur;
  x->count = 1;
  return 0;
}
static int init_common(uintptr_t m) {
  if (in_child) {
    mutex_of(m)->owner = -1;
    mutex_of(m)->count = 0;
  }
  return 0;
}
RT_API int __wrap_pthread_mutex_trylock(pthread_mutex_t *m) {
  if (in_child) pthread_mutex_of(m);
  return trylock_common((uintptr_t)m, PC());
}
RT_API int __wrap_pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) {
  if (!in_child) return 0;
  struct mtx *x = mutex_of((uintptr_t)m);
  int type = 0;
  x->seen = 1;
  x->kind = a && pthread_mutexattr_gettype(a, &type) == 0 && type != 3 ? type : 0;
  return init_common((uintptr_t)m);
}
RT_API int __wrap_pthread_mutex_destroy(pthread_mutex_t *m) { (void)m; return 0; }
/* A condition-variable wait may return spuriously (POSIX): unlock, let others run, relock. */
RT_API int __wrap_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
  (void)c;
  if (!in_child) return 0;
  uintptr_t pc = PC();
  unlock_common(m, pc);
  return lock_common(m, pc);
}
RT_API int __wrap_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                                         const struct timespec *ts) {
  (void)ts;
  return __wrap_pthread_cond_wait(c, m);
}
RT_API int __wrap_pthread_cond_signal(pthread_cond_t *c) { (void)c; return 0; }
RT_API int __wrap_pthread_cond_broadcast(pthread_cond_t *c) { (void)c; return 0; }
RT_API int __wrap_pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a) {
  (void)c; (void)a;
  return 0;
}
RT_API int __wrap_pthread_cond_destroy(pthread_cond_t *c) { (void)c; return 0; }
/* Spin locks are mutexes here (siren's model too): a thread spinning on a held lock would never
 * reach a scheduling point. */
RT_API int __wrap_pthread_spin_lock(pthread_spinlock_t *l) {
  return in_child ? lock_common((pthread_mutex_t *)(uintptr_t)l, PC()) : 0;
}
RT_API int __wrap_pthread_spin_unlock(pthread_spinlock_t *l) {
  return in_child ? unlock_common((pthread_mutex_t *)(uintptr_t)l, PC()) : 0;
}
RT_API int __wrap_pthread_spin_trylock(pthread_spinlock_t *l) { return trylock_common((uintptr_t)l, PC()); }
RT_API int __wrap_pthread_spin_init(pthread_spinlock_t *l, int pshared) {
  (void)pshared;
  return init_common((uintptr_t)l);
}
RT_API int __wrap_pthread_spin_destroy(pthread_spinlock_t *l) { (void)l; return 0; }
/* pthread_once with the control as 0 (new), 1 (running), 2 (done), as siren models it: the
 * first caller claims it at a scheduling point and runs the routine; the others yield until
 * it is done (glibc's own pthread_once would block in the kernel, out of the runtime's view). */
RT_API int __wrap_pthread_once(pthread_once_t *o, void (*f)(void)) {
  if (!in_child) return 0;
  volatile int *c = (volatile int *)o;
  if (cfg.strategy == S_DFS) note_location((uintptr_t)c, sizeof *c); /* state the runtime keeps there */
  struct event e = {E_YIELD, 0, 0, (uintptr_t)o, PC()};
  sched(e);
  if (*c == 0) {
    *c = 1;
    f();
    *c = 2;
    return 0;
  }
  while (*c != 2) {
    struct event w = {E_YIELD, 0, 0, (uintptr_t)o, PC()};
    sched(w);
    T[cur].run_len += 1000;
  }
  return 0;
}
/* Barriers with siren's encoding in the barrier's first int (count << 20 | generation << 16 |
 * arrived): a waiter arrives at a scheduling point; the last one flips the generation and
 * gets PTHREAD_BARRIER_SERIAL_THREAD, the others yield until the flip. */
RT_API int __wrap_pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *a, unsigned n) {
  (void)a;
  if (n == 0 || n >= 2048) return 22; /* EINVAL */
  if (in_child && cfg.strategy == S_DFS) note_location((uintptr_t)b, sizeof(int));
  *(volatile int *)b = (int)(n << 20);
  return 0;
}
RT_API int __wrap_pthread_barrier_destroy(pthread_barrier_t *b) { (void)b; return 0; }
RT_API int __wrap_pthread_barrier_wait(pthread_barrier_t *b) {
  if (!in_child) return 0;
  volatile int *c = (volatile int *)b;
  if (cfg.strategy == S_DFS) note_location((uintptr_t)c, sizeof *c); /* state the runtime keeps there */
  struct event e = {E_YIELD, 0, 0, (uintptr_t)b, PC()};
  sched(e);
  const int v = *c, gen = v & 0x10000;
  if ((v & 0xffff) + 1 == (v >> 20)) {
    *c = (v & ~0xffff) ^ 0x10000;
    return PTHREAD_BARRIER_SERIAL_THREAD;
  }
  *c = v + 1;
  while ((*c & 0x10000) == gen) {
    struct event w = {E_YIELD, 0, 0, (uintptr_t)b, PC()};
    sched(w);
    T[cur].run_len += 1000;
  }
  return 0;
}
static int yield_at(uintptr_t pc) {
  if (in_child) {
    struct event e = {E_YIELD, 0, 0, 0, pc};
    sched(e);
    T[cur].run_len += 1000;
  }
  return 0;
}
RT_API int __wrap_sched_yield(void) { return yield_at(PC()); }
RT_API int __wrap_usleep(unsigned us) { (void)us; return yield_at(PC()); }
RT_API unsigned __wrap_sleep(unsigned s) { (void)s; yield_at(PC()); return 0; }
RT_API int __wrap_nanosleep(const struct timespec *a, struct timespec *b) {
  (void)a; (void)b;
  return yield_at(PC());
}

/* ---- the fork server ------------------------------------------------------------------- */

/* exit() (main returning included) ends every thread: it is a scheduling point of its own,
 * so the other threads may still run before it. */
static void on_exit_ok(void) {
  if (!in_child || reported) return;
  struct event e = {E_EXIT, 0, 0, 0, 0};
  sched(e);
  finish("ok", "", 0, cur, 0, -1);
}

static void on_signal(int sig) {
  if (sig == SIGALRM) finish("timeout", "run time limit", 0, cur, 0, -1);
  char msg[64];
  snprintf(msg, sizeof msg, "signal %d (%s)", sig, strsignal(sig));
  uintptr_t pc = evlog_n ? evlog[evlog_n - 1].pc : 0;
  finish("crash", msg, pc, cur, 0, -1);
}

/* Everything a run does follows from its seed (cfg.seed + index) and PCT's k, which the
 * result line reports: SIREN_RT_SEED=seed SIREN_RT_PCT_K=k SIREN_RT_RUNS=1 repeats it. A dfs
 * run follows from its schedule, and the nondet values of cfg.seed: every run of the search
 * draws the same values, so that a prefix of choices repeats. */
static void start_child(int index) {
  in_child = 1;
  run_index = index;
  const unsigned long long seed = cfg.seed + (cfg.strategy == S_DFS ? 0 : (unsigned long long)index);
  run_seed = seed;
  rng_state = seed * 0x2545F4914F6CDD1DULL;
  (void)rnd();
  /* mixed: PCT (odd seeds), uniform random and round robin (even seeds, in turn) */
  /* mixed: PCT on odd seeds; on even ones demotion, uniform random and round robin in turn */
  if (cfg.strategy_mixed)
    cfg.strategy = seed % 2 == 1 ? S_PCT : seed % 6 == 0 ? S_RANDOM : seed % 6 == 2 ? S_QUANTUM : S_DEMOTE;
  if (cfg.strategy == S_QUANTUM) quantum = 1 + rnd() % 6;
  if (cfg.strategy == S_DEMOTE) {
    demote_rr = rnd() % 3 != 0;
    quantum = rnd() % 2 ? 1 : 1 + rnd() % 6;
    n_demote = 1 + (unsigned)(rnd() % 3);
    /* log-uniform over [1, k]: the early steps, where a creator is held back after its
     * creates, are as likely as a late one per order of magnitude */
    const unsigned bits = 64u - (unsigned)__builtin_clzl(pct_k); /* 2^(bits-1) <= k < 2^bits */
    for (unsigned i = 0; i < n_demote; ++i) {
      const unsigned b = (unsigned)(rnd() % bits);                    /* an order of magnitude */
      demote_at[i] = (1UL << b) + rnd() % (1UL << b);                 /* uniform inside it */
      if (demote_at[i] > pct_k) demote_at[i] = 1 + rnd() % pct_k;
    }
    demotions = 0;
    epoch_end = 4096 + pct_k;
  }
  if (cfg.strategy == S_PCT) {
    cfg.pct_depth = 1 + (unsigned long)(seed / 2) % 3; /* mixed: depth 1, 2, 3 in turn */
    /* --strategy pct: the given depth; depth 0: 1, 2, 3 in turn, as in mixed */
    if (!cfg.strategy_mixed && env_ul("SIREN_RT_PCT_DEPTH", 3) != 0) cfg.pct_depth = env_ul("SIREN_RT_PCT_DEPTH", 3);
    if (cfg.pct_depth < 1) cfg.pct_depth = 1;
    for (unsigned i = 0; i + 1 < cfg.pct_depth && i < 8; ++i) pct_change[i] = 1 + rnd() % pct_k;
  }
  run_strategy = cfg.strategy == S_PCT       ? "pct"
                 : cfg.strategy == S_REPLAY  ? "replay"
                 : cfg.strategy == S_QUANTUM ? "round-robin"
                 : cfg.strategy == S_DEMOTE  ? "demote"
                 : cfg.strategy == S_DFS     ? "dfs"
                                             : "random";
  memset(T, 0, sizeof T);
  nthreads = 1;
  cur = 0;
  T[0].live = 1;
  T[0].real = __real_pthread_self();
  memset(key_values[0], 0, sizeof key_values[0]);
  n_keys = 0;
  T[0].prio = cfg.pct_depth + (rnd() >> 4);
  sem_init(&T[0].sem, 0, 0);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGALRM, &sa, 0);
  sigaction(SIGSEGV, &sa, 0);
  sigaction(SIGBUS, &sa, 0);
  sigaction(SIGFPE, &sa, 0);
  sigaction(SIGILL, &sa, 0);
  atexit(on_exit_ok);
  if (!cfg.show_output) {
    int dn = open("/dev/null", O_WRONLY);
    if (dn >= 0) { dup2(dn, 1); close(dn); }
  }
  alarm((unsigned)((cfg.run_ms + 999) / 1000));
  /* One thread runs at a time: keeping all of them on one CPU makes each hand-over a plain
   * context switch instead of a cross-CPU wake-up (measured several times faster). */
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
  sched_setaffinity(0, sizeof one, &one);
}

static int tls_phdr(struct dl_phdr_info *info, size_t size, void *found) {
  (void)size;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_TLS && info->dlpi_phdr[i].p_memsz) *(int *)found = 1;
  return 1; /* the first object is the executable */
}

/* Does the executable (the program and this runtime) have thread-local variables? */
static int program_has_tls(void) {
  int found = 0;
  dl_iterate_phdr(tls_phdr, &found);
  return found;
}

/* Snapshots: a process of the search killed without a word (SIGKILL) counts as a crash. */
static void count_killed(void) {
  ++dfs->leaves;
  ++dfs->counts[5]; /* quiet_outcomes[5], "crash" */
}

/* Snapshots: reaps the processes of the search that ended (orphaned backups come to the fork
 * server, a subreaper); 1 if the root was among them (its status in *root_status). A process
 * killed without a word (SIGKILL) counts as a crash. */
static int reap_search(pid_t root, int *root_status) {
  int st, got_root = 0;
  pid_t w;
  while ((w = waitpid(-1, &st, WNOHANG)) > 0) {
    if (w == root) {
      *root_status = st;
      got_root = 1;
    } else if (WIFSIGNALED(st)) {
      count_killed();
    }
  }
  return got_root;
}

__attribute__((constructor(101))) static void siren_rt_init(void) {
  cfg.runs = env_ul("SIREN_RT_RUNS", 1);
  cfg.seed = env_ul("SIREN_RT_SEED", 1);
  cfg.max_steps = env_ul("SIREN_RT_MAX_STEPS", 100000);
  cfg.run_ms = env_ul("SIREN_RT_RUN_MS", 5000);
  cfg.pct_depth = env_ul("SIREN_RT_PCT_DEPTH", 3);
  cfg.races = (int)env_ul("SIREN_RT_RACES", 0);
  cfg.stop = (int)env_ul("SIREN_RT_STOP", 1);
  cfg.show_output = (int)env_ul("SIREN_RT_SHOW_OUTPUT", 0);
  cfg.test_broken = (int)env_ul("SIREN_RT_TEST_BROKEN", 0);
  pct_k = env_ul("SIREN_RT_PCT_K", 50);
  if (pct_k < 1) pct_k = 1;
  cfg.all_events = (int)env_ul("SIREN_RT_EVENTS", 0); /* debugging: events of every run */
  cfg.out = getenv("SIREN_RT_OUT");
  cfg.lines = getenv("SIREN_RT_LINES");
  cfg.replay = getenv("SIREN_RT_REPLAY");
  cfg.dfs_schedule = getenv("SIREN_RT_DFS_SCHEDULE");
  cfg.timeout_ms = env_ul("SIREN_RT_TIMEOUT_MS", 0);
  const char *s = getenv("SIREN_RT_STRATEGY");
  cfg.strategy = S_RANDOM;
  cfg.strategy_mixed = !s || !*s || !strcmp(s, "mixed");
  if (s && !strcmp(s, "pct")) cfg.strategy = S_PCT;
  if (s && !strcmp(s, "round-robin")) cfg.strategy = S_QUANTUM;
  if (s && !strcmp(s, "demote")) cfg.strategy = S_DEMOTE;
  if (s && !strcmp(s, "replay")) cfg.strategy = S_REPLAY;
  if (s && !strcmp(s, "dfs")) cfg.strategy = S_DFS;
  cfg.n_atomic_fns = parse_addrs("SIREN_RT_ATOMIC_FNS", cfg.atomic_fns, 64);
  cfg.n_error_fns = parse_addrs("SIREN_RT_ERROR_FNS", cfg.error_fns, 16);
  if (cfg.strategy == S_REPLAY) {
    cfg.strategy_mixed = 0;
    cfg.runs = 1;
    load_lines(cfg.lines);
    load_replay(cfg.replay);
  }
  /* The created threads' stack slots (each gets a guard page at its bottom when created). */
  stacks = mmap(0, MAX_THREADS * STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                -1, 0);
  if (stacks == MAP_FAILED) _exit(72);
  if (cfg.strategy == S_DFS) dfs_init();
  uthreads = cfg.strategy == S_DFS && env_ul("SIREN_RT_UTHREADS", 1) && !program_has_tls();
  snapshots = uthreads && !dfs_follow;
  if (snapshots) {
    clock_gettime(CLOCK_MONOTONIC, &dfs->t0);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
  }
  if (dfs_follow) cfg.runs = 1;
  int fd = 2;
  if (cfg.out) {
    fd = open(cfg.out, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0) fd = 2;
  }
  unsigned long quiet_counts[N_QUIET] = {0}, done = 0;
  int exhausted = 0;
  struct timespec t0, now;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (unsigned long i = 0; i < cfg.runs; ++i) {
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (cfg.timeout_ms &&
        (unsigned long)((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000) >= cfg.timeout_ms)
      break;
    int p[2];
    if (pipe(p) != 0) _exit(70);
    pid_t pid = fork();
    if (pid < 0) _exit(71);
    if (pid == 0) {
      close(p[0]);
      out_fd = p[1];
      start_child((int)i);
      return; /* on to main */
    }
    close(p[1]);
    char buf[65536];
    int failure = 0, quiet = 0;
    size_t got = 0;
    unsigned long long steps_seen = 0;
    int status = 0, root_reaped = 0;
    for (;;) {
      if (snapshots) { /* the search's orphans are ours to reap (a subreaper), while we wait */
        struct pollfd pf = {p[0], POLLIN, 0};
        poll(&pf, 1, 100);
        root_reaped |= reap_search(pid, &status);
        if (!(pf.revents & (POLLIN | POLLHUP))) continue;
      }
      ssize_t n = read(p[0], buf, sizeof buf - 1);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      buf[n] = 0;
      if (got == 0 && (strstr(buf, "\"outcome\":\"violation\"") || strstr(buf, "\"outcome\":\"race\"")))
        failure = 1;
      if (got == 0) {
        const char *st = strstr(buf, "\"steps\":");
        if (st) steps_seen = strtoull(st + 8, 0, 10);
        const char *oc = strstr(buf, "\"outcome\":\"");
        for (int k = 0; cfg.strategy == S_DFS && !failure && oc && k < N_QUIET; ++k)
          if (!strncmp(oc + 11, quiet_outcomes[k], strlen(quiet_outcomes[k])) && oc[11 + strlen(quiet_outcomes[k])] == '"') {
            ++quiet_counts[k];
            quiet = 1;
          }
      }
      got += (size_t)n;
      if (quiet) continue;
      ssize_t off = 0;
      while (off < n) {
        ssize_t w = write(fd, buf + off, (size_t)(n - off));
        if (w <= 0) break;
        off += w;
      }
    }
    close(p[0]);
    if (!root_reaped)
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (snapshots) reap_search(pid, &status);
    ++done;
    if (got == 0 && snapshots) {
      if (WIFSIGNALED(status)) count_killed(); /* the root of the search */
    } else if (got == 0 && cfg.strategy == S_DFS) {
      ++quiet_counts[WIFSIGNALED(status) ? 5 : 0];
    } else if (got == 0) { /* the child died without a word (e.g. SIGKILL, or _exit in the program) */
      char line[256];
      if (WIFSIGNALED(status))
        snprintf(line, sizeof line,
                 "{\"run\":%lu,\"seed\":%llu,\"outcome\":\"crash\",\"message\":\"signal %d\"}\n",
                 i, cfg.seed + i, WTERMSIG(status));
      else
        snprintf(line, sizeof line,
                 "{\"run\":%lu,\"seed\":%llu,\"outcome\":\"ok\",\"message\":\"exit %d\"}\n", i,
                 cfg.seed + i, WEXITSTATUS(status));
      if (write(fd, line, strlen(line)) < 0) {}
    }
    if (steps_seen > pct_k) pct_k = (unsigned long)steps_seen; /* PCT's k: the longest run seen */
    if (failure) {
      want_events = 0; /* the first failing run carries its events; later ones only counts */
      if (cfg.stop) break;
    }
    if (cfg.strategy == S_DFS && dfs->restart && !dfs_follow) {
      memset(dfs_table, 0, dfs->cap * sizeof *dfs_table);
      dfs->states = dfs->prefix = dfs->depth = 0;
      dfs->restart = 0;
      ++dfs->restarts;
      continue;
    }
    if (snapshots) { /* the one run was the whole search, a tree of processes */
      exhausted = !dfs->stop && !dfs->full && !failure;
      break;
    }
    if (cfg.strategy == S_DFS && !dfs_backtrack()) {
      exhausted = !dfs_follow && !dfs->full;
      break;
    }
  }
  if (snapshots) {
    done = dfs->leaves;
    for (int k = 0; k < N_QUIET; ++k) quiet_counts[k] += dfs->counts[k];
  }
  if (cfg.strategy == S_DFS) {
    char line[512];
    int o = snprintf(line, sizeof line,
                     "{\"dfs\":{\"runs\":%lu,\"states\":%lu,\"exhausted\":%d,\"table_full\":%d,\"restarts\":%lu,"
                     "\"snapshots\":%d},\"counts\":{",
                     done, dfs->states, exhausted, dfs->full, dfs->restarts, snapshots);
    for (int k = 0; k < N_QUIET; ++k)
      o += snprintf(line + o, sizeof line - (size_t)o, "%s\"%s\":%lu", k ? "," : "", quiet_outcomes[k], quiet_counts[k]);
    snprintf(line + o, sizeof line - (size_t)o, "}}\n");
    if (write(fd, line, strlen(line)) < 0) {}
  }
  _exit(0);
}
