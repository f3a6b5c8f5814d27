#!/usr/bin/python3
"""Triage amortisation (DESIGN.md Part C): for each shared SV-COMP no-data-race task, the time
to triage all lockset candidate pairs with ONE shared encoding (`siren triage --program T`,
--jobs 1) versus one separate siren run per pair (a triage of that single pair: its own front
end, encoding and solver, as `siren race` restricted to the pair). Writes benchmarks/TRIAGE.md.

Usage: benchmarks/triage_amortisation.py [--siren build/siren] [--shared ../shared] [--timeout 60]
"""
import argparse
import csv
import json
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def triage(siren, prog, warnings_file, out, timeout):
    cmd = [siren, "triage"] + ([str(warnings_file)] if warnings_file else []) + \
          ["--program", str(prog), "--out", str(out), "--jobs", "1", "-q", "--total-timeout", str(timeout)]
    t = time.monotonic()
    subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 60)
    return time.monotonic() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--siren", default=str(ROOT / "build" / "siren"))
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--output", default=str(ROOT / "benchmarks" / "TRIAGE.md"))
    args = ap.parse_args()
    index = Path(args.shared) / "benchmarks" / "svcomp" / "INDEX.tsv"
    rows, seen = [], set()
    with open(index) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["property"] != "no-data-race":
                continue
            prog = index.parent / row["category"] / row["input_file"]
            if prog in seen:
                continue
            seen.add(prog)
            with tempfile.TemporaryDirectory() as tmp:
                out = Path(tmp) / "shared.jsonl"
                shared_t = triage(args.siren, prog, None, out, args.timeout)
                lines = [json.loads(l) for l in out.read_text().splitlines()] if out.exists() else []
                if not lines:
                    print(f"{row['category']}/{row['input_file']}: no candidate pairs (or not understood)")
                    continue
                verdicts = {}
                for j in lines:
                    verdicts[j["verdict"]] = verdicts.get(j["verdict"], 0) + 1
                separate_t = 0.0
                for i, j in enumerate(lines):
                    w = Path(tmp) / f"w{i}.json"
                    w.write_text(json.dumps([{"first": j["first"], "second": j["second"]}]))
                    separate_t += triage(args.siren, prog, w, Path(tmp) / f"o{i}.jsonl", args.timeout)
                ratio = separate_t / shared_t if shared_t > 0 else float("nan")
                rows.append((f"{row['category']}/{row['input_file']}", len(lines), shared_t, separate_t, ratio,
                             ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items()))))
                print(f"{rows[-1][0]}: {len(lines)} pairs, shared {shared_t:.2f} s, separate {separate_t:.2f} s, "
                      f"ratio {ratio:.1f}", flush=True)
    tot_shared = sum(r[2] for r in rows)
    tot_sep = sum(r[3] for r in rows)
    md = ["# Triage amortisation", "",
          "All lockset candidate pairs of each shared SV-COMP `no-data-race` task, triaged with ONE",
          "shared encoding (`siren triage --program T --jobs 1`: every pair is a query under an",
          "assumption at every depth) versus one separate siren process per pair (its own front end,",
          "encoding and solver). Wall-clock seconds, including the front end; tasks the front end",
          "does not understand or without candidates are left out.", "",
          "Command: `benchmarks/triage_amortisation.py --siren build/siren --timeout "
          f"{args.timeout:g}`", "",
          "| task | pairs | shared encoding (s) | one run per pair (s) | ratio | verdicts |",
          "|---|---:|---:|---:|---:|---|"]
    for r in rows:
        md.append(f"| {r[0]} | {r[1]} | {r[2]:.2f} | {r[3]:.2f} | {r[4]:.1f} | {r[5]} |")
    md.append(f"| **total** | {sum(r[1] for r in rows)} | {tot_shared:.2f} | {tot_sep:.2f} | "
              f"{(tot_sep / tot_shared if tot_shared else float('nan')):.1f} | |")
    Path(args.output).write_text("\n".join(md) + "\n")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
