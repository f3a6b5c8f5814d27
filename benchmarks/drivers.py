#!/usr/bin/python3
"""siren triage --driver over the Linux 4.0 drivers of ../shared/benchmarks/linux-drivers (issue
41): one row per driver with its lines, entry points (and how many were left out), pairs,
the warnings (the harness of every pair's candidates, and those of pairs outside it) by verdict, the pairs that did not get through the front end, the most common
reason of the UNKNOWN lines, the time of each phase (siren's DIR/phases.json: scan,
translation, candidates, search), the wall-clock time and the peak memory.
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

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
import driver_suite  # noqa: E402

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
    model = driver_suite.model_dir(a.shared)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, d in driver_suite.drivers(a.shared, a.only):
            work = (Path(a.keep) if a.keep else Path(tmp)) / d.parent.name
            if work.exists():
                shutil.rmtree(work)
            out = work / "results.jsonl"
            work.mkdir(parents=True)
            # /usr/bin/time -f %M: this driver's peak resident set (KiB), on the last stderr line
            cmd = ["/usr/bin/time", "-f", "%M", a.siren, "triage", "--driver", str(d), "-I", str(model), "--emit-harness",
                   str(work / "h"), "--out", str(out), "--timeout", str(a.timeout), "--total-timeout",
                   str(a.total_timeout), "--jobs", str(a.jobs), "--report", str(work / "report"), "-q"]
            t0 = time.monotonic()
            p = subprocess.run(cmd, capture_output=True, text=True)
            wall = time.monotonic() - t0
            tail = p.stderr.strip().splitlines()[-1:] or ["0"]
            peak = int(tail[0]) if tail[0].isdigit() else 0
            info = json.loads((work / "h" / "driver.json").read_text()) if (work / "h" / "driver.json").exists() else {}
            phases = json.loads((work / "h" / "phases.json").read_text()) if (work / "h" / "phases.json").exists() else {}
            lines = [json.loads(l) for l in out.read_text().splitlines()] if out.exists() else []
            together = set(info.get("together", []))
            entries = info.get("entry_points", [])
            stopped = lambda l: l["verdict"] == "UNKNOWN" and l["bound"] == 0 and (
                l.get("reason") == "timeout" or l.get("reason", "").startswith("not translated"))
            scope = lambda l: l["id"].split("/")[0]
            in_together = lambda l: scope(l) != "all" and set(scope(l).split("|")) <= together
            where = lambda e: (e["file"], e["line"], e["column"]) if e else None
            key = lambda l: tuple(sorted([where(l["first"]), where(l["second"])], key=str))
            # The warnings: the candidates of the harness of every pair (ids all/...) and those of
            # the pairs with an entry point left out of it; a pair's own harness inside it only
            # adds depth, so its RACE lines make the warning of the same two places RACE.
            raced = {key(l) for l in lines if in_together(l) and l["verdict"] == "RACE"}
            # (a pair whose harness siren cannot model, or did not translate in time, is one
            # UNKNOWN warning, its /program line)
            warnings = [l for l in lines if not in_together(l) and not (l["id"].endswith("/program") and
                                                                       l["verdict"] != "UNKNOWN")]
            verdict = lambda l: "RACE" if scope(l) == "all" and key(l) in raced else l["verdict"]
            verdicts = collections.Counter(verdict(l) for l in warnings)
            not_reached = sum(1 for l in warnings if stopped(l) and verdict(l) == "UNKNOWN")
            program_unknown = sum(1 for l in lines if l["id"].endswith("/program") and l["verdict"] == "UNKNOWN"
                                  and not in_together(l))
            no_candidate = sum(1 for l in lines if l["id"].endswith("/program") and l["verdict"] == "NO_RACE")
            bounds = sorted(l["bound"] for l in warnings if verdict(l) == "NO_RACE_UP_TO_BOUND")
            reasons = collections.Counter(short(l.get("reason", "")) for l in warnings
                                          if verdict(l) == "UNKNOWN" and not stopped(l))
            rows.append({
                "driver": name,
                "lines": sum(1 for _ in d.open(errors="replace")),
                "entries": len(entries),
                "internal": len(info.get("internal", [])),
                "left_out": sum(1 for e in entries if "left_out" in e),
                "alone": sum(1 for e in entries if "alone" in e),
                "pairs": info.get("pairs", 0),
                "together_pairs": info.get("pairs", 0) - info.get("pairs_alone", info.get("pairs", 0)),
                "race": verdicts["RACE"],
                "pair_races": len({key(l) for l in lines if scope(l) != "all" and l["verdict"] == "RACE"}),
                "no_race": verdicts["NO_RACE"] + verdicts["NO_ACCESS"],
                "bounded": verdicts["NO_RACE_UP_TO_BOUND"],
                "unknown": verdicts["UNKNOWN"],
                "program_unknown": program_unknown,
                "not_reached": not_reached,
                "no_candidate": no_candidate,
                "warnings": len(warnings),
                "median_bound": bounds[len(bounds) // 2] if bounds else 0,
                "reason": reasons.most_common(1)[0][0] if reasons else "",
                "error": "" if p.returncode in (0, 5, 10) else (p.stderr.strip().splitlines()[:-1] or ["?"])[-1][:120],
                "wall": wall,
                "peak_mb": peak / 1024,
                "scan": phases.get("scan_seconds", 0),
                "translation": phases.get("translation_seconds", 0),
                "translated": phases.get("programs_translated", 0),
                "candidates": phases.get("candidates_seconds", 0),
                "search": phases.get("search_seconds", 0),
                "peak_after_candidates": phases.get("peak_mb_after_candidates", 0),
            })
            r = rows[-1]
            print(f"{name}: {r['entries']} entry points, {r['pairs']} pairs ({r['together_pairs']} together), "
                  f"RACE {r['race']} NO_RACE {r['no_race']} bounded {r['bounded']} UNKNOWN {r['unknown']} "
                  f"({r['wall']:.0f} s) {r['reason']} {r['error']}", file=sys.stderr)
    table = [BEGIN, "",
             f"`benchmarks/drivers.py --timeout {a.timeout:g} --total-timeout {a.total_timeout:g} --jobs {a.jobs}` "
             "(siren's kernel model before Whoop's `Model/`). *entry points (left out, alone)*: found, left out "
             "(no fresh argument), with code siren cannot model (their pairs get harnesses of their own); "
             "*internal*: functions whose address only reaches the driver's own calls (no entry points); "
             "*pairs (together)*: all pairs, those in the harness of every pair (docs/drivers.md); *no candidate*: "
             "pairs (or the harness of every pair) without a lockset candidate (one `.../program` NO_RACE line); "
             "*warnings*: the candidates of the harness of every pair (two places in the driver, for all its "
             "pairs at once) and of the pairs' own harnesses outside it, answered RACE (also where a pair's own "
             "harness raced on the same two places) / NO_RACE / NO_RACE up to bound (median bound) / UNKNOWN "
             "(whole-pair: pairs whose harness siren cannot model); *not reached*: UNKNOWN warnings whose turn "
             "did not come before the driver's time limit; *pair races*: distinct place pairs raced in the "
             "pairs' own harnesses; *reason*: the most common reason of the other UNKNOWN lines. *phases*: "
             "seconds of the scan (entry points, harnesses, the harness of every pair tried), the translation "
             "(front end, thread model, points-to; programs translated, a released pair's harness counted again "
             "at its turn), the lockset candidates and the search (deepening, solving, replays; with --jobs 2 "
             "two programs at once), from siren's DIR/phases.json; *wall* is the whole command; *peak MB*: "
             "its largest resident set (siren's after the candidates).",
             "",
             "| driver | lines | entry points (left out, alone) | internal | pairs (together) | no candidate | warnings | RACE "
             "| NO_RACE | NO_RACE up to bound (median) | UNKNOWN (whole-pair) | not reached | pair races | phases s: scan / translation (programs) / candidates / search "
             "| wall s | peak MB (after candidates) | most common UNKNOWN reason |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|"]
    for r in rows:
        reason = r["reason"] or r["error"]
        table.append(f"| {r['driver']} | {r['lines']} | {r['entries']} ({r['left_out']}, {r['alone']}) | {r['internal']} | "
                     f"{r['pairs']} ({r['together_pairs']}) | {r['no_candidate']} | {r['warnings']} | {r['race']} | "
                     f"{r['no_race']} | {r['bounded']} ({r['median_bound']}) | "
                     f"{r['unknown']} ({r['program_unknown']}) | {r['not_reached']} | {r['pair_races']} | "
                     f"{r['scan']:.1f} / {r['translation']:.1f} ({r['translated']}) / {r['candidates']:.1f} / "
                     f"{r['search']:.0f} | {r['wall']:.0f} | {r['peak_mb']:.0f} ({r['peak_after_candidates']:.0f}) | "
                     f"{reason} |")
    tot = lambda k: sum(r[k] for r in rows)
    table.append(f"| **total** | {tot('lines')} | {tot('entries')} ({tot('left_out')}, {tot('alone')}) | {tot('internal')} | "
                 f"{tot('pairs')} ({tot('together_pairs')}) | {tot('no_candidate')} | {tot('warnings')} | {tot('race')} | "
                 f"{tot('no_race')} | {tot('bounded')} | "
                 f"{tot('unknown')} ({tot('program_unknown')}) | {tot('not_reached')} | {tot('pair_races')} | "
                 f"{tot('scan'):.0f} / {tot('translation'):.0f} ({tot('translated')}) / {tot('candidates'):.0f} / "
                 f"{tot('search'):.0f} | {tot('wall'):.0f} | | |")
    decided = tot('race') + tot('no_race') + tot('bounded')
    table.append("")
    table.append(f"Warnings decided (RACE, NO_RACE, NO_RACE up to bound): {decided} of {tot('warnings')}"
                 f" ({100.0 * decided / max(1, tot('warnings')):.0f}%); pairs without a candidate: "
                 f"{tot('no_candidate')} of {tot('pairs')}.")
    table += ["", END]
    driver_suite.write_between(ROOT / "benchmarks" / "DRIVERS.md", BEGIN, END, table)


if __name__ == "__main__":
    main()
