#!/usr/bin/python3
"""siren triage --driver over the Linux 4.0 drivers of ../shared/benchmarks/linux-drivers (issue
41): one row per driver with its lines, entry points (and how many were left out), pairs,
answered lines by verdict, the pairs that did not get through the front end, the most common
reason of the UNKNOWN lines, the scan time and the triage's wall-clock time and peak memory.
Writes benchmarks/DRIVERS.md (the table between the markers is replaced).

Usage: benchmarks/drivers.py [--siren build/siren] [--shared ../shared] [--timeout 60]
                             [--total-timeout 120] [--jobs 2] [--only NAME,...]
  --timeout: solving seconds per warning; --total-timeout: wall-clock seconds per driver (the
  pairs not answered by then are counted as such).
"""
import argparse
import collections
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- drivers.py: begin -->", "<!-- drivers.py: end -->"


def short(reason):
    r = re.sub(r"^.*?(unsupported: |possible memory-safety violation|modelling limit reached)", r"\1", reason)
    r = re.sub(r" \(argument \d+\)", "", r)
    r = re.sub(r"at \S+:\d+:\d+: ", "", r)
    return r[:90]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--siren", default=str(ROOT / "build" / "siren"))
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--total-timeout", type=float, default=120)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--keep", default="", help="keep each driver's harnesses, results and --report pages in KEEP/NAME")
    a = ap.parse_args()
    suite = Path(a.shared) / "benchmarks" / "linux-drivers"
    drivers = sorted(suite.glob("driversuite/*/**/driver.c"))
    if a.only:
        drivers = [d for d in drivers if d.parent.name in a.only.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for d in drivers:
            name = f"{d.parent.parent.name}/{d.parent.name}"
            work = (Path(a.keep) if a.keep else Path(tmp)) / d.parent.name
            if work.exists():
                shutil.rmtree(work)
            out = work / "results.jsonl"
            work.mkdir(parents=True)
            # /usr/bin/time -f %M: this driver's peak resident set (KiB), on the last stderr line
            cmd = ["/usr/bin/time", "-f", "%M", a.siren, "triage", "--driver", str(d), "-I", str(suite / "Model"), "--emit-harness",
                   str(work / "h"), "--out", str(out), "--timeout", str(a.timeout), "--total-timeout",
                   str(a.total_timeout), "--jobs", str(a.jobs), "--report", str(work / "report"), "-q"]
            t0 = time.monotonic()
            p = subprocess.run(cmd, capture_output=True, text=True)
            wall = time.monotonic() - t0
            tail = p.stderr.strip().splitlines()[-1:] or ["0"]
            peak = int(tail[0]) if tail[0].isdigit() else 0
            info = json.loads((work / "h" / "driver.json").read_text()) if (work / "h" / "driver.json").exists() else {}
            lines = [json.loads(l) for l in out.read_text().splitlines()] if out.exists() else []
            verdicts = collections.Counter(l["verdict"] for l in lines)
            # UNKNOWN without an attempt: the driver's time limit ran out before the warning's turn
            not_reached = sum(1 for l in lines if l["verdict"] == "UNKNOWN" and l["bound"] == 0 and
                              (l.get("reason") == "timeout" or l.get("reason", "").startswith("not translated")))
            program_unknown = sum(1 for l in lines if l["id"].endswith("/program") and l["verdict"] == "UNKNOWN")
            no_candidate = sum(1 for l in lines if l["id"].endswith("/program") and l["verdict"] == "NO_RACE")
            bounds = sorted(l["bound"] for l in lines if l["verdict"] == "NO_RACE_UP_TO_BOUND")
            reasons = collections.Counter(short(l.get("reason", "")) for l in lines if l["verdict"] == "UNKNOWN" and not (
                l["bound"] == 0 and (l.get("reason") == "timeout" or l.get("reason", "").startswith("not translated"))))
            entries = info.get("entry_points", [])
            rows.append({
                "driver": name,
                "lines": sum(1 for _ in d.open(errors="replace")),
                "entries": len(entries),
                "left_out": sum(1 for e in entries if "left_out" in e),
                "pairs": info.get("pairs", 0),
                "answered_pairs": len({l["id"].split("/")[0] for l in lines}),
                "race": verdicts["RACE"],
                "no_race": verdicts["NO_RACE"] + verdicts["NO_ACCESS"],
                "bounded": verdicts["NO_RACE_UP_TO_BOUND"],
                "unknown": verdicts["UNKNOWN"],
                "program_unknown": program_unknown,
                "not_reached": not_reached,
                "no_candidate": no_candidate,
                "warnings": len(lines) - no_candidate - program_unknown,
                "median_bound": bounds[len(bounds) // 2] if bounds else 0,
                "reason": reasons.most_common(1)[0][0] if reasons else "",
                "error": "" if p.returncode in (0, 10) else (p.stderr.strip().splitlines()[:-1] or ["?"])[-1][:120],
                "wall": wall,
                "peak_mb": peak / 1024,
            })
            r = rows[-1]
            print(f"{name}: {r['entries']} entry points, {r['pairs']} pairs, {r['answered_pairs']} answered, "
                  f"RACE {r['race']} NO_RACE {r['no_race']} bounded {r['bounded']} UNKNOWN {r['unknown']} "
                  f"({r['wall']:.0f} s) {r['reason']} {r['error']}", file=sys.stderr)
    table = [BEGIN, "",
             f"`benchmarks/drivers.py --timeout {a.timeout:g} --total-timeout {a.total_timeout:g} --jobs {a.jobs}` "
             "(siren's kernel model before Whoop's `Model/`). *pairs answered*: pairs with at least one result "
             "line by the driver's time limit; *no candidate*: pairs the lockset analysis answers NO_RACE "
             "(one `A|B/program` line each); *warnings*: the candidate warnings of the other pairs, answered "
             "RACE / NO_RACE / NO_RACE up to bound (median bound) / UNKNOWN; *whole-pair UNKNOWN*: pairs whose "
             "harness siren cannot model; *not reached*: UNKNOWN lines "
             "of warnings whose turn did not come before the driver's time limit (reason `timeout` at bound 0, "
             "or not translated); *reason*: the most common reason of the other UNKNOWN lines. Wall time is the whole command "
             "(scan, harnesses, translation, candidates, solving); peak memory is its largest resident set.",
             "",
             "| driver | lines | entry points (left out) | pairs | pairs answered | no candidate | warnings | RACE "
             "| NO_RACE | NO_RACE up to bound (median) | UNKNOWN (whole-pair) | not reached | wall s | peak MB | most common UNKNOWN reason |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        reason = r["reason"] or r["error"]
        table.append(f"| {r['driver']} | {r['lines']} | {r['entries']} ({r['left_out']}) | {r['pairs']} | "
                     f"{r['answered_pairs']} | {r['no_candidate']} | {r['warnings']} | {r['race']} | "
                     f"{r['no_race'] - r['no_candidate']} | {r['bounded']} ({r['median_bound']}) | "
                     f"{r['unknown']} ({r['program_unknown']}) | {r['not_reached']} | {r['wall']:.0f} | {r['peak_mb']:.0f} | {reason} |")
    tot = lambda k: sum(r[k] for r in rows)
    table.append(f"| **total** | {tot('lines')} | {tot('entries')} ({tot('left_out')}) | {tot('pairs')} | "
                 f"{tot('answered_pairs')} | {tot('no_candidate')} | {tot('warnings')} | {tot('race')} | "
                 f"{tot('no_race') - tot('no_candidate')} | {tot('bounded')} | "
                 f"{tot('unknown')} ({tot('program_unknown')}) | {tot('not_reached')} | {sum(r['wall'] for r in rows):.0f} | | |")
    decided = tot('race') + tot('no_race') - tot('no_candidate') + tot('bounded')
    table.append("")
    table.append(f"Warnings decided (RACE, NO_RACE, NO_RACE up to bound): {decided} of {tot('warnings')}"
                 f" ({100.0 * decided / max(1, tot('warnings')):.0f}%); pairs decided without a warning: "
                 f"{tot('no_candidate')} of {tot('pairs')}.")
    table += ["", END]
    md = ROOT / "benchmarks" / "DRIVERS.md"
    text = md.read_text() if md.exists() else ""
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + "\n".join(table) + text[text.index(END) + len(END):]
    else:
        text = text + "\n" + "\n".join(table) + "\n"
    md.write_text(text)


if __name__ == "__main__":
    main()
