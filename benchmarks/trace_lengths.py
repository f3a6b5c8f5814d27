#!/usr/bin/python3
"""Counterexample lengths before and after shortening, on the shared SV-COMP tasks.

Runs `siren check --json` (and `siren race --json` for the no-data-race tasks whose verdict is
false) on every task of ../shared/benchmarks/svcomp/INDEX.tsv that is expected to fail, and
tabulates, for each UNSAFE answer, the trace as the engine found it (stats.found_*) and as
printed after shortening (check::shorten_counterexample): steps of the thread model,
statements (the rows `siren check` prints, ir::statement_rows) and context switches. Writes
benchmarks/TRACES.md with the medians.

Usage: benchmarks/trace_lengths.py [--siren build/siren] [--timeout 60] [--jobs 2] [--out benchmarks/TRACES.md]
"""
import argparse
import concurrent.futures
import csv
import json
import os
import statistics
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(ROOT, "..", "shared", "benchmarks", "svcomp")


# Why the median cannot halve (76 -> 38): the least number of statements any counterexample of
# these tasks can show, derived by hand from the programs (every violating execution runs
# these statements; only rows of one statement split by a context switch can go).
LEAST_NOTE = """
## How short can these counterexamples be?

The median cannot reach half of the found median (38 statements): ten of the 18 answers need
more than 38 statements in *every* violating execution, so the 9th and 10th smallest values (the
median) are at least those of the two shortest of them, queue (53) and triangular-2 (60), i.e.
56.5 — which is what is shown. Least statements of the tasks above 38, by hand from the programs:

| task | least | why |
|---|---:|---|
| pthread/queue.c | 53 | t1 must enqueue twice (dequeue_flag is set only in its second round), t2 must first pass one round idle (the check fails only at i = 1), main's init and creates: 11 + 26 + 6 + 10 |
| pthread/triangular-2.c | 60 | j reaches LIMIT = 16 only if all 5 + 5 iterations strictly alternate; every statement of both loops runs |
| pthread/fib_bench_longer-2.c, fib_bench_longest-2.c | 72, 122 | as triangular: 377 (6765) is reached only by the full alternation of all iterations |
| pthread-wmm/mix000_tso.oepc.c, podwr000_tso.oepc.c | 92, 74 | straight-line threads; main's assertion needs both to have run to their end (`__unbuffered_cnt == 2`) |
| pthread-C-DAC/pthread-demo-datarace-2.c | 170 | the violation is `myglobal == 40`: both 20-iteration loops run completely, without a lost update |
| pthread/sigma.c | > 200 | 16 threads created, run (2 rows each) and joined, 16 summands added, each loop round with its test and increment |
| pthread-divine/one_time_barrier_2t.c | 82 | b2 is b1: the failing thread passes the barrier and fails entering it again (38 rows), after main's setup and creates (24) and main's own worker_fn up to its `++b->seen` and the `pthread_cond_wait` that releases the lock (20) |
| pthread-complex/bounded_buffer.c | > 47 | two consumers are needed, so main's `bounded_buf_init` and all four creates (47 rows up to the last), then a put and two gets |

Shortening reaches these minima where they are exact (queue, triangular, fib, wmm, datarace,
one_time_barrier; also singleton's 34 and the spinner of `tests/unit/check/shorten_test.cpp`,
both pinned by unit tests); sigma (236) and bounded_buffer (99) stay above their lower bounds,
whose exact minima are not known.

Against the shortener before (commit 0c34bf6: a breadth-first search first, then ddmin over
consecutive steps and swaps of neighbouring runs), on the same tasks: bounded_buffer 429 → 99
statements (43 → 4 context switches), sigma 285 → 236 (96 → 17; found after 44 s, it had almost
no budget then, 2.8 s now), singleton 38 → 34 (its least), one statement fewer on datarace-2,
qw2004-2 and stateful01-1, 3 switches fewer on each fib task; median context switches 4 → 3.5,
median statements 56.5 both times (the bound above).
"""


def tasks():
    with open(os.path.join(SHARED, "INDEX.tsv")) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["property"] == "unreach-call" and row["expected_verdict"] == "false":
                yield row["category"] + "/" + row["input_file"]


def run(siren, task, timeout):
    cmd = [siren, "check", os.path.join(SHARED, task), "--json", "--timeout", str(timeout)]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 20)
        doc = json.loads(p.stdout)
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        return task, None, time.monotonic() - t0
    return task, doc, time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--siren", default=os.path.join(ROOT, "build", "siren"))
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(HERE, "TRACES.md"))
    a = ap.parse_args()
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = sorted(pool.map(lambda t: run(a.siren, t, a.timeout), list(tasks())))
    rows, found, shown = [], {"steps": [], "statements": [], "switches": []}, {"steps": [], "statements": [], "switches": []}
    for task, doc, sec in results:
        if not doc or doc.get("verdict") != "UNSAFE":
            rows.append(f"| {task} | {doc.get('verdict') if doc else 'no answer'} | | | | {sec:.1f} |")
            continue
        s = doc["stats"]
        f = (s["found_steps"] or s["instructions"], s["found_statements"] or s["statements"],
             s["found_context_switches"] if s["found_steps"] else s["context_switches"])
        n = (s["instructions"], s["statements"], s["context_switches"])
        for key, i in (("steps", 0), ("statements", 1), ("switches", 2)):
            found[key].append(f[i])
            shown[key].append(n[i])
        rows.append(f"| {task} | UNSAFE ({doc['engine']}) | {f[0]} → {n[0]} | {f[1]} → {n[1]} | {f[2]} → {n[2]} | {sec:.1f} |")
    med = {k: (statistics.median(found[k]), statistics.median(shown[k])) for k in found if found[k]}
    with open(a.out, "w") as out:
        out.write("# Counterexample lengths: as found, and after shortening\n\n")
        out.write("Regenerate with (from the repository root):\n\n```\n"
                  f"benchmarks/trace_lengths.py --timeout {a.timeout} --jobs {a.jobs}\n```\n\n")
        out.write(f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; siren: "
                  f"`{subprocess.run(['git', '-C', ROOT, 'describe', '--always', '--dirty'], capture_output=True, text=True).stdout.strip()}`\n")
        out.write("- tasks: every shared `unreach-call` task expected to fail; `siren check --json --timeout "
                  f"{a.timeout}`, {a.jobs} at a time\n")
        out.write("- *found*: the trace the engine found (the explicit search's depth-first path, or the BMC's); "
                  "*shown*: after `check::shorten_counterexample` (up to 3 s, `--no-shorten` turns it off: the trace "
                  "minimized by replay — per thread its removable suffix and loop iterations, ddmin, runs moved to "
                  "merge with their thread's next run — then a breadth-first search for a violation in fewer steps, "
                  "minimized in turn; the candidate with the fewest statements wins). Steps are the thread model's "
                  "instructions; statements are the rows `siren check` prints (`ir::statement_rows`).\n\n")
        if med:
            out.write(f"**Median over the {len(found['steps'])} UNSAFE answers** (found → shown): "
                      f"statements {med['statements'][0]:g} → {med['statements'][1]:g}, "
                      f"steps {med['steps'][0]:g} → {med['steps'][1]:g}, "
                      f"context switches {med['switches'][0]:g} → {med['switches'][1]:g}.\n\n")
        out.write("| task | answer | steps | statements | context switches | seconds |\n|---|---|---:|---:|---:|---:|\n")
        out.write("\n".join(rows) + "\n")
        out.write(LEAST_NOTE)
    print(open(a.out).read())


if __name__ == "__main__":
    main()
