#!/usr/bin/python3
"""none / mpor / sir on the shared SV-COMP tasks, in the spirit of the seed's Table 1.

Reads the results.csv of a `benchmarks/run` sweep with the configurations none, mpor, sir
(and optionally mpor-count, sir-count for the counted schedules, from the same or a further
results.csv), runs SIR's analysis alone
on every task of that sweep (`siren check --reduction sir --engine bmc -k 1 --json`: its
`sir_*` statistics: relevant shared variables, SS-pairs, insensitive pairs, whether it gave
up, analysis time), and writes a markdown report: per task verdict, CPU time and peak memory
per configuration, schedules where counted, the analysis numbers; then the totals, the
1.2x condition of issue 8 (on every task mpor and sir both answer correctly, sir's CPU time
divided by mpor's) and the total time over the tasks whose analysis found relevant shared
variables.

Usage: benchmarks/sir_table.py RESULTS_CSV [COUNTS_CSV] [--siren build/siren] [--out benchmarks/SIR.md]
"""
import argparse
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def analysis(siren, path):
    """SIR's statistics for one task (bound 1: the analysis, next to no solving)."""
    try:
        p = subprocess.run([siren, "check", path, "--engine", "bmc", "--reduction", "sir", "-k", "1", "--json",
                            "--timeout", "60"], capture_output=True, text=True, timeout=90)
        stats = json.loads(p.stdout).get("stats", {})
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        return None
    return {k: v for k, v in stats.items() if k.startswith("sir_")} or None


def fmt_run(r):
    if r is None:
        return "–"
    v = r["verdict"].replace("UP_TO_BOUND", "≤K")
    mark = {"correct": "", "wrong": " **WRONG**"}.get(r["outcome"], "")
    return "%s%s %.1f s %.0f MB" % (v, mark, float(r["cpu_seconds"] or 0), float(r["peak_mb"] or 0))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results_csv", nargs="+")
    ap.add_argument("--siren", default=os.path.join(ROOT, "build", "siren"))
    ap.add_argument("--out", default=os.path.join(HERE, "SIR.md"))
    ap.add_argument("--command", default="", help="the sweep's command line, quoted in the report")
    a = ap.parse_args()

    rows = []
    for path in a.results_csv:
        rows += list(csv.DictReader(open(path)))
    by = {}
    tasks = []
    for r in rows:
        by[(r["config"], r["task"])] = r
        if r["task"] not in tasks and r["config"] in ("none", "mpor", "sir"):
            tasks.append(r["task"])
    path_of = {r["task"]: r["input_file"] for r in rows}
    stats = {t: analysis(a.siren, path_of[t]) for t in tasks}

    configs = ["none", "mpor", "sir"]
    correct = {c: sum(1 for t in tasks if by.get((c, t), {}).get("outcome") == "correct") for c in configs}
    wrong = {c: sum(1 for t in tasks if by.get((c, t), {}).get("outcome") == "wrong") for c in configs}
    both = [t for t in tasks if by.get(("mpor", t), {}).get("outcome") == "correct"
            and by.get(("sir", t), {}).get("outcome") == "correct"]
    ratios = []
    for t in both:
        m, s = float(by[("mpor", t)]["cpu_seconds"]), float(by[("sir", t)]["cpu_seconds"])
        ratios.append((s / max(m, 0.01), t, m, s))
    ratios.sort(reverse=True)
    relevant = [t for t in both if stats.get(t) and not stats[t].get("sir_gave_up")
                and stats[t].get("sir_relevant_shared_vars", 0) > 0]
    with_pairs = [t for t in tasks if stats.get(t) and stats[t].get("sir_insensitive_pairs", 0) > 0]
    gave_up = [t for t in tasks if not stats.get(t) or stats[t].get("sir_gave_up")]

    out = []
    out.append("# `--reduction none` / `mpor` / `sir` on the shared SV-COMP unreach-call tasks\n")
    out.append("Made by `benchmarks/sir_table.py` from one `benchmarks/run` sweep (BMC engine, see "
               "[MPOR.md](MPOR.md) for why `--engine bmc`):\n")
    if a.command:
        out.append("```\n%s\n```\n" % a.command)
    out.append("The runner's own report of the same sweep (cactus plot, the scatter plots, among them "
               "[sir vs mpor](sir/results/scatter_mpor_vs_sir.png)) is [sir/RESULTS.md](sir/RESULTS.md).\n")
    out.append("## Totals\n")
    out.append("| | none | mpor | sir |\n|---|---:|---:|---:|")
    out.append("| correct | %d | %d | %d |" % tuple(correct[c] for c in configs))
    out.append("| wrong | %d | %d | %d |" % tuple(wrong[c] for c in configs))
    out.append("")
    out.append("* SIR's analysis ran on %d of %d tasks and gave up on %d (then sir is mpor; "
               "`SIREN_SIR_DEBUG=1 siren check --reduction sir ...` prints why: an access through a "
               "pointer, an incomplete transaction graph, a conditional it cannot place); it found "
               "insensitive pairs on %d." %
               (len(tasks) - len(gave_up), len(tasks), len(gave_up), len(with_pairs)))
    if ratios:
        worst = ratios[0]
        out.append("* **1.2x condition** (sir CPU time / mpor CPU time, on the %d tasks both answer "
                   "correctly): worst %.2f (%s: mpor %.2f s, sir %.2f s); %d of %d within 1.2." %
                   (len(ratios), worst[0], worst[1], worst[2], worst[3],
                    sum(1 for r in ratios if r[0] <= 1.2), len(ratios)))
        small = [r for r in ratios if r[0] > 1.2]
        for r in small:
            out.append("  * over 1.2: %s (mpor %.2f s, sir %.2f s)" % (r[1], r[2], r[3]))
    if relevant:
        tm = sum(float(by[("mpor", t)]["cpu_seconds"]) for t in relevant)
        ts = sum(float(by[("sir", t)]["cpu_seconds"]) for t in relevant)
        out.append("* Tasks both answer whose analysis found relevant shared variables: %d; total CPU "
                   "mpor %.2f s, sir %.2f s (analysis included)." % (len(relevant), tm, ts))
    else:
        out.append("* No task that both answer has relevant shared variables found by the analysis.")
    out.append("")
    out.append("## Per task\n")
    out.append("Cells: verdict, CPU seconds, peak MB (≤K: no violation up to the bound). *schedules*: "
               "complete schedules counted by `--count-schedules` (mpor / sir; – not countable in "
               "the time). *rel*: relevant shared variables, *SS* / *ins*: SS-pairs / insensitive "
               "pairs, *ms*: analysis time (graph construction included). These four come from "
               "running the analysis alone (`--reduction sir -k 1`) when the report is written, "
               "not from the sweep; an empty *gave up* means the analysis ran (then *ins* = 0 "
               "still makes sir behave as mpor).\n")
    out.append("| task | expected | none | mpor | sir | schedules mpor / sir | rel | SS | ins | ms | gave up |")
    out.append("|---|---|---|---|---|---|---:|---:|---:|---:|---|")
    for t in tasks:
        st = stats.get(t) or {}
        sched = []
        for c in ("mpor-count", "sir-count"):
            r = by.get((c, t))
            sched.append(r["schedules"] if r and r["schedules"] else "–")
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            t, by.get(("mpor", t), {}).get("expected", ""), fmt_run(by.get(("none", t))),
            fmt_run(by.get(("mpor", t))), fmt_run(by.get(("sir", t))), " / ".join(sched),
            st.get("sir_relevant_shared_vars", "–"), st.get("sir_ss_pairs", "–"),
            st.get("sir_insensitive_pairs", "–"), st.get("sir_analysis_ms", "–"),
            "yes" if (not st or st.get("sir_gave_up")) else ""))
    with open(a.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print("wrote", a.out)


if __name__ == "__main__":
    sys.exit(main())
