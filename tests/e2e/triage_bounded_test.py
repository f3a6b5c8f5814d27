#!/usr/bin/python3
"""End-to-end: a warning whose search meets a possible memory-safety violation is answered as a
bounded checker does, no further than the violation (tests/triage/null_after_loop.c).

- triage gives NO_RACE_UP_TO_BOUND b, and the reason names the violation;
- b is exactly the last clean depth: with --bound b the same warning is NO_RACE_UP_TO_BOUND b
  and no error is mentioned; with --bound b+1 the violation is;
- without the null dereference (-DNO_NULL) the warning is NO_RACE, proven, at a larger bound;
- a program whose thread model leaves a call out (tests/triage/cut_model.c) and has no candidate
  is UNKNOWN, not NO_RACE; under the limit (-DSMALL) its race is found.

Usage: triage_bounded_test.py SIREN [SIREN_ARG ...]   (extra arguments of siren triage, e.g. the
TEST ONLY flag of a deliberately broken variant, which must make this test fail)
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

PROG = Path(__file__).resolve().parent.parent / "triage" / "null_after_loop.c"
CUT = Path(__file__).resolve().parent.parent / "triage" / "cut_model.c"


def triage(siren, extra, *args):
    with tempfile.TemporaryDirectory() as tmp:
        w = Path(tmp) / "w.csv"
        w.write_text(f"{PROG},12,5,{PROG},23,5\n")
        # BMC alone: its bounds are what this test is about (the explicit-state search first
        # would prove -DNO_NULL race-free without a bound).
        p = subprocess.run([siren, "triage", str(w), "--program", str(PROG), "-q", "--timeout", "120", "--engine",
                            "bmc"] + extra +
                           list(args), capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, f"exit {p.returncode}: {p.stderr.strip()[:300]}"
        lines = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
        assert len(lines) == 1, p.stdout
        return lines[0]


def main():
    siren, extra = sys.argv[1], sys.argv[2:]
    a = triage(siren, extra)
    print("default:", a["verdict"], a["bound"], a.get("reason", ""))
    assert a["verdict"] == "NO_RACE_UP_TO_BOUND", a
    assert "memory-safety violation" in a["reason"] and "null_after_loop.c:16" in a["reason"], a
    b = a["bound"]
    assert b >= 1, a
    at_b = triage(siren, extra, "--bound", str(b))
    print(f"--bound {b}:", at_b["verdict"], at_b["bound"], at_b.get("reason", ""))
    assert at_b["verdict"] == "NO_RACE_UP_TO_BOUND" and at_b["bound"] == b, at_b
    assert "memory-safety" not in at_b.get("reason", ""), at_b
    past = triage(siren, extra, "--bound", str(b + 1))
    print(f"--bound {b + 1}:", past["verdict"], past["bound"], past.get("reason", ""))
    assert "memory-safety violation" in past.get("reason", ""), past
    assert past["bound"] == b, past
    clean = triage(siren, extra, "--", "-DNO_NULL")
    print("-DNO_NULL:", clean["verdict"], clean["bound"])
    assert clean["verdict"] == "NO_RACE" and clean["bound"] > b, clean
    # A thread model that leaves code out (a call past the instruction limit): no candidate is
    # no claim (UNKNOWN), while the same program under the limit races.
    for args, want in (([], "UNKNOWN"), (["-DSMALL"], "RACE")):
        with tempfile.TemporaryDirectory() as tmp:
            m = Path(tmp) / "m.jsonl"
            m.write_text(json.dumps({"program": str(CUT), "clang_args": args}) + "\n")
            out = Path(tmp) / "r.jsonl"
            p = subprocess.run([siren, "triage", "--manifest", str(m), "--out", str(out), "-q", "--timeout", "120"] +
                               extra, capture_output=True, text=True, timeout=600)
            lines = [json.loads(l) for l in out.read_text().splitlines()]
            verdicts = sorted({l["verdict"] for l in lines})
            print(f"cut_model.c {args}: {verdicts} {lines[0].get('reason', '')[:100]}")
            assert verdicts == [want], lines
            if want == "UNKNOWN":
                assert "leaves code out" in lines[0]["reason"], lines
    print("ok")


if __name__ == "__main__":
    main()
