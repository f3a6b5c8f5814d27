#!/usr/bin/python3
"""siren race on Goblint's 327 race regression tests (issue 43; ../shared/benchmarks/goblint-races).

A test is racy exactly when one of its lines says `RACE!` (the README there: `RACE` without `!`
is a race Goblint reports that may be spurious, and SV-COMP's export counts it race-free).
Per test: `siren race TEST -I goblint-races --timeout T --json`; right is UNSAFE on a racy test
and SAFE or SAFE_UP_TO_BOUND on a race-free one, wrong UNSAFE on a race-free one and SAFE on a
racy one; SAFE_UP_TO_BOUND on a racy one is counted apart (true within the bounds it states,
so not wrong by siren's rule, but not right); anything else unknown (its reason kept). A race-free answer that is SAFE (not up to a bound) is a proof.

Writes benchmarks/RACES.md between the markers (the rest of the file is kept).

Usage: benchmarks/races.py [--siren build/siren] [--shared ../shared] [--timeout 60] [--jobs 2]
                           [--only SUBSTRING] [--out results.jsonl] [--check MIN_RIGHT]
  --check: the ctest "goblint: race answers and their accesses agree with the annotations" (no
  RACES.md written; exit 1 on a wrong answer, a race at a NORACE access or too few right).
"""
import argparse
import collections
import json
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
import driver_suite  # noqa: E402  (write_between)

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- races.py: begin -->", "<!-- races.py: end -->"


# Tests whose annotation, read by the rule above, disagrees with the program's meaning,
# each read by hand (session 28): siren's answer is the program's. They are counted apart.
ANNOTATION_DISAGREES = {
    "tests/00-sanity/11-loop_race.c": "RACE! under Goblint's `allfuns` (every function an entry point); main creates no thread",
    "tests/04-mutex/13-failed_locking.c": "RACE! under `sem.lock.fail` (a lock may fail); glibc's lock of a default mutex does not, so both accesses hold mutex1",
    "tests/04-mutex/83-thread-local-storage-escape.c": "`RACE` without `!` on a real race: main passes its own __thread copy's address to the thread, and they hold different locks",
    "tests/04-mutex/94-thread-unsafe_fun_rc.c": "RACE! on two rand() calls: POSIX does not require rand to be thread-safe, but glibc's takes a lock, so the calls do not race under glibc, whose semantics siren models (a modelling choice: not hand-proved right)",
    "tests/04-mutex/66-free_direct_nc.c": "NORACE under `--disable ana.race.free` (free not counted as an access); in C11 free accesses the object (7.22.3p2), and main frees it while the thread may still increment it",
    "tests/04-mutex/67-free_indirect_nr.c": "NORACE under `--disable ana.race.free` (free not counted as an access); in C11 free accesses the object (7.22.3p2), and main frees the struct while the thread may still increment its field",
    "tests/02-base/78-realloc-free.c": "NORACE on test3's realloc and the thread's read under `--disable ana.race.free` (free not counted as an access); realloc frees the object the thread may still read (C11 7.22.3.5, 7.22.3p2)",
    "tests/04-mutex/99-volatile.c": "NORACE under `--disable ana.race.volatile` (races on volatile variables not reported); they are data races in C11",
    "tests/06-symbeq/43-type_nr_disjoint_types.c": "NORACE under `--disable ana.race.direct-arithmetic` (an access through `*d` not counted); both get_s() calls may return the same struct s, and `*d = 8` in main and `s->datum = 5` in the thread then write one unlocked cell",
    "tests/10-synch/30-no-crash.c": "`RACE` without `!` on a race that happens when unknown() calls its function-pointer argument, which siren lets a function without a body do (as Goblint does in 04-mutex/26 and 56, `RACE!` there): both t_fun threads' unknown(t_flurb) write myglobal",
    "tests/11-heap/01-nestedlist_nr.c": "`NORACE!` on a real race (a test Goblint skips, `SKIP!` in its first line): counter reads h->first (line 70) holding list_lock only, while t_fun writes it (line 50) holding h->lock only",
    "tests/05-lval_ls/18-website.c": "`RACE` without `!` on a real race: data[3] under mutexes[4] in main, under mutexes[3] in the thread",
    "tests/06-symbeq/28-symb_lockset_unsound.c": "`RACE` without `!` on a real race: each thread unlocks before its increment",
    "tests/06-symbeq/29-symb_lockfun_unsound.c": "`RACE` without `!` on a real race: each thread unlocks (in unlock()) before its write",
    "tests/40-threadid/04-recover.c": "`RACE` without `!` on a real race: main joined only the first of the two threads that write g",
    "tests/45-escape/51-fresh-global.c": "RACE! with Goblint's may-happen-in-parallel analysis switched off (PARAM); main writes *i before it creates the thread that writes it",
    "tests/86-barrier/09-race.c": "`RACE` without `!` on a real race: h is written by both threads before the barrier",
    "tests/87-once/09-pointers2.c": "no line says RACE!, but main writes initp (line 33, when `top` is non-zero) after creating the thread that reads it for its pthread_once (line 24): a race on the routine pointer the annotations (on g only) do not mention",
    "tests/87-once/03-unknown.c": "`RACE` without `!` on a real race: the thread's pthread_once may run on another once object than main's, and fun writes g unlocked",
}


def racy(path):
    """Some line says RACE! (a line saying NORACE! does not: it says the access is race-free)."""
    return any("RACE!" in l.replace("NORACE!", "") for l in path.read_text(errors="replace").splitlines())


def run(siren, root, test, timeout, extra=()):
    t0 = time.monotonic()
    try:
        p = subprocess.run([siren, "race", str(test), "-I", str(root), "--timeout", str(timeout), "--json", *extra],
                           capture_output=True, text=True, timeout=timeout + 60)
        out, err = p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        out, err = "", "killed: no answer within the time limit and a minute"
    seconds = time.monotonic() - t0
    try:
        j = json.loads(out)
    except json.JSONDecodeError:
        j = {}
    verdict = j.get("verdict", "ERROR")
    reason = j.get("reason") or j.get("unknown_reason") or ""
    if not reason and verdict in ("UNKNOWN", "ERROR"):
        lines = [l for l in err.splitlines() if "error" in l or "unsupported" in l] or err.splitlines() or ["?"]
        reason = lines[0]
    ends = [(e.get("file", ""), e.get("line", 0)) for e in (j.get("race", {}).get("first"), j.get("race", {}).get("second"))
            if isinstance(e, dict)]
    return {"verdict": verdict, "reason": reason, "seconds": round(seconds, 2), "ends": ends,
            "bounds": j.get("bounds", {}), "engine": j.get("engine", "")}


def annotation(test, file, line):
    """The Goblint annotation of `line` of `file` (the test itself, or a file it includes): NORACE,
    RACE! (a race), RACE (a possibly spurious one) or "" (none)."""
    try:
        text = Path(file).read_text(errors="replace").splitlines() if file else test.read_text(errors="replace").splitlines()
    except OSError:
        return "?"
    src = text[line - 1] if 0 < line <= len(text) else ""
    if "NORACE" in src:
        return "NORACE"
    if "RACE!" in src:
        return "RACE!"
    return "RACE" if "RACE" in src else ""


def cause(reason):
    """A short class of an UNKNOWN reason: places and quoted names left out."""
    r = re.sub(r"\S+:\d+(:\d+)?:? ?", "", reason.strip())
    r = re.sub(r"'[^']*'", "'…'", r)
    return r[:90]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--siren", default=str(ROOT / "build" / "siren"))
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default="")
    ap.add_argument("--check", type=int, metavar="MIN_RIGHT", default=None,
                    help="a test (ctest): do not write RACES.md; fail (exit 1) on a wrong answer, a race at an "
                         "access annotated NORACE, or fewer than MIN_RIGHT right answers")
    ap.add_argument("--siren-arg", action="append", default=[],
                    help="an extra argument of every siren run (a hidden --test-* flag: a broken variant)")
    ap.add_argument("--rescore", default="", metavar="RESULTS_JSONL",
                    help="classify the answers of an earlier run (its --out file) again instead of running siren "
                         "(after the hand-read annotation list changed); the report keeps that run's command")
    ap.add_argument("--expect-caught", action="store_true",
                    help="with --check and a broken --siren-arg: exit 0 only if the check catches it (a wrong "
                         "answer or a race at a NORACE access)")
    a = ap.parse_args()
    root = Path(a.shared) / "benchmarks" / "goblint-races"
    tests = [t for t in sorted(root.glob("tests/*/*.c")) if a.only in str(t)]
    if not tests:
        sys.exit(f"races.py: no tests under {root}")
    start = time.time()
    if a.rescore:  # the answers of an earlier run (its --out), classified again
        old = {json.loads(l)["test"]: json.loads(l) for l in Path(a.rescore).read_text().splitlines()}
        keep = ("verdict", "reason", "seconds", "ends", "bounds", "engine")
        results = [(t, racy(t), {k: old[str(t.relative_to(root))].get(k, []) for k in keep}) for t in tests]
    else:
        results = list(ThreadPoolExecutor(a.jobs).map(
            lambda t: (t, racy(t), run(a.siren, root, t, a.timeout, a.siren_arg)), tests))
    rows, count, causes, groups = [], collections.Counter(), collections.Counter(), collections.defaultdict(collections.Counter)
    for t, is_racy, r in results:
        v = r["verdict"]
        if v == "UNSAFE":
            kind = "right" if is_racy else "wrong"
        elif v == "SAFE_UP_TO_BOUND" and is_racy:
            kind = "bounded"  # true within its stated bounds (siren's rule: not wrong), not right
        elif v in ("SAFE", "SAFE_UP_TO_BOUND"):
            kind = "wrong" if is_racy else "right"
        else:
            kind = "unknown"
            causes[cause(r["reason"])] += 1
        rel = str(t.relative_to(root))
        # the per-access reading (issue 43): a race siren reports must not be at a NORACE access
        marks = [annotation(t, f, l) for f, l in r.get("ends", [])] if v == "UNSAFE" else []
        r["marks"] = marks
        if "NORACE" in marks and rel not in ANNOTATION_DISAGREES:  # those are read by hand, listed apart
            count["norace_access"] += 1
        elif marks and all(m in ("RACE!", "RACE") for m in marks):
            count["at_race_lines"] += 1
        if kind == "wrong" and rel in ANNOTATION_DISAGREES:
            kind = "annotation"
        count[kind] += 1
        if kind == "right" and v == "SAFE":
            count["proofs"] += 1
            count["proof:" + (r.get("engine") or "bmc")] += 1
        groups[t.parent.name][kind] += 1  # every kind, so that the row's total is its tests
        rows.append({"test": rel, "racy": is_racy, "kind": kind, **r})
    if a.out:
        Path(a.out).write_text("".join(json.dumps(r) + "\n" for r in rows))
    n = len(rows)
    lines = [f"`benchmarks/races.py --timeout {a.timeout} --jobs {a.jobs}"
             + (f" --only {a.only}" if a.only else "") + "` ("
             + (f"its answers from an earlier run's --out, classified again by `--rescore`; " if a.rescore else
                f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(start))}, {time.time() - start:.0f} s wall, ")
             + "2-core machine, nothing else running).", "",
             f"**{count['right']} of {n} right ({100 * count['right'] / n:.0f}%), {count['wrong']} wrong, "
             f"{count['unknown']} unknown**, {count['bounded']} racy answered SAFE up to a bound it states (the race "
             f"needs more threads or steps; not wrong by siren's rule, not right; listed below), and {count['annotation']} where the annotation rule disagrees with "
             f"the program (read by hand, listed below; by the rule alone they would be wrong). Race-free answers "
             f"that are proofs (SAFE, not up to a bound): {count['proofs']} (by the thread-modular proof for any number of threads "
             f"{count['proof:modular']}, the explicit-state search {count['proof:explicit']}, the BMC's completeness "
             f"check {count['proof:bmc']}). Of the {sum(1 for r in rows if r['verdict'] == 'UNSAFE')} "
             f"races reported, **{count['norace_access']} at an access annotated NORACE** (must be 0; listed below) and "
             f"{count['at_race_lines']} between two accesses annotated RACE! or RACE (the rest reach an access without "
             f"an annotation, such as a line an annotated one calls).", "",
             "| group | tests | right | wrong | annotation disagrees | racy, SAFE up to bound | unknown |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for g in sorted(groups):
        c = groups[g]
        lines.append(f"| {g} | {sum(c.values())} | {c['right']} | {c['wrong']} | {c['annotation']} | {c['bounded']} | {c['unknown']} |")
    lines += ["", "Wrong answers (test, expected by the annotations, answer):", ""]
    lines += [f"- `{r['test']}`: {'racy' if r['racy'] else 'race-free'}, {r['verdict']}" for r in rows if r["kind"] == "wrong"] or ["- none"]
    lines += ["", "Racy tests answered SAFE up to a bound (the bound it states):", ""]
    lines += [f"- `{r['test']}`: {r.get('bounds', '?')}" for r in rows if r["kind"] == "bounded"] or ["- none"]
    lines += ["", "Races reported at an access annotated NORACE (test, the two lines and their annotations):", ""]
    lines += [f"- `{r['test']}`: " + ", ".join(f"{Path(f).name}:{l} ({m or 'none'})" for (f, l), m in zip(r["ends"], r["marks"]))
              for r in rows if "NORACE" in r.get("marks", []) and r["test"] not in ANNOTATION_DISAGREES] or ["- none"]
    lines += ["", "Where the annotation rule disagrees with the program (siren's answer, why):", ""]
    lines += [f"- `{r['test']}`: {r['verdict']}; {ANNOTATION_DISAGREES[r['test']]}" for r in rows if r["kind"] == "annotation"] or ["- none"]
    lines += ["", "Unknown answers by cause:", "", "| cause | tests |", "|---|---:|"]
    lines += [f"| {c.replace('|', '/')} | {k} |" for c, k in causes.most_common()]
    if a.check is None:
        driver_suite.write_between(ROOT / "benchmarks" / "RACES.md", BEGIN, END, [BEGIN, ""] + lines + ["", END],
                                   header="# siren race on Goblint's race regression tests (issue 43)\n\n")
    else:
        print("\n".join(lines))
    print(f"{count['right']}/{n} right, {count['wrong']} wrong, {count['unknown']} unknown, {count['proofs']} proofs, "
          f"{count['norace_access']} races at a NORACE access", file=sys.stderr)
    if a.expect_caught:
        caught = count["wrong"] + count["norace_access"]
        print(f"races.py: the broken variant {'is' if caught else 'is NOT'} caught ({caught} failures)", file=sys.stderr)
        return 0 if caught else 1
    if a.check is not None and count["right"] < a.check:
        print(f"races.py: {count['right']} right answers, fewer than {a.check}", file=sys.stderr)
        return 1
    return 1 if count["wrong"] or count["norace_access"] else 0


if __name__ == "__main__":
    sys.exit(main())
