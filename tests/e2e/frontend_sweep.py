#!/usr/bin/python3
"""Runs `siren cfg` on every input file listed in benchmarks/svcomp/INDEX.tsv.

Fails on a crash (signal or exit code other than 0 and 6), a hang (5 s), an exit 6 without a
`file:line` diagnostic, fewer than 90% clean conversions in the core pthread categories, or a
category converting fewer files than the committed MIN_CONVERTED table (so coverage can never
silently drop). Prints a summary table.

usage: frontend_sweep.py SIREN_BIN SHARED_DIR
"""
import os
import re
import subprocess
import sys

TIMEOUT_S = 5
CORE = ["pthread", "pthread-atomic", "pthread-ext", "pthread-lit"]
# Files (unique per category) that convert with no diagnostic, as measured; raise, never lower.
MIN_CONVERTED = {
    "goblint-regression": 19,
    "pthread": 19,
    "pthread-C-DAC": 2,
    "pthread-atomic": 9,
    "pthread-complex": 2,
    "pthread-divine": 2,
    "pthread-driver-races": 0,
    "pthread-ext": 13,
    "pthread-lit": 3,
    "pthread-wmm": 4,
}
DIAG = re.compile(r"^[^:\s][^:]*:\d+(:\d+)?: ")


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    siren, shared = sys.argv[1], sys.argv[2]
    root = os.path.join(shared, "benchmarks", "svcomp")
    files = []
    with open(os.path.join(root, "INDEX.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        ci, fi = header.index("category"), header.index("input_file")
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) <= max(ci, fi):
                continue
            entry = (cols[ci], cols[fi])
            if entry not in files:
                files.append(entry)

    failures = []
    stats = {}  # category -> [total, ok, unsupported, input_error]
    reasons = {}
    for cat, name in files:
        path = os.path.join(root, cat, name)
        s = stats.setdefault(cat, [0, 0, 0, 0])
        s[0] += 1
        try:
            p = subprocess.run([siren, "cfg", path], capture_output=True, text=True,
                               timeout=TIMEOUT_S, errors="replace")
        except subprocess.TimeoutExpired:
            failures.append(f"{cat}/{name}: hang (> {TIMEOUT_S} s)")
            continue
        if p.returncode == 0:
            if "unsupported:" in p.stderr:
                failures.append(f"{cat}/{name}: exit 0 with an unsupported diagnostic")
            s[1] += 1
            continue
        if p.returncode != 6:
            failures.append(f"{cat}/{name}: crash (exit {p.returncode}): {p.stderr.strip()[:200]}")
            continue
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        if not lines or not all(DIAG.match(l) for l in lines):
            failures.append(f"{cat}/{name}: exit 6 without file:line diagnostics: {p.stderr.strip()[:200]}")
            continue
        if any("unsupported:" in l for l in lines):
            s[2] += 1
        else:
            s[3] += 1
        reasons[f"{cat}/{name}"] = lines[0]

    print(f"{'category':22} {'files':>5} {'ok':>4} {'unsup':>5} {'error':>5} {'min':>4}")
    for cat in sorted(stats):
        t, ok, un, er = stats[cat]
        print(f"{cat:22} {t:5} {ok:4} {un:5} {er:5} {MIN_CONVERTED.get(cat, 0):4}")
        if ok < MIN_CONVERTED.get(cat, 0):
            failures.append(f"{cat}: {ok} files converted, fewer than the committed {MIN_CONVERTED[cat]}")
    core_total = sum(stats.get(c, [0])[0] for c in CORE)
    core_ok = sum(stats.get(c, [0, 0])[1] for c in CORE)
    pct = 100.0 * core_ok / core_total if core_total else 0.0
    print(f"core categories ({', '.join(CORE)}): {core_ok}/{core_total} = {pct:.1f}%")
    if pct < 90.0:
        failures.append(f"core categories convert {pct:.1f}% < 90%")
    if reasons:
        print("not converted:")
        for k, v in sorted(reasons.items()):
            print(f"  {k}: {v}")
    for f in failures:
        print("FAIL:", f)
    print("frontend sweep:", "FAILED" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
