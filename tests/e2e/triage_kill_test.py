#!/usr/bin/python3
"""End-to-end: `siren triage` is resumable and loss-free. Starts a triage of >= 50 warnings
(--jobs 2), SIGKILLs it mid-way, re-runs it with the same --out, and asserts that the final
output has every warning exactly once and every line parses; a third run answers nothing new.

Usage: triage_kill_test.py SIREN SHARED_DIR
"""
import itertools
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main():
    siren, shared = sys.argv[1], Path(sys.argv[2])
    prog = shared / "benchmarks" / "svcomp" / "goblint-regression" / "09-regions_02-list_nr.c"
    lines = [11, 12, 24, 25, 26, 36, 38, 43, 44, 13, 30]  # the last two: no access there
    pairs = list(itertools.combinations_with_replacement(lines, 2))[:60]
    warnings = [{"first": {"file": prog.name, "line": a}, "second": {"file": prog.name, "line": b}} for a, b in pairs]
    assert len(warnings) >= 50
    with tempfile.TemporaryDirectory() as tmp:
        wfile, out = Path(tmp) / "w.json", Path(tmp) / "out.jsonl"
        wfile.write_text(json.dumps(warnings))
        # BMC alone: the explicit-state search answers this program's warnings all at once, in
        # milliseconds, before any kill could land.
        cmd = [siren, "triage", str(wfile), "--program", str(prog), "--out", str(out), "--jobs", "2", "-q",
               "--engine", "bmc"]
        p = subprocess.Popen(cmd)
        # Kill once some (not all) lines are there.
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and p.poll() is None:
            n = out.read_text().count("\n") if out.exists() else 0
            if n >= 8:
                break
            time.sleep(0.02)
        killed_early = p.poll() is None
        p.send_signal(signal.SIGKILL)
        p.wait()
        text = out.read_text() if out.exists() else ""
        done_at_kill = text.count("\n")
        print(f"killed {'mid-way' if killed_early else 'after the end'}: {done_at_kill} of {len(warnings)} lines")
        for line in text.split("\n")[:-1]:
            json.loads(line)  # every complete line parses
        time.sleep(0.5)  # workers die with the parent (PR_SET_PDEATHSIG)
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            print("re-run failed:", r.returncode, r.stderr)
            return 1
        final = out.read_text()
        assert final.endswith("\n"), "output does not end with a newline"
        ids = [json.loads(l)["id"] for l in final.splitlines()]
        assert len(ids) == len(set(ids)), "a warning answered twice"
        assert len(ids) == len(warnings), f"{len(ids)} lines for {len(warnings)} warnings"
        before = final
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0 and out.read_text() == before, "a third run changed the output"
        if not killed_early or done_at_kill >= len(warnings):
            print("FAIL: the run finished before it could be killed (test too small)")
            return 1
    print("ok: every warning exactly once after the kill and the re-run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
