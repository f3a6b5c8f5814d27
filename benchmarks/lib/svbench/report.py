"""Markdown summary of a benchmark run (summary.md in the output folder, RESULTS.md)."""

import collections
import os
import platform
import subprocess

from .outcome import OUTCOMES
from .scoring import totals_by, to_float

SUMMARY_HEADER = ("tasks", "correct true (proofs / of them for any number of threads / thread-bounded)", "correct false", "wrong true", "wrong false",
                  "unknown", "timeout", "memout", "crash", "error", "unparseable", "score",
                  "CPU s", "CPU s correct")


def machine_description():
    """nproc, memory, CPU model, OS, Python: what RESULTS.md needs to be read against."""
    desc = {}
    try:
        desc["nproc"] = len(os.sched_getaffinity(0))
    except AttributeError:
        desc["nproc"] = os.cpu_count()
    desc["cpu"] = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    desc["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    desc["memory"] = "unknown"
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    desc["memory"] = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                    break
    except (OSError, ValueError):
        pass
    desc["os"] = platform.platform()
    desc["python"] = platform.python_version()
    return desc


def siren_version(siren):
    """(`git describe` of the tree the binary sits in, first line of `siren --version`)."""
    where = os.path.dirname(os.path.realpath(siren)) or "."
    try:
        describe = subprocess.run(["git", "-C", where, "describe", "--always", "--dirty",
                                   "--tags"], capture_output=True, text=True,
                                  timeout=10).stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        describe = "unknown"
    try:
        out = subprocess.run([siren, "--version"], capture_output=True, text=True, timeout=10)
        version = (out.stdout.strip().splitlines() or ["unknown"])[0]
    except (OSError, subprocess.SubprocessError):
        version = "unknown"
    return describe, version


def _table(header, rows, numeric_from=None):
    """Markdown table; columns from index numeric_from on are right-aligned."""
    align = ["---:" if numeric_from is not None and i >= numeric_from else "---"
             for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    for r in rows:
        lines.append("| " + " | ".join(str(c) for c in r) + " |")
    return "\n".join(lines)


def _totals_cells(t):
    return [t.tasks, f"{t.correct_true} ({t.proofs} / {t.any_threads} / {t.thread_bounded})", t.correct_false, t.wrong_true,
            t.wrong_false, t.unknown, t.timeout, t.memout, t.crash, t.error, t.unparseable,
            f"**{t.score}**", f"{t.cpu_seconds:.1f}", f"{t.cpu_correct:.1f}"]


def _cell(row):
    secs = to_float(row.get("cpu_seconds"))
    time = f" {secs:.2f} s" if secs is not None else ""
    out = row["outcome"]
    if row.get("schedules") not in (None, "") and out == "unknown":   # siren check --count-schedules
        return f"{row['schedules']} schedules{time}"
    if out in ("correct", "wrong"):
        verdict = row["verdict"]
        word = "ok" if out == "correct" else "**WRONG**"
        return f"{verdict} {word}{time}"
    if out == "unknown":
        return f"UNKNOWN{time}"
    if out == "timeout" and row.get("verdict") != "UNKNOWN":
        wall = to_float(row.get("seconds"))
        return "timeout" + (f" ({wall:.1f} s wall)" if wall is not None else "")
    return f"{out}{time}"


def render(rows, meta, plot_dir=None, plot_names=()):
    """The markdown text. meta: command, date, machine, siren, siren_describe, siren_version,
    tasks_dir, timeout, memory_mb, jobs, configs [(name, args)], wall_seconds, skipped
    [(task, property)], problems [str]. plot_dir: path of the plots relative to the markdown."""
    configs = [name for name, _ in meta["configs"]]
    m = meta["machine"]
    out = ["# siren on SV-COMP tasks", ""]
    out.append("Regenerate with (from the repository root):")
    out += ["", "```", meta["command"], "```", ""]
    out.append(f"- date: {meta['date']}; wall-clock time of the whole run: "
               f"{meta.get('wall_seconds', 0):.0f} s")
    out.append(f"- siren: `{meta['siren']}`, `git describe`: `{meta['siren_describe']}`, "
               f"`--version`: `{meta['siren_version']}`")
    out.append(f"- machine: {m['cpu']}, nproc {m['nproc']}, memory {m['memory']}, {m['os']}, "
               f"Python {m['python']}")
    out.append(f"- limits per run: {meta['timeout']:g} s wall clock (siren gets `--timeout`), "
               f"{meta['memory_mb']} MB address space (siren gets `--memory`); "
               f"{meta['jobs']} runs in parallel" +
               (f"; the runs of {', '.join(meta['alone'])} ran one at a time with nothing beside them"
                if meta.get("alone") else ""))
    out.append(f"- tasks: `{meta['tasks_dir']}`")
    out.append("")
    out.append("## Configurations")
    out.append("")
    out.append(_table(["name", "siren arguments"],
                      [[n, f"`{a}`" if a else "(none)"] for n, a in meta["configs"]]))
    out.append("")
    out.append("## Summary per configuration")
    out.append("")
    out.append("Score: +2 correct true, +1 correct false, −32 wrong true, −16 wrong false, "
               "0 otherwise. \"correct true (proofs / of them for any number of threads / "
               "thread-bounded)\": SAFE and SAFE_UP_TO_BOUND both "
               "count as a correct true answer; in parentheses, how many were full proofs (SAFE), how "
               "many of those proofs hold for any number of threads (a program that can create threads "
               "without a bound; `bounds.threads` \"unbounded\" in siren's JSON, docs/unbounded-threads.md) "
               "and how many answers held up to a thread bound only (the program can create more threads; "
               "`bounds.threads` N). "
               "\"wrong true\" = answered true when the expected verdict is false.")
    out.append("")
    per_config = totals_by(rows, lambda r: r["config"])
    out.append(_table(["config", *SUMMARY_HEADER],
                      [[c, *_totals_cells(per_config[c])] for c in configs if c in per_config],
                      numeric_from=1))
    out.append("")
    out.append("## Per folder")
    out.append("")
    per_folder = totals_by(rows, lambda r: (r["folder"], r["config"]))
    keys = sorted(per_folder, key=lambda k: (k[0], configs.index(k[1])
                                             if k[1] in configs else 99))
    out.append(_table(["folder", "config", *SUMMARY_HEADER],
                      [[f, c, *_totals_cells(per_folder[(f, c)])] for f, c in keys],
                      numeric_from=2))
    out.append("")
    if plot_names:
        out.append("## Plots")
        out.append("")
        for name in plot_names:
            path = os.path.join(plot_dir, name) if plot_dir else name
            out.append(f"![{name}]({path})")
            out.append("")
    out.append("## Per task")
    out.append("")
    out.append("Cells: the verdict and whether it is right (ok / **WRONG**), or the outcome, or "
               "the number of schedules counted (`--count-schedules`); CPU time (wall-clock "
               "time for runs killed at the limit).")
    out.append("")
    by_task = collections.OrderedDict()
    for r in rows:
        by_task.setdefault((r["task"], r["property"], r["expected"]), {})[r["config"]] = r
    out.append(_table(["task", "property", "expected", *configs],
                      [[t, p, e, *[_cell(cs[c]) if c in cs else "" for c in configs]]
                       for (t, p, e), cs in by_task.items()]))
    out.append("")
    skipped = meta.get("skipped") or []
    if skipped or meta.get("problems"):
        out.append("## Skipped")
        out.append("")
        if skipped:
            counts = collections.Counter(p for _, p in skipped)
            out.append("Properties without a siren command yet (see `PROPERTY_COMMANDS` in "
                       "`benchmarks/lib/svbench/runner.py`):")
            out.append("")
            out.append(_table(["property", "tasks"], sorted(counts.items()), numeric_from=1))
            out.append("")
        for p in meta.get("problems") or []:
            out.append(f"- unreadable task file: {p}")
        if meta.get("problems"):
            out.append("")
    counts = collections.Counter(r["outcome"] for r in rows)
    out.append("Outcomes over all runs: " + ", ".join(f"{o} {counts[o]}" for o in OUTCOMES) + ".")
    out.append("")
    return "\n".join(out)
