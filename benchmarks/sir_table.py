#!/usr/bin/python3
"""none / mpor / sir on the shared SV-COMP tasks (unreach-call and no-data-race), in the spirit
of the seed's Table 1.

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

For a no-data-race task the statistics are those of the sweep's own `siren race --json
--reduction sir` run (its log next to the results.csv: logs/sir/TASK.no-data-race.out), which
analyses the race query, not an assertion. With --table1 FILE, the no-data-race tasks are also
written as the second table of benchmarks/TABLE1.md (issue 42), between its markers.

Usage: benchmarks/sir_table.py RESULTS_CSV [COUNTS_CSV ...] [--siren build/siren] [--out benchmarks/SIR.md]
                               [--table1 benchmarks/TABLE1.md]
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


def logged_stats(results_csv, task, prop):
    """SIR's statistics of the sweep's own `sir` run of TASK (its --json log), or None."""
    log = os.path.join(os.path.dirname(os.path.abspath(results_csv)), "logs", "sir", task + "." + prop + ".out")
    try:
        with open(log) as f:
            stats = json.load(f).get("stats", {})
    except (OSError, json.JSONDecodeError):
        return None
    return {k: v for k, v in stats.items() if k.startswith("sir_")} or None


def fmt_run(r):
    if r is None:
        return "–"
    v = (r["verdict"] or r["outcome"] or "?").replace("UP_TO_BOUND", "≤K")  # "error": an input error
    mark = {"correct": "", "wrong": " **WRONG**"}.get(r["outcome"], "")
    return "%s%s %.1f s %.0f MB" % (v, mark, float(r["cpu_seconds"] or 0), float(r["peak_mb"] or 0))


TABLE1_BEGIN, TABLE1_END = "<!-- sir_table.py races: begin -->", "<!-- sir_table.py races: end -->"


def pairs_cell(st):
    """SIR's dependent pairs: insensitive without invariants / by the graph / sensitive."""
    if not st:
        return "–"
    ins, irr = st.get("sir_insensitive_pairs", 0), st.get("sir_irrelevant_pairs", 0)
    return "%s / %s / %s" % (irr, ins - irr, st.get("sir_ss_pairs", "–"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results_csv", nargs="+")
    ap.add_argument("--siren", default=os.path.join(ROOT, "build", "siren"))
    ap.add_argument("--out", default=os.path.join(HERE, "SIR.md"))
    ap.add_argument("--command", default="", help="the sweep's command lines, quoted in the report")
    ap.add_argument("--table1", default="", help="also write the no-data-race tasks into this TABLE1.md")
    a = ap.parse_args()

    rows = []
    source = {}
    for path in a.results_csv:
        for r in csv.DictReader(open(path)):
            rows.append(r)
            source.setdefault((r["task"], r["property"]), path)
    by = {}
    tasks = []  # (task, property)
    for r in rows:
        key = (r["task"], r["property"])
        by[(r["config"], key)] = r
        if key not in tasks and r["config"] in ("none", "mpor", "sir"):
            tasks.append(key)
    path_of = {(r["task"], r["property"]): r["input_file"] for r in rows}
    stats = {k: (logged_stats(source[k], k[0], k[1]) if k[1] == "no-data-race" else analysis(a.siren, path_of[k]))
             for k in tasks}

    configs = ["none", "mpor", "sir"]
    props = [p for p in ("unreach-call", "no-data-race") if any(k[1] == p for k in tasks)]
    out = []
    out.append("# `--reduction none` / `mpor` / `sir` on the shared SV-COMP tasks\n")
    out.append("Made by `benchmarks/sir_table.py` from `benchmarks/run` sweeps (`siren check --engine bmc` on "
               "the unreach-call tasks, see [MPOR.md](MPOR.md) for why `--engine bmc`; `siren race` on the "
               "no-data-race tasks):\n")
    if a.command:
        out.append("```\n%s\n```\n" % a.command)
    out.append("The runner's own report of the unreach-call sweep (cactus plot, the scatter plots, among them "
               "[sir vs mpor](sir/results/scatter_mpor_vs_sir.png)) is [sir/RESULTS.md](sir/RESULTS.md); the "
               "no-data-race sweep's CSV is [sir/race/results.csv](sir/race/results.csv).\n")
    out.append("## Totals\n")
    out.append("| property | tasks | | none | mpor | sir |\n|---|---:|---|---:|---:|---:|")
    for p in props:
        ks = [k for k in tasks if k[1] == p]
        for what in ("correct", "wrong"):
            out.append("| %s | %d | %s | %s |" % (p, len(ks), what, " | ".join(
                str(sum(1 for k in ks if by.get((c, k), {}).get("outcome") == what)) for c in configs)))
    out.append("")
    for p in props:
        ks = [k for k in tasks if k[1] == p]
        with_pairs = [k for k in ks if stats.get(k) and stats[k].get("sir_insensitive_pairs", 0) > 0]
        gave_up = [k for k in ks if not stats.get(k) or stats[k].get("sir_gave_up")]
        both = [k for k in ks if by.get(("mpor", k), {}).get("outcome") == "correct"
                and by.get(("sir", k), {}).get("outcome") == "correct"]
        ratios = sorted(((float(by[("sir", k)]["cpu_seconds"]) / max(float(by[("mpor", k)]["cpu_seconds"]), 0.01),
                          k[0], float(by[("mpor", k)]["cpu_seconds"]), float(by[("sir", k)]["cpu_seconds"]))
                         for k in both), reverse=True)
        out.append("* **%s**: SIR's analysis ran on %d of %d tasks and gave up on %d (then sir is mpor); "
                   "**insensitive pairs on %d tasks** (%s)." %
                   (p, len(ks) - len(gave_up), len(ks), len(gave_up), len(with_pairs),
                    ", ".join(k[0] for k in with_pairs) or "none"))
        if ratios:
            worst = ratios[0]
            tm = sum(r[2] for r in ratios)
            ts = sum(r[3] for r in ratios)
            out.append("  sir / mpor CPU on the %d tasks both answer correctly: %.2f in total (mpor %.1f s, sir "
                       "%.1f s); worst %.2f (%s: mpor %.2f s, sir %.2f s); %d of %d within 1.2." %
                       (len(ratios), ts / max(tm, 0.01), tm, ts, worst[0], worst[1], worst[2], worst[3],
                        sum(1 for r in ratios if r[0] <= 1.2), len(ratios)))
    out.append("")
    out.append("## Per task\n")
    out.append("Cells: verdict, CPU seconds, peak MB (≤K: no violation up to the bound). *schedules*: "
               "complete schedules counted by `--count-schedules` (mpor / sir; – not counted). *shared*: "
               "shared variables of SIR's dependent pairs (`sir_shared_vars`), *rel*: those a relevant use "
               "reads; *pairs*: SIR's dependent pairs, insensitive without invariants / by the graph / "
               "sensitive; *ms*: analysis time (graph included). For unreach-call these come from running "
               "the analysis alone (`siren check --reduction sir -k 1`) when the report is written, for "
               "no-data-race from the sweep's own `siren race --reduction sir` run; *gave up* empty: the "
               "analysis ran.\n")
    out.append("| task | property | expected | none | mpor | sir | schedules mpor / sir | shared | rel | pairs | ms "
               "| gave up |")
    out.append("|---|---|---|---|---|---|---|---:|---:|---|---:|---|")
    for k in tasks:
        st = stats.get(k) or {}
        sched = []
        for c in ("mpor-count", "sir-count"):
            r = by.get((c, k))
            sched.append(r["schedules"] if r and r["schedules"] else "–")
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            k[0], k[1], by.get(("mpor", k), {}).get("expected", ""), fmt_run(by.get(("none", k))),
            fmt_run(by.get(("mpor", k))), fmt_run(by.get(("sir", k))), " / ".join(sched),
            st.get("sir_shared_vars", "–"), st.get("sir_relevant_shared_vars", "–"), pairs_cell(st),
            st.get("sir_analysis_ms", "–"), "yes" if (not st or st.get("sir_gave_up")) else ""))
    with open(a.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print("wrote", a.out)

    if a.table1:
        races = [k for k in tasks if k[1] == "no-data-race"]
        t = [TABLE1_BEGIN, "",
             "The shared SV-COMP no-data-race tasks (`siren race`, one program each), from the same sweep as "
             "[SIR.md](SIR.md) (its command there), in this table's columns where they apply: a task is one "
             "program, not a driver's pairs; *graph ms* is SIR's transaction graph; CPU seconds and peak MB "
             "per reduction; *differ*: tasks answered differently by two reductions (must be 0). Schedules "
             "are not counted for race queries (`--count-schedules` is `check`'s).", "",
             "| task | expected | shared | relevant shared | SIR pairs: irrelevant / by graph / sensitive | graph ms "
             "| none | mpor | sir | sir / mpor CPU | differ |",
             "|---|---|---:|---:|---|---:|---|---|---|---:|---:|"]
        differ_total = 0
        cpu = {c: 0.0 for c in configs}
        for k in races:
            st = stats.get(k) or {}
            runs = {c: by.get((c, k)) for c in configs}
            answered = {c: r["verdict"] for c, r in runs.items() if r and r["verdict"] not in ("UNKNOWN", "", None)}
            differ = len(set(answered.values())) > 1
            differ_total += differ
            for c in configs:
                cpu[c] += float(runs[c]["cpu_seconds"] or 0) if runs[c] else 0
            m = float(runs["mpor"]["cpu_seconds"] or 0) if runs["mpor"] else 0
            sv = float(runs["sir"]["cpu_seconds"] or 0) if runs["sir"] else 0
            t.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2f | %d |" % (
                k[0], runs["mpor"]["expected"] if runs["mpor"] else "", st.get("sir_shared_vars", "–"),
                st.get("sir_relevant_shared_vars", "–"), pairs_cell(st), st.get("sir_graph_ms", "–"),
                fmt_run(runs["none"]), fmt_run(runs["mpor"]), fmt_run(runs["sir"]), sv / max(m, 0.01), differ))
        t += ["", "Total CPU (%d tasks): none %.1f s, mpor %.1f s, sir %.1f s (sir / mpor %.2f); tasks answered "
                  "differently: %d." % (len(races), cpu["none"], cpu["mpor"], cpu["sir"],
                                        cpu["sir"] / max(cpu["mpor"], 0.01), differ_total), "", TABLE1_END]
        sys.path.insert(0, os.path.join(HERE, "lib"))
        import driver_suite
        driver_suite.write_between(a.table1, TABLE1_BEGIN, TABLE1_END, t)
        print("wrote", a.table1)


if __name__ == "__main__":
    sys.exit(main())
