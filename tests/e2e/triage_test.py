#!/usr/bin/python3
"""End-to-end: `siren triage` on hand-written SARIF files (tests/triage/*.sarif, listed in
tests/triage/cases.json). Each relatedLocation carries properties.expected, the verdict siren
must give for the pair (locations[0], that relatedLocation). Also checks the JSONL shape and
that the --sarif output is a SARIF 2.1.0 log with one result per warning. Runs every case
without a reduction and under --reduction sir.

Usage: triage_test.py SIREN SHARED_DIR [SIREN_ARG ...]   (extra arguments of siren triage, e.g. a
TEST ONLY flag of a deliberately broken variant, which must make this test fail)
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = HERE.parent / "triage"


def key(first, second):
    return (Path(first["file"]).name, first["line"], first.get("column") or 0,
            Path(second["file"]).name, second["line"], second.get("column") or 0)


def sarif_loc(l):
    pl = l["physicalLocation"]
    return {"file": pl["artifactLocation"]["uri"], "line": pl["region"]["startLine"],
            "column": pl["region"].get("startColumn", 0)}


def main():
    siren, shared, extra = sys.argv[1], Path(sys.argv[2]), sys.argv[3:]
    failures, total = [], 0
    cases = json.loads((CASES / "cases.json").read_text())
    # Every case without a reduction and under SIR (which keeps every racy state; on programs
    # with pointer accesses it is MPOR).
    for case, reduction in [(c, r) for r in ("none", "sir") for c in cases]:
        prog = case["program"]
        prog = shared / "benchmarks" / "svcomp" / prog[len("shared:"):] if prog.startswith("shared:") else CASES / prog
        sarif = json.loads((CASES / case["sarif"]).read_text())
        expected = {}
        for r in sarif["runs"][0]["results"]:
            first = sarif_loc(r["locations"][0])
            for rel in r["relatedLocations"]:
                expected[key(first, sarif_loc(rel))] = rel["properties"]["expected"]
        with tempfile.TemporaryDirectory() as tmp:
            out, sout = Path(tmp) / "out.jsonl", Path(tmp) / "out.sarif"
            p = subprocess.run([siren, "triage", str(CASES / case["sarif"]), "--program", str(prog), "--out", str(out),
                                "--jobs", "2", "--sarif", str(sout), "--timeout", "60", "-q", "--reduction", reduction] + extra,
                               capture_output=True, text=True, timeout=600)
            if p.returncode != 0:
                failures.append(f"{reduction}: {case['sarif']}: exit {p.returncode}: {p.stderr.strip()[:300]}")
                continue
            got = {}
            for line in out.read_text().splitlines():
                j = json.loads(line)
                for field in ("id", "first", "second", "verdict", "bound", "seconds", "witness"):
                    assert field in j, f"missing {field} in {line}"
                got[key(j["first"], j["second"])] = j
            log = json.loads(sout.read_text())
            assert log["version"] == "2.1.0" and len(log["runs"][0]["results"]) == len(got), "bad SARIF output"
        for k, want in expected.items():
            total += 1
            j = got.get(k)
            verdict = j["verdict"] if j else "(missing)"
            ok = verdict == want
            if ok and want == "RACE":
                w = j["witness"]
                ok = w is not None and w["first"]["thread"] != w["second"]["thread"] and \
                    "write" in (w["first"]["access"], w["second"]["access"])
            print(f"{'ok  ' if ok else 'FAIL'} {reduction:4} {case['sarif']:18} {k[1]}:{k[2]} / {k[3]}:{k[4]}:{k[5]}  "
                  f"expected {want:10} got {verdict}")
            if not ok:
                failures.append(f"{reduction}: {case['sarif']} {k}: expected {want}, got {verdict}")
    print(f"{total - len(failures)} of {total} pairs as expected")
    if total < 40:
        failures.append(f"only {total} pairs (at least 20 per reduction required)")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
