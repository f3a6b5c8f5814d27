#!/usr/bin/python3
"""The per-access reading of Goblint's race annotations (issue 43, "Triage reads annotated sources").

For every test a run of benchmarks/races.py answered (its --out: UNSAFE, SAFE or SAFE_UP_TO_BOUND),
the annotated lines of the test become warnings for `siren triage` (a JSON file of location
pairs): every line annotated RACE! paired with every line of the file (itself too: two threads
on one line; the other access may be on a line without an annotation, such as one an annotated
line calls), and every NORACE line paired with every annotated line (itself too). Then:

- every RACE! line of a test answered UNSAFE must be in some pair triage answers RACE
  (`uncovered` otherwise: a race the annotation names that siren does not show);
- no pair with a NORACE line may be answered RACE (`norace`; the hand-read disagreements of
  races.py apart).

Usage: benchmarks/race_accesses.py RESULTS.jsonl [--siren build/siren] [--shared ../shared]
                                   [--timeout 10] [--jobs 2] [--check MIN_COVERED] [--siren-arg ARG]...
  --check: exit 1 on a pair with a NORACE line answered RACE, or when fewer than MIN_COVERED
  RACE! lines are in a pair answered RACE (the ctest).
"""
import argparse
import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import races  # noqa: E402  (annotation, ANNOTATION_DISAGREES)

ROOT = Path(__file__).resolve().parent.parent


def marked_lines(test):
    """(line, mark) of every annotated line of the test file (races.annotation's reading)."""
    out = []
    for i, _ in enumerate(test.read_text(errors="replace").splitlines(), 1):
        m = races.annotation(test, str(test), i)
        if m in ("RACE!", "RACE", "NORACE"):
            out.append((i, m))
    return out


def pairs_of(lines, n_lines):
    """Every RACE! line with every line of the file (itself too: the race may be with a line
    that has no annotation, such as one an annotated line calls; a line without an access is
    answered NO_ACCESS at once), and every NORACE line with every annotated line (itself too)."""
    must = [l for l, m in lines if m == "RACE!"]
    norace = [l for l, m in lines if m == "NORACE"]
    every = [l for l, _ in lines]
    out = set()
    for a in must:
        for b in range(1, n_lines + 1):
            out.add((min(a, b), max(a, b)))
    for n in norace:
        for l in every:
            out.add((min(n, l), max(n, l)))
    return sorted(out)


def triage(siren, root, test, pairs, timeout, extra):
    """{(line1, line2): verdict} for the pairs (lines ordered)."""
    with tempfile.TemporaryDirectory() as d:
        w = Path(d) / "warnings.json"
        w.write_text(json.dumps([{"first": {"file": test.name, "line": a}, "second": {"file": test.name, "line": b}}
                                 for a, b in pairs]))
        out = Path(d) / "results.jsonl"
        try:
            subprocess.run([siren, "triage", str(w), "--program", str(test), "-I", str(root), "--timeout",
                            str(timeout), "--total-timeout", str(timeout * 6), "--out", str(out), "-q", *extra],
                           capture_output=True, text=True, timeout=timeout * 6 + 60)
        except subprocess.TimeoutExpired:
            pass
        got = {}
        if out.exists():
            for line in out.read_text().splitlines():
                try:
                    r = json.loads(line)
                except json.JSONDecodeError:
                    continue
                a, b = r["first"]["line"], r["second"]["line"]
                got[(min(a, b), max(a, b))] = r["verdict"]
        return got


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", help="races.py --out JSONL (the program-level answers)")
    ap.add_argument("--siren", default=str(ROOT / "build" / "siren"))
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--check", type=int, metavar="MIN_COVERED", default=None,
                    help="exit 1 on a pair with a NORACE line answered RACE or fewer than MIN_COVERED RACE! lines "
                         "in a pair answered RACE (the ctest)")
    ap.add_argument("--siren-arg", action="append", default=[])
    a = ap.parse_args()
    root = Path(a.shared) / "benchmarks" / "goblint-races"
    rows = [json.loads(l) for l in Path(a.results).read_text().splitlines()]
    answered = [r for r in rows if r["verdict"] in ("UNSAFE", "SAFE", "SAFE_UP_TO_BOUND")]

    def one(r):
        test = root / r["test"]
        lines = marked_lines(test)
        pairs = pairs_of(lines, len(test.read_text(errors="replace").splitlines()))
        return r, lines, (triage(a.siren, root, test, pairs, a.timeout, a.siren_arg) if pairs else {})

    done = list(ThreadPoolExecutor(a.jobs).map(one, answered))
    covered = racy_lines = pairs_n = 0
    uncovered, norace = [], []
    for r, lines, got in done:
        pairs_n += len(got)
        mark = dict(lines)
        if r["verdict"] == "UNSAFE":
            for l, m in lines:
                if m != "RACE!":
                    continue
                racy_lines += 1
                hits = [p for p, v in got.items() if l in p and v == "RACE"]
                if hits:
                    covered += 1
                else:
                    seen = sorted({v for p, v in got.items() if l in p})
                    uncovered.append(f"{r['test']}:{l} ({', '.join(seen) or 'no answer'})")
        if r["test"] in races.ANNOTATION_DISAGREES:
            continue
        for (x, y), v in got.items():
            if v == "RACE" and "NORACE" in (mark.get(x), mark.get(y)):
                norace.append(f"{r['test']}:{x} ({mark.get(x)}) and :{y} ({mark.get(y)})")
    print(f"{len(answered)} tests answered, {pairs_n} annotated pairs triaged: {covered} of {racy_lines} RACE! "
          f"lines of the tests answered UNSAFE are in a pair answered RACE, {len(norace)} pairs with a NORACE line "
          f"answered RACE")
    for u in uncovered:
        print(f"  uncovered: {u}")
    for n in norace:
        print(f"  RACE at a NORACE line: {n}")
    if a.check is not None and (norace or covered < a.check):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
