#!/usr/bin/python3
"""SIR's Table 1 on the Linux 4.0 drivers (issue 42): `siren triage --driver` with
--reduction none, mpor and sir at one fixed bound, one row per driver.

Per driver: the relevant shared variables, SIR's pairs (insensitive without
invariants, by the graph, sensitive) and the graph's time, from `siren check --json
--reduction sir` on the harness of every pair (else the first pair's); then, for each
reduction, the triage's CPU time (user + system of siren and what it waited for, analysis
included), its peak memory and its verdicts, which must be the same under all three (a
difference is printed and counted: it would be a wrong verdict of one of them).

Writes benchmarks/TABLE1.md between the markers (the rest of the file is kept).

Usage: benchmarks/table1.py [--siren build/siren] [--shared ../shared] [--bound 8]
                            [--total-timeout 600] [--only NAME,...] [--keep DIR] [--append]
  --bound: the fixed bound (transactions) of every warning; --total-timeout: wall-clock
  seconds per driver and reduction (a run cut by it is marked, its unanswered warnings counted);
  --append: keep the rows of the drivers this run does not make (a sweep in parts).
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
BEGIN, END = "<!-- table1.py: begin -->", "<!-- table1.py: end -->"
REDUCTIONS = ("none", "mpor", "sir")
VERDICTS = "verdicts (none; mpor; sir): RACE / NO_RACE / UNKNOWN (cut)"
PAIRS = "SIR pairs: irrelevant (sections) / by graph / sensitive"
COLUMNS = ("driver", "entry points", "pairs", "harness", "shared", "relevant shared", PAIRS, "graph ms",
           "none CPU s", "none MB", "mpor CPU s", "mpor MB", "sir CPU s", "sir MB", "sir / mpor CPU", VERDICTS, "differ")


def stat_cells(s):
    """The columns that come from SIR's analysis of the harness (sir_stats)."""
    ins, irr = s.get("sir_insensitive_pairs", 0), s.get("sir_irrelevant_pairs", 0)
    return {"shared": s.get("sir_shared_vars", "?"), "relevant shared": s.get("sir_relevant_shared_vars", "?"),
            PAIRS: f"{irr} ({s.get('sir_section_pairs', '?')}) / {ins - irr} / {s.get('sir_ss_pairs', '?')}",
            "graph ms": s.get("sir_graph_ms", "?")}


def row_line(cells):
    return "| " + " | ".join(str(cells.get(c, "?")) for c in COLUMNS) + " |"


def timed(cmd):
    """Runs cmd under /usr/bin/time: (process, cpu seconds, peak MB, wall seconds)."""
    t0 = time.monotonic()
    p = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", *cmd], capture_output=True, text=True)
    wall = time.monotonic() - t0
    last = (p.stderr.strip().splitlines() or ["0 0 0"])[-1].split()
    try:
        cpu, peak = float(last[0]) + float(last[1]), int(last[2]) / 1024
    except (ValueError, IndexError):
        cpu, peak = 0.0, 0.0
    return p, cpu, peak, wall


def sir_stats(siren, program, clang_args):
    """SIR's analysis of one harness (siren check --json --reduction sir, bound 1)."""
    p = subprocess.run([siren, "check", str(program), *clang_args, "--engine", "bmc", "--reduction", "sir",
                        "--bound", "1", "--json"], capture_output=True, text=True, timeout=600)
    try:
        j = json.loads(p.stdout)
    except json.JSONDecodeError:
        return {}
    stats = {}
    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k.startswith("sir_"):
                    stats[k] = v
                else:
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(j)
    return stats


def existing_rows(md):
    """The rows of the table in md (driver -> its line, CPU seconds per reduction, warnings
    answered differently) and the commands that made them."""
    text = md.read_text() if md.exists() else ""
    if BEGIN not in text or END not in text:
        return {}, []
    block = text[text.index(BEGIN):text.index(END)]
    rows = {}
    header = []
    split = lambda line: [c.strip() for c in line.strip().strip("|").split("|")]
    for line in block.splitlines():
        if line.startswith("| driver"):
            header = split(line)
            continue
        if not line.startswith("| ") or not header:
            continue
        cells = dict(zip(header, split(line)))
        if "shared" not in cells:  # a row of the table before the shared column: "?" there
            cells["shared"] = "?"
        rows[cells["driver"]] = {"cells": cells, "differ": int(cells["differ"]),
                                 "cpu": {red: float(cells[f"{red} CPU s"]) for red in REDUCTIONS}}
    commands = re.findall(r"`(benchmarks/table1\.py[^`]*)`", block.split("\n\n")[1] if "\n\n" in block else "")
    return rows, commands


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--siren", default=str(ROOT / "build" / "siren"))
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    ap.add_argument("--bound", type=int, default=8)
    ap.add_argument("--total-timeout", type=float, default=600)
    ap.add_argument("--only", default="")
    ap.add_argument("--keep", default="")
    ap.add_argument("--append", action="store_true",
                    help="keep the table's rows of drivers this run does not make (a sweep in parts, one binary)")
    ap.add_argument("--restat", action="store_true",
                    help="triage nothing: recompute the columns of SIR's analysis (shared, relevant shared, pairs, "
                         "graph ms) of the table's rows with this binary, on the harness of every pair (emitted by "
                         "a bound-1 triage); the time and verdict columns stay those of their run")
    a = ap.parse_args()
    model = driver_suite.model_dir(a.shared)
    rows = []
    restat = {}
    if a.restat:
        a.append = True
        with tempfile.TemporaryDirectory() as tmp:
            known = existing_rows(ROOT / "benchmarks" / "TABLE1.md")[0]
            for name, d in driver_suite.drivers(a.shared):
                if name not in known:
                    continue
                h = Path(tmp) / d.parent.name
                subprocess.run([a.siren, "triage", "--driver", str(d), "-I", str(model), "--emit-harness", str(h),
                                "--out", str(h) + ".jsonl", "--bound", "1", "--total-timeout", "60", "--jobs", "1",
                                "-q"], capture_output=True, text=True)
                manifest = h / "manifest.jsonl"
                if manifest.exists() and manifest.read_text():
                    first = json.loads(manifest.read_text().splitlines()[0])
                    restat[name] = sir_stats(a.siren, h / first["program"], first.get("clang_args", []))
                    print(f"{name}: {restat[name].get('sir_shared_vars')} shared", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        for name, d in ([] if a.restat else driver_suite.drivers(a.shared, a.only)):
            work = (Path(a.keep) if a.keep else Path(tmp)) / d.parent.name
            if work.exists():
                shutil.rmtree(work)
            work.mkdir(parents=True)
            row = {"driver": name, "runs": {}}
            for red in REDUCTIONS:
                out = work / f"{red}.jsonl"
                cmd = [a.siren, "triage", "--driver", str(d), "-I", str(model), "--emit-harness",
                       str(work / f"h-{red}"), "--out", str(out), "--bound", str(a.bound), "--reduction", red,
                       "--total-timeout", str(a.total_timeout), "--jobs", "1", "-q"]
                p, cpu, peak, wall = timed(cmd)
                lines = [json.loads(l) for l in out.read_text().splitlines()] if out.exists() else []
                verdicts = {l["id"]: l["verdict"] for l in lines}
                cut = sum(1 for l in lines if l["verdict"] == "UNKNOWN" and (
                    l.get("reason", "").startswith("not translated") or l.get("reason") == "timeout"))
                row["runs"][red] = {"cpu": cpu, "peak": peak, "wall": wall, "verdicts": verdicts, "cut": cut,
                                    "counts": collections.Counter(verdicts.values()), "rc": p.returncode}
                print(f"{name} {red}: {cpu:.1f} s CPU, {peak:.0f} MB, {len(verdicts)} warnings "
                      f"{dict(row['runs'][red]['counts'])}", file=sys.stderr)
            info_path = work / "h-sir" / "driver.json"
            info = json.loads(info_path.read_text()) if info_path.exists() else {}
            row["entries"] = len(info.get("entry_points", []))
            row["pairs"] = info.get("pairs", 0)
            manifest = work / "h-sir" / "manifest.jsonl"
            first = json.loads(manifest.read_text().splitlines()[0]) if manifest.exists() and manifest.read_text() else None
            row["stats"] = sir_stats(a.siren, work / "h-sir" / first["program"], first.get("clang_args", [])) if first else {}
            row["harness"] = first["program"] if first else ""
            # the same verdicts in all three (where each answered: a run cut by the time limit
            # leaves UNKNOWN lines, which are not compared)
            answered = lambda red: {k: v for k, v in row["runs"][red]["verdicts"].items() if v != "UNKNOWN"}
            base = answered("none")
            row["differ"] = sum(1 for red in ("mpor", "sir") for k, v in answered(red).items()
                                if k in base and base[k] != v)
            rows.append(row)
    md = ROOT / "benchmarks" / "TABLE1.md"
    command = ("benchmarks/table1.py --restat" if a.restat else
               f"benchmarks/table1.py --bound {a.bound} --total-timeout {a.total_timeout:g}"
               + (f" --only {a.only}" if a.only else "") + (" --append" if a.append else ""))
    kept, commands = existing_rows(md) if a.append else ({}, [])
    for r in rows:
        kept.pop(r["driver"], None)
    commands.append(command)
    table = [BEGIN, "",
             ", then ".join(f"`{c}`" for c in commands) + " on the 2-core machine, nothing else running. "
             "*shared*: the shared variables of SIR's dependent pairs (`sir_shared_vars`); "
             "*relevant shared*: those a relevant use reads (`sir_relevant_shared_vars`), on the harness named "
             "(after a `--restat`, these columns and the next two are that binary's); *pairs*: SIR's dependent pairs: insensitive "
             "without invariants (no relevant use reads them; in brackets those with a balanced critical section, "
             "docs/sir.md) / insensitive by the graph / sensitive; *graph ms*: "
             "the transaction graph's time (0: none needed); per reduction: triage CPU seconds (siren and what it "
             "waited for, analysis included), peak MB, and warnings answered RACE / NO_RACE (incl. up to bound) / "
             "UNKNOWN (cut: not reached in the time); *differ*: warnings answered differently by two reductions "
             "(must be 0).",
             "",
             "| " + " | ".join(COLUMNS) + " |",
             "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|"]
    lines = {}
    for r in rows:
        s = r["stats"]
        runs = r["runs"]
        def vc(red):
            c = runs[red]["counts"]
            no = c["NO_RACE"] + c["NO_RACE_UP_TO_BOUND"] + c["NO_ACCESS"]
            return f"{c['RACE']} / {no} / {c['UNKNOWN']} ({runs[red]['cut']})"
        ratio = runs["sir"]["cpu"] / runs["mpor"]["cpu"] if runs["mpor"]["cpu"] > 0 else 0
        cells = {"driver": r["driver"], "entry points": r["entries"], "pairs": r["pairs"],
                 "harness": r["harness"][:24], "none CPU s": f"{runs['none']['cpu']:.1f}",
                 "none MB": f"{runs['none']['peak']:.0f}", "mpor CPU s": f"{runs['mpor']['cpu']:.1f}",
                 "mpor MB": f"{runs['mpor']['peak']:.0f}", "sir CPU s": f"{runs['sir']['cpu']:.1f}",
                 "sir MB": f"{runs['sir']['peak']:.0f}", "sir / mpor CPU": f"{ratio:.2f}",
                 VERDICTS: f"{vc('none')}; {vc('mpor')}; {vc('sir')}", "differ": r["differ"]}
        cells.update(stat_cells(s))
        lines[r["driver"]] = row_line(cells)
    for name, k in kept.items():
        if a.restat and name in restat:
            k["cells"].update(stat_cells(restat[name]))
        lines[name] = row_line(k["cells"])
    table += [lines[name] for name in sorted(lines)]
    tot = lambda red: sum(r["runs"][red]["cpu"] for r in rows) + sum(k["cpu"][red] for k in kept.values())
    differ = sum(r["differ"] for r in rows) + sum(k["differ"] for k in kept.values())
    if lines:
        table += ["", f"Total CPU ({len(lines)} drivers): none {tot('none'):.0f} s, mpor {tot('mpor'):.0f} s, "
                      f"sir {tot('sir'):.0f} s (sir / mpor {tot('sir') / max(tot('mpor'), 1e-9):.2f}); warnings "
                      f"answered differently: {differ}."]
    table += ["", END]
    driver_suite.write_between(md, BEGIN, END, table, "# SIR's Table 1 on the Linux 4.0 drivers (issue 42)\n\n")


if __name__ == "__main__":
    main()
