#!/usr/bin/python3
"""End-to-end: `siren check` on the shared SV-COMP unreach-call tasks.

Asserts (1) zero wrong verdicts: a `true` task is never UNSAFE, a `false` task is never SAFE
or SAFE_UP_TO_BOUND; (2) the number of correct verdicts per category is at least the committed
count in svcomp_check_expected.json, so it can never silently drop. Every task runs under a
time limit. Correct means UNSAFE for `false`, SAFE or SAFE_UP_TO_BOUND for `true`. (3) With
`--witnesses DIR`: every UNSAFE answer writes a GraphML and a YAML witness, and
`siren validate` confirms both (witness_check.py).
`--update` records only the tasks answered correctly within half the time limit, so that a
slower machine (CI runs the build and other tests beside it) does not make the floor flaky.

Usage: svcomp_check.py SIREN SHARED_DIR [--timeout SEC] [--jobs N] [--update]
  --update  rewrite svcomp_check_expected.json with the counts of this run (only upwards
            unless --allow-drop).
"""
import argparse
import concurrent.futures
import csv
import shlex
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from witness_check import unconfirmed, witness_args

CATEGORIES = ["pthread", "pthread-atomic", "pthread-ext", "pthread-lit", "pthread-C-DAC",
              "pthread-complex", "pthread-divine", "pthread-wmm", "pthread-driver-races"]
HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "svcomp_check_expected.json"


def tasks(shared):
    index = Path(shared) / "benchmarks" / "svcomp" / "INDEX.tsv"
    with open(index) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["property"] == "unreach-call" and row["category"] in CATEGORIES:
                path = index.parent / row["category"] / row["input_file"]
                yield row["category"], row["yml_file"], path, row["expected_verdict"] == "true"


def run(siren, path, timeout, extra=(), witnesses=None, key=""):
    """(verdict, seconds, reason, witness failures)."""
    start = time.monotonic()
    more = witness_args(witnesses, key) if witnesses else []
    try:
        p = subprocess.run([siren, "check", str(path), "--json", "--timeout", str(timeout), *extra, *more],
                           capture_output=True, text=True, timeout=timeout + 15)
    except subprocess.TimeoutExpired:
        return "HUNG", time.monotonic() - start, "killed after the time limit", []
    elapsed = time.monotonic() - start
    try:
        out = json.loads(p.stdout)
    except json.JSONDecodeError:
        line = (p.stderr.strip().splitlines() or ["no output"])[0]
        return f"EXIT{p.returncode}", elapsed, line[:200], []
    verdict = out.get("verdict", "?")
    failures = unconfirmed(siren, path, witnesses, key, timeout) if witnesses and verdict == "UNSAFE" else []
    return verdict, elapsed, out.get("reason", ""), failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("siren")
    ap.add_argument("shared")
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--allow-drop", action="store_true")
    ap.add_argument("--extra-args", default="",
                    help="extra arguments for every siren check run, e.g. '--reduction sir'")
    ap.add_argument("--results", help="write {task: verdict} as JSON to this file")
    ap.add_argument("--witnesses", action="store_true",
                    help="write both witnesses of every UNSAFE answer and check that siren validate confirms them")
    args = ap.parse_args()
    wdir = tempfile.mkdtemp(prefix="siren-witnesses-") if args.witnesses else None
    extra = shlex.split(args.extra_args)

    todo = list(tasks(args.shared))
    results = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = {pool.submit(run, args.siren, t[2], args.timeout, extra, wdir, f"{t[0]}/{t[1]}"): t for t in todo}
        for fut in concurrent.futures.as_completed(futs):
            results[futs[fut]] = fut.result()

    correct, fast, wrong, hung, unvalidated = {}, {}, [], [], []
    print(f"{'task':58} {'expected':8} {'verdict':17} {'sec':>6}  reason")
    for t in sorted(results, key=lambda t: (t[0], t[1])):
        cat, yml, path, expected_true = t
        verdict, sec, reason, witness_failures = results[t]
        unvalidated += witness_failures
        ok = (verdict == "UNSAFE") if not expected_true else verdict in ("SAFE", "SAFE_UP_TO_BOUND")
        bad = (verdict == "UNSAFE") if expected_true else verdict in ("SAFE", "SAFE_UP_TO_BOUND")
        mark = "ok" if ok else ("WRONG" if bad else "-")
        correct.setdefault(cat, 0)
        fast.setdefault(cat, 0)
        if ok:
            correct[cat] += 1
            if sec <= args.timeout / 2:
                fast[cat] += 1
        if bad:
            wrong.append(f"{cat}/{yml}")
        if verdict == "HUNG":
            hung.append(f"{cat}/{yml}")
        print(f"{cat + '/' + yml:58} {str(expected_true).lower():8} {verdict:17} {sec:6.1f}  "
              f"{mark:5} {reason[:70]}")

    if args.results:
        Path(args.results).write_text(json.dumps(
            {f"{t[0]}/{t[1]}": results[t][0] for t in sorted(results, key=lambda t: (t[0], t[1]))},
            indent=1) + "\n")
    expected = json.loads(EXPECTED.read_text()) if EXPECTED.exists() else {}
    drops = [f"{c}: {correct.get(c, 0)} < {n}" for c, n in expected.items() if correct.get(c, 0) < n]
    total = sum(correct.values())
    print(f"\ncorrect {total} of {len(todo)}; wrong {len(wrong)}; hung {len(hung)}")
    print("per category:", json.dumps(correct, sort_keys=True))
    if args.update:
        new = dict(fast) if args.allow_drop else {c: max(fast.get(c, 0), expected.get(c, 0))
                                                  for c in set(fast) | set(expected)}
        EXPECTED.write_text(json.dumps(new, indent=2, sort_keys=True) + "\n")
        print(f"updated {EXPECTED}")
    failed = 0
    for w in wrong:
        print(f"FAIL wrong verdict: {w}")
        failed += 1
    for h in hung:
        print(f"FAIL did not stop within its time limit: {h}")
        failed += 1
    for d in drops:
        print(f"FAIL fewer correct verdicts than committed: {d}")
        failed += 1
    for u in unvalidated:
        print(f"FAIL {u}")
        failed += 1
    if args.witnesses:
        unsafe = sum(1 for r in results.values() if r[0] == "UNSAFE")
        print(f"witnesses: {2 * unsafe - len(unvalidated)} of {2 * unsafe} confirmed by siren validate")
    print(f"{0 if failed else 1} passed, {1 if failed else 0} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
