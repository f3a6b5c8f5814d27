#!/usr/bin/python3
"""`siren test --strategy dfs` (the native systematic search) on the shared SV-COMP tasks whose
bug needs many context switches: does it find the bug, after how many states and seconds, with
snapshots (the default: a fork per choice point, sleep sets) and without (--no-snapshots: every
run re-executed from the start, no sleep sets). Both configurations in one invocation, on the
same machine; issue 17 ("siren test finds the bug in each expected-false task").

For each task and configuration:
  siren test FILE --strategy dfs --timeout T --json [--no-snapshots]
in the task's folder. Rows go to benchmarks/native/dfs.csv as they finish (rows of tasks not run
this time are kept), the table to stdout (pasted into benchmarks/NATIVE.md by hand, with the
command); --table renders the table of dfs.csv without running anything.

Usage (from the repository root):
  benchmarks/native_dfs.py [--siren build/siren] [--timeout 1800] [--filter REGEX] [--jobs 1]
  benchmarks/native_dfs.py --table
"""
import argparse
import concurrent.futures
import csv
import json
import os
import re
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "benchmarks", "svcomp")

# The expected-false unreach-call tasks that compile natively (benchmarks/NATIVE.md): the ones
# random and PCT schedules find in a few runs are left out; these need many preemptions.
TASKS = [
    "pthread-complex/safestack_relacy.c",
    "pthread/triangular-2.c",
    "pthread/fib_bench_longer-2.c",
    "pthread/fib_bench_longest-2.c",
    "pthread-atomic/qrcu-2.c",
    "pthread-atomic/read_write_lock-2.c",
    "pthread-complex/bounded_buffer.c",
    "pthread-wmm/mix000_tso.oepc.c",
    "pthread/reorder_2.c",
    "pthread-lit/qw2004-2.c",
]
CONFIGS = [("snapshots", []), ("re-execution", ["--no-snapshots"])]


def run(siren, task, name, extra, timeout):
    path = os.path.join(SHARED, task)
    cmd = [siren, "test", os.path.basename(path), "--strategy", "dfs", "--timeout", str(timeout), "--json"] + extra
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=os.path.dirname(path), capture_output=True, text=True, timeout=timeout + 120)
    wall = time.monotonic() - start
    row = {"task": task, "config": name, "exit": p.returncode, "wall_s": round(wall, 1)}
    try:
        j = json.loads(p.stdout)
    except json.JSONDecodeError:
        row.update(result="ERROR", message=(p.stderr.strip().splitlines() or [""])[0])
        return row
    row.update(result=j.get("result", ""), runs=j.get("runs", 0), states=j.get("states", 0),
               seconds=round(j.get("seconds", 0.0), 1), exhausted=j.get("exhausted", False),
               confirmed=(j.get("interpreter") or {}).get("result", "") if isinstance(j.get("interpreter"), dict) else "")
    return row


KEYS = ["task", "config", "result", "runs", "states", "seconds", "wall_s", "exhausted", "confirmed", "exit"]
OUT = os.path.join(ROOT, "benchmarks", "native", "dfs.csv")


def write_csv(rows):
    with open(OUT, "w", newline="") as f:
        w = csv.DictWriter(f, KEYS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def table(rows):
    print("| task | " + " | ".join(n for n, _ in CONFIGS) + " |")
    print("|---|" + "---|" * len(CONFIGS))
    for t in TASKS:
        cells = []
        for n, _ in CONFIGS:
            r = next((r for r in rows if r["task"] == t and r["config"] == n), None)
            if r is None:
                cells.append("not run")
            elif r["result"] == "VIOLATION":
                cells.append("found: %s states, %s runs, %s s" % (f"{int(r['states']):,}", f"{int(r['runs']):,}", r["seconds"]))
            else:
                cells.append("%s: %s states in %s s" % (r["result"].lower(), f"{int(r.get('states') or 0):,}", r.get("seconds", 0)))
        print(f"| {t} | " + " | ".join(cells) + " |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--siren", default=os.path.join(ROOT, "build", "siren"))
    ap.add_argument("--timeout", type=int, default=1800)
    ap.add_argument("--filter", default="")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--table", action="store_true", help="render the table of dfs.csv, run nothing")
    a = ap.parse_args()
    old = list(csv.DictReader(open(OUT))) if os.path.exists(OUT) else []
    if a.table:
        table(old)
        return
    siren = os.path.abspath(a.siren)
    jobs = [(t, n, e) for t in TASKS if re.search(a.filter, t) for n, e in CONFIGS]
    ran = {j[0] for j in jobs}
    rows = [r for r in old if r["task"] not in ran]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for row in ex.map(lambda j: run(siren, j[0], j[1], j[2], a.timeout), jobs):
            rows.append(row)
            write_csv(rows)
            print(json.dumps(row), flush=True)
    print()
    table(rows)


if __name__ == "__main__":
    main()
