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
                  "*shown*: after `check::shorten_counterexample` (a breadth-first search for a violation in fewer "
                  "steps, up to 3 s; `--no-shorten` turns it off). Steps are the thread model's instructions; "
                  "statements are the rows `siren check` prints (`ir::statement_rows`).\n\n")
        if med:
            out.write(f"**Median over the {len(found['steps'])} UNSAFE answers** (found → shown): "
                      f"statements {med['statements'][0]:g} → {med['statements'][1]:g}, "
                      f"steps {med['steps'][0]:g} → {med['steps'][1]:g}, "
                      f"context switches {med['switches'][0]:g} → {med['switches'][1]:g}.\n\n")
        out.write("| task | answer | steps | statements | context switches | seconds |\n|---|---|---:|---:|---:|---:|\n")
        out.write("\n".join(rows) + "\n")
    print(open(a.out).read())


if __name__ == "__main__":
    main()
