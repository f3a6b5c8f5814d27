#!/usr/bin/python3
"""Triage of a whole code base (issue 24): one manifest over every shared SV-COMP no-data-race
task with lockset candidate pairs, answered (1) by the local executor (`--jobs 2`), (2) through
Slurm on the same machine's 2 CPUs (`--executor slurm`, the cluster of scripts/slurm-local), and
(3) as one siren run per warning (its own front end, encoding and solver). Checks that (1) and
(2) give the same verdicts, and appends the table to benchmarks/TRIAGE.md (replacing an earlier
one): wall-clock seconds, the Slurm overhead ratio (2)/(1) and the amortisation ratio (3)/(1).

Usage: benchmarks/triage_manifest.py [--siren build/siren] [--shared ../shared] [--timeout 2]
  --timeout: seconds of solving per warning in every run (siren triage --timeout)
"""
import argparse
import csv
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARK = "## A code base in one manifest"


def run(cmd, timeout=3600):
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return time.monotonic() - t, p


def verdicts(path):
    """id -> verdict, with UNKNOWN answers that hit the solving limit as "timeout"."""
    out = {}
    for line in Path(path).read_text().splitlines():
        j = json.loads(line)
        out[j["id"]] = "timeout" if j["verdict"] == "UNKNOWN" and j.get("reason") == "timeout" else j["verdict"]
    return out


def compare(local, slurm):
    """(warnings whose verdicts differ while both are decided, warnings where one run timed out)."""
    differ = [k for k in local if local[k] != "timeout" and slurm.get(k, "timeout") != "timeout" and local[k] != slurm[k]]
    timing = [k for k in set(local) | set(slurm) if (local.get(k) == "timeout") != (slurm.get(k) == "timeout")]
    return sorted(differ), sorted(timing)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--siren", default=str(ROOT / "build" / "siren"))
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    ap.add_argument("--timeout", type=float, default=2)
    ap.add_argument("--output", default=str(ROOT / "benchmarks" / "TRIAGE.md"))
    args = ap.parse_args()
    siren = str(Path(args.siren).resolve())
    index = Path(args.shared).resolve() / "benchmarks" / "svcomp" / "INDEX.tsv"
    tmp = Path(tempfile.mkdtemp(prefix="siren-manifest-"))

    # The programs with lockset candidates (a program-only triage that answers something).
    programs, seen = [], set()
    with open(index) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            prog = index.parent / row["category"] / row["input_file"]
            if row["property"] != "no-data-race" or prog in seen:
                continue
            seen.add(prog)
            probe = tmp / "probe.jsonl"
            probe.unlink(missing_ok=True)
            run([siren, "triage", "--program", str(prog), "--out", str(probe), "-q", "--timeout", "0.01"])
            if probe.exists() and probe.read_text().strip():
                programs.append(prog)
    manifest = tmp / "manifest.jsonl"
    manifest.write_text("".join(json.dumps({"program": str(p)}) + "\n" for p in programs))
    common = ["--manifest", str(manifest), "--timeout", str(args.timeout), "-q"]

    local_s, p = run([siren, "triage", *common, "--jobs", "2", "--out", str(tmp / "local.jsonl")])
    if not (tmp / "local.jsonl").exists():
        sys.exit(f"local run failed: {p.stderr.strip()[:300]}")
    local = verdicts(tmp / "local.jsonl")
    slurm_s, p = run([siren, "triage", *common, "--executor", "slurm", "--out", str(tmp / "slurm.jsonl")])
    if not (tmp / "slurm.jsonl").exists():
        sys.exit(f"slurm run failed (is scripts/slurm-local start running?): {p.stderr.strip()[:300]}")
    slurm = verdicts(tmp / "slurm.jsonl")
    differ, timing = compare(local, slurm)
    same = not differ and set(local) == set(slurm)

    # One run per warning: a single-warning triage of the same pair.
    separate_s = 0.0
    for n, line in enumerate((tmp / "local.jsonl").read_text().splitlines()):
        j = json.loads(line)
        w = tmp / f"w{n}.json"
        w.write_text(json.dumps([{"first": j["first"], "second": j["second"]}]))
        s, _ = run([siren, "triage", str(w), "--program", j["program"], "--out", str(tmp / f"o{n}.jsonl"), "-q",
                    "--timeout", str(args.timeout)])
        separate_s += s

    counts = {}
    for v in local.values():
        counts[v] = counts.get(v, 0) + 1
    mix = ", ".join(f"{k} {counts[k]}" for k in sorted(counts))
    commit = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"], capture_output=True,
                            text=True).stdout.strip()
    table = f"""{MARK}

Every shared `no-data-race` task with lockset candidate pairs ({len(programs)} programs, {len(local)}
warnings) in ONE manifest, `siren triage --manifest M --timeout {args.timeout:g}` (seconds of solving
per warning), on the same 2-core machine: the local executor with `--jobs 2`, the same manifest
through Slurm (`--executor slurm`; the single-node cluster of `scripts/slurm-local`, 2 CPUs), and
one separate siren run per warning. Wall-clock seconds; siren `{commit}`.

Command: `scripts/slurm-local start && benchmarks/triage_manifest.py --timeout {args.timeout:g}`

| run | seconds | ratio to local |
|---|---:|---:|
| local executor, `--jobs 2` (one encoding per program) | {local_s:.1f} | 1.0 |
| Slurm executor, same 2 CPUs (overhead) | {slurm_s:.1f} | {slurm_s / local_s:.2f} |
| one run per warning (amortisation) | {separate_s:.1f} | {separate_s / local_s:.2f} |

Verdicts (local): {mix}. Of the warnings both runs decided, Slurm's verdicts are
{"exactly" if same else "NOT"} the local executor's{f" (differing: {', '.join(differ)})" if differ else ""};
{len(timing)} warning(s) reached the {args.timeout:g} s solving limit in one run and not in the other
(timing){": " + ", ".join(timing) if timing else ""}.
"""
    out = Path(args.output)
    text = out.read_text() if out.exists() else ""
    if MARK in text:
        text = text[:text.index(MARK)].rstrip() + "\n"
    out.write_text(text + "\n" + table)
    print(table)
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
