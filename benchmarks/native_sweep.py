#!/usr/bin/python3
"""The native oracle over the shared SV-COMP tasks (issue 17): every siren verdict checked
against the real program compiled by clang-16 and run under siren's scheduling runtime.

For every task of ../shared/benchmarks/svcomp/INDEX.tsv whose property siren answers
(unreach-call -> `siren check`, no-data-race -> `siren race`, as in lib/svbench/runner.py):

  1. verdict:  `siren check|race FILE --json --timeout 60 --memory 4096` in the task's folder
               (exactly the runner's command, no extra arguments);
  2. replay:   when siren says UNSAFE, `siren test FILE --replay VERDICT.json [--race] --json`:
               reproduced = exit 10 (the violation / the race happens natively);
  3. stress:   `siren test FILE --strategy pct --depth 0 --runs 2000 --max-steps 20000 --json
               [--race]` (PCT with depth 1, 2, 3 in turn, seed 1): the outcome counts; a native
               violation (race) where siren said SAFE / SAFE up to the bound (no race) is a
               CONTRADICTION. The stress run is made for every task, not only the SAFE ones;
  4. hunt:     an unreach-call task expected `false` whose bug the PCT stress run did not find
               gets `siren test FILE --runs 20000 --json` (the default mixed strategy: PCT,
               demote, random and round robin), so that every such task gets "does `siren
               test` find the bug, in which run k of N, with which strategy";
  5. exit 6 (clang cannot compile it natively) and exit 2 (internal error) are recorded with
     the first line of the message; a task clang cannot compile or link is tried once more
     with --clang-retry's arguments (C89 leftovers: implicit declarations, gnu89 inline).

Rows are appended to WORK/results.partial.csv as tasks finish; a second invocation skips the
tasks already there (--fresh starts over), so an interrupted sweep keeps its results. At the
end the rows are written to benchmarks/native/results.csv and the report to
benchmarks/NATIVE.md. --report re-renders NATIVE.md from a results.csv without running.

Usage (from the repository root):
  benchmarks/native_sweep.py [--siren build/siren] [--native-rt LIB.a] [--jobs 2]
                             [--runs 2000] [--filter REGEX] [--fresh] [--report CSV]
"""
import argparse
import csv
import datetime
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "lib"))

from svbench import outcome as outcome_mod  # noqa: E402
from svbench import runner  # noqa: E402

SUBCOMMAND = dict(runner.PROPERTY_COMMANDS)   # unreach-call -> check, no-data-race -> race

COLUMNS = [
    "category", "task", "property", "expected",
    "verdict", "verdict_outcome", "verdict_seconds", "verdict_exit", "verdict_reason",
    "replay", "replay_exit", "replay_message",
    "stress_result", "stress_exit", "stress_runs", "stress_outcomes", "stress_first_run",
    "stress_seconds", "stress_message",
    "hunt_result", "hunt_runs", "hunt_first_run", "hunt_strategy", "hunt_seconds",
    "contradiction", "bug_found", "native_error", "clang_args", "note",
    "verdict_command", "replay_command", "stress_command", "hunt_command",
]

UNSAFE = "UNSAFE"
COMPILE_NOTE = "compiles natively only"
SAFE_VERDICTS = ("SAFE", "SAFE_UP_TO_BOUND")


# ---------------------------------------------------------------- tasks

def load_index(svcomp, pattern=None):
    """Rows of INDEX.tsv as dicts (category, input_file, property, expected, key)."""
    regex = re.compile(pattern) if pattern else None
    tasks = []
    with open(os.path.join(svcomp, "INDEX.tsv"), encoding="utf-8") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            t = {
                "category": r["category"],
                "task": r["input_file"],
                "property": r["property"],
                "expected": (r["expected_verdict"] or "").strip().lower(),
                "path": os.path.join(svcomp, r["category"], r["input_file"]),
            }
            t["key"] = "%s/%s:%s" % (t["category"], t["task"], t["property"])
            if regex is None or regex.search(t["key"]):
                tasks.append(t)
    return tasks


def key_of(row):
    return "%s/%s:%s" % (row["category"], row["task"], row["property"])


# ---------------------------------------------------------------- one task

def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", errors="replace")
    except OSError:
        return ""


def _first_line(text, limit=240):
    text = re.sub(r"/tmp/siren-test-\w+/", "", text)
    for line in text.splitlines():
        line = " ".join(line.split())
        if line:
            return line if len(line) <= limit else line[: limit - 3] + "..."
    return ""


def _json(text):
    return outcome_mod.parse_json_output(text) or {}


def _run(cmd, cwd, wall, memory_mb, stem):
    """runner.execute with its process-group kill and RLIMIT_AS; returns (run, stdout, stderr)."""
    os.makedirs(os.path.dirname(stem), exist_ok=True)
    run = runner.execute(cmd, cwd, wall, 0, memory_mb, stem + ".out", stem + ".err")
    return run, _read(stem + ".out"), _read(stem + ".err")


def _outcomes_text(outcomes):
    if not isinstance(outcomes, dict):
        return ""
    return " ".join("%s=%s" % (k, outcomes[k]) for k in sorted(outcomes))


def _build_error(err):
    """First line of clang's / the linker's complaint (for a link error: the first undefined
    reference, the first line only names the function)."""
    line = _first_line(err)
    for l in err.splitlines():
        if "undefined reference" in l:
            return line + " " + _first_line(l.split(":", 2)[-1] if l.count(":") >= 2 else l)
    return line


def _native_failure(run, err):
    """A message when a `siren test` run did not give a result (exit 6 / 2 / killed)."""
    code = run["exit_code"]
    if run["timed_out"]:
        return "killed at the wall-clock limit"
    if code == 6:
        return "exit 6 (not compilable): " + _build_error(err)
    if code not in (0, 10):
        return "exit %s (internal error): %s" % (code, _build_error(err))
    return ""


def _native(cmd, cwd, wall, stem, a, state):
    """A `siren test` run; when clang cannot compile or link the program and --clang-retry is
    given, once more with those clang arguments (state remembers them for the next run)."""
    extra = state.get("clang_args", [])
    run, out, err = _run(cmd + (["--"] + extra if extra else []), cwd, wall, 0, stem)
    cannot_build = run["exit_code"] == 6 or (run["exit_code"] == 2 and "could not be linked" in err)
    if cannot_build and not extra and a.clang_retry:
        state["compile_error"] = _build_error(err)
        extra = shlex.split(a.clang_retry)
        run, out, err = _run(cmd + ["--"] + extra, cwd, wall, 0, stem + ".retry")
        if run["exit_code"] != 6:
            state["clang_args"] = extra
    return run, out, err


def do_task(t, a, work):
    prop, path = t["property"], t["path"]
    cwd, name = os.path.dirname(path), os.path.basename(path)
    stem = os.path.join(work, "logs", t["category"], "%s.%s" % (name, prop))
    row = {c: "" for c in COLUMNS}
    row.update(category=t["category"], task=t["task"], property=prop, expected=t["expected"])
    sub = SUBCOMMAND.get(prop)
    if not sub:
        row["note"] = "skipped: no siren command for this property"
        return row
    race = ["--race"] if prop == "no-data-race" else []
    notes, native_errors, state = [], [], {}

    # 1. siren's verdict, the runner's command
    cmd = [a.siren, sub, name, "--json", "--timeout", str(a.timeout), "--memory", str(a.memory)]
    run, out, err = _run(cmd, cwd, a.timeout + 5, a.memory, stem + ".verdict")
    c = outcome_mod.classify(run["exit_code"], out, t["expected"], run["timed_out"])
    reason = c.reason
    if c.outcome in ("crash", "error", "unparseable") and err.strip():
        reason = "%s: %s" % (reason, _first_line(err))
    row.update(verdict=c.verdict or c.outcome.upper(), verdict_outcome=c.outcome,
               verdict_seconds="%.2f" % run["seconds"], verdict_exit=run["exit_code"],
               verdict_reason=_first_line(reason), verdict_command=shlex.join(cmd[1:]))

    # 2. replay of an UNSAFE answer
    if c.verdict == UNSAFE:
        verdict_json = stem + ".verdict.json"
        with open(verdict_json, "w") as f:
            f.write(out)
        cmd = [a.siren, "test", name, "--replay", verdict_json] + race + ["--json"]
        run, out, err = _native(cmd, cwd, a.replay_wall, stem + ".replay", a, state)
        doc = _json(out)
        failed = _native_failure(run, err)
        if failed:
            row["replay"] = "not compilable" if run["exit_code"] == 6 else "error"
            native_errors.append("replay: " + failed)
        else:
            row["replay"] = "reproduced" if run["exit_code"] == 10 else "not reproduced"
        row.update(replay_exit=run["exit_code"],
                   replay_message=_first_line(str(doc.get("message") or doc.get("result") or
                                                  (failed or ""))),
                   replay_command=shlex.join(["test", name, "--replay", "VERDICT.json"] + race))

    # 3./4. stress testing
    cmd = [a.siren, "test", name, "--strategy", "pct", "--depth", "0", "--runs", str(a.runs),
           "--seed", str(a.seed), "--max-steps", str(a.max_steps), "--run-timeout-ms", str(a.run_ms),
           "--timeout", str(a.stress_timeout)] + race + ["--json"]
    run, out, err = _native(cmd, cwd, a.stress_timeout + 120, stem + ".stress", a, state)
    doc = _json(out)
    failed = _native_failure(run, err)
    outcomes = doc.get("outcomes") if isinstance(doc.get("outcomes"), dict) else {}
    row.update(stress_exit=run["exit_code"], stress_runs=doc.get("runs", ""),
               stress_outcomes=_outcomes_text(outcomes),
               stress_seconds="%.2f" % float(doc.get("seconds", run["seconds"]) or 0),
               stress_message=_first_line(str(doc.get("message") or "")),
               stress_command=shlex.join(cmd[1:] + (["--"] + state["clang_args"]
                                                    if state.get("clang_args") else [])))
    if failed:
        row["stress_result"] = "NOT COMPILABLE" if run["exit_code"] == 6 else "ERROR"
        native_errors.append("stress: " + failed)
    else:
        row["stress_result"] = str(doc.get("result") or "")
        if run["exit_code"] == 10 and isinstance(doc.get("run"), int):
            row["stress_first_run"] = doc["run"] + 1
    native_bug = outcomes.get("race", 0) > 0 if race else outcomes.get("violation", 0) > 0
    if c.verdict in SAFE_VERDICTS and native_bug and not failed:
        row["contradiction"] = "yes"
    if race and outcomes.get("violation", 0) > 0:
        notes.append("the race stress run ended in an assertion violation (not a race)")
    if prop == "unreach-call" and t["expected"] == "false":
        found = outcomes.get("violation", 0) > 0
        if not failed and not found:
            # 4. the bug hunt: more runs, every strategy
            cmd = [a.siren, "test", name, "--runs", str(a.hunt_runs), "--seed", str(a.seed),
                   "--max-steps", str(a.max_steps), "--run-timeout-ms", str(a.run_ms),
                   "--timeout", str(a.hunt_timeout), "--json"]
            hrun, hout, herr = _native(cmd, cwd, a.hunt_timeout + 120, stem + ".hunt", a, state)
            hdoc = _json(hout)
            hfailed = _native_failure(hrun, herr)
            if hfailed:
                native_errors.append("hunt: " + hfailed)
            houtcomes = hdoc.get("outcomes") if isinstance(hdoc.get("outcomes"), dict) else {}
            found = houtcomes.get("violation", 0) > 0
            row.update(hunt_result=str(hdoc.get("result") or ("ERROR" if hfailed else "")),
                       hunt_runs=hdoc.get("runs", ""),
                       hunt_first_run=hdoc["run"] + 1 if found and isinstance(hdoc.get("run"), int) else "",
                       hunt_strategy=str(hdoc.get("strategy") or "") if found else "",
                       hunt_seconds="%.2f" % float(hdoc.get("seconds", hrun["seconds"]) or 0),
                       hunt_command=shlex.join(cmd[1:] + (["--"] + state["clang_args"]
                                                          if state.get("clang_args") else [])))
        row["bug_found"] = "n/a" if failed else "yes" if found else "no"
    if t["expected"] == "true" and native_bug and not failed:
        notes.append("native %s on a task expected true" % ("race" if race else "violation"))
    if state.get("clang_args"):
        row["clang_args"] = shlex.join(state["clang_args"])
        notes.append(COMPILE_NOTE + " with `%s`: %s" % (row["clang_args"],
                                                                state["compile_error"]))
    row["native_error"] = " | ".join(native_errors)
    row["note"] = "; ".join(notes)
    return row


# ---------------------------------------------------------------- CSV

def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def write_csv(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


class PartialCsv:
    def __init__(self, path):
        self.path, self.lock = path, threading.Lock()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if not os.path.exists(path):
            write_csv(path, [])

    def append(self, row):
        with self.lock, open(self.path, "a", newline="", encoding="utf-8") as f:
            csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore").writerow(row)


# ---------------------------------------------------------------- report

def machine_note(siren):
    cpu = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(open("/proc/meminfo").readline().split()[1])
        mem = "%.0f GB RAM" % (kb / 1048576.0)
    except (OSError, ValueError, IndexError):
        pass
    try:
        clang = subprocess.run(["clang-16", "--version"], capture_output=True, text=True).stdout
        clang = clang.splitlines()[0]
    except (OSError, IndexError):
        clang = "clang-16 ?"
    try:
        rev = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"],
                             capture_output=True, text=True).stdout.strip()
    except OSError:
        rev = "?"
    return "%d cores (%s), %s, Linux %s, %s; siren built from %s (binary %s)" % (
        os.cpu_count() or 0, cpu, mem, platform.release(), clang, rev, siren)


def _n(x):
    try:
        return int(x)
    except (TypeError, ValueError):
        return 0


def _task_link(r):
    return "%s/%s" % (r["category"], r["task"])


def _compile_note(r):
    """The build error that --clang-retry got around, without siren's prefix."""
    i = r["note"].find(COMPILE_NOTE)      # always the last note of a row
    if i < 0:
        return ""
    msg = r["note"][i:].split(": ", 1)[-1]
    msg = re.sub(r"^.*?(clang could not compile the program|could not be linked with the "
                 r"native runtime): ", "", msg)
    msg = msg.split("; ISO C99")[0]
    return re.sub(r"/tmp/siren-test-\w+/", "", msg)


def _other_notes(r):
    i = r["note"].find(COMPILE_NOTE)
    return (r["note"] if i < 0 else r["note"][:i]).strip().rstrip(";").strip()


def render(rows, meta):
    runnable = [r for r in rows if r["property"] in SUBCOMMAND]
    skipped = [r for r in rows if r["property"] not in SUBCOMMAND]
    unsafe = [r for r in runnable if r["verdict"] == UNSAFE]
    reproduced = [r for r in unsafe if r["replay"] == "reproduced"]
    not_reproduced = [r for r in unsafe if r["replay"] != "reproduced"]
    safe = [r for r in runnable if r["verdict"] in SAFE_VERDICTS]
    safe_tested = [r for r in safe if r["stress_result"] not in ("NOT COMPILABLE", "ERROR", "")]
    safe_runs = sum(_n(r["stress_runs"]) for r in safe_tested)
    contradictions = [r for r in runnable if r["contradiction"] == "yes"]
    false_tasks = [r for r in runnable if r["property"] == "unreach-call" and r["expected"] == "false"]
    found = [r for r in false_tasks if r["bug_found"] == "yes"]
    missed = [r for r in false_tasks if r["bug_found"] == "no"]
    false_uncompilable = [r for r in false_tasks if r["bug_found"] == "n/a"]
    uncompilable = [r for r in runnable if r["stress_result"] == "NOT COMPILABLE"
                    or r["replay"] == "not compilable"]
    errors = [r for r in runnable if r["stress_result"] == "ERROR" or r["replay"] == "error"]
    noted = [r for r in runnable if r["note"]]
    short_safe = [r for r in safe_tested if _n(r["stress_runs"]) < meta.get("runs", 2000)
                  and r["stress_result"] == "NO VIOLATION FOUND"]
    by_verdict = {}
    for r in runnable:
        by_verdict[r["verdict"]] = by_verdict.get(r["verdict"], 0) + 1

    o = []
    o.append("# The native oracle on the shared SV-COMP tasks\n")
    o.append("Every siren answer on the tasks of `../shared/benchmarks/svcomp/INDEX.tsv` checked "
             "against the real program: clang-16 compiles it with siren's scheduling runtime "
             "(`siren test`, see [native/README.md](../native/README.md)) and it runs natively. "
             "Nothing of siren's front end, IR, thread model or interpreter is used by the native "
             "side. Issue 17, \"committed sweep\".\n")
    o.append("Made by [native_sweep.py](native_sweep.py); per-task rows in "
             "[native/results.csv](native/results.csv).\n")
    o.append("```\n%s\n```\n" % meta.get("command", "benchmarks/native_sweep.py --jobs 2"))
    o.append("Per task (in the task's folder):\n")
    o.append("1. `siren check FILE --json --timeout 60 --memory 4096` (unreach-call) or "
             "`siren race FILE ...` (no-data-race): the verdict, the benchmarks runner's command;")
    o.append("2. UNSAFE: `siren test FILE --replay VERDICT.json [--race]`, reproduced = exit 10;")
    o.append("3. every task: `siren test FILE --strategy pct --depth 0 --runs %d --seed %d "
             "--max-steps %d --run-timeout-ms %d --timeout %d [--race] --json` (PCT with depth 1, 2, 3 "
             "in turn; it stops "
             "at the first failing run). A native violation (with `--race`: a race) where siren said "
             "SAFE / SAFE up to the bound (no race) is a **contradiction**; on an unreach-call task "
             "expected `false` it is \"`siren test` finds the bug\", in run k of N;"
             % (meta.get("runs", 2000), meta.get("seed", 1), meta.get("max_steps", 100000),
                meta.get("run_ms", 5000), meta.get("stress_timeout", 300)))
    o.append("4. an unreach-call task expected `false` whose bug step 3 missed: `siren test FILE "
             "--runs %d --seed %d --max-steps %d --run-timeout-ms %d --timeout %d --json` (the default "
             "strategy, "
             "`mixed`: PCT, demote, random and round robin), the bug hunt.\n"
             % (meta.get("hunt_runs", 20000), meta.get("seed", 1), meta.get("max_steps", 100000),
                meta.get("run_ms", 5000), meta.get("hunt_timeout", 900)))
    o.append("Date: %s. Wall time of the sweep: %s. Machine: %s.\n" % (
        meta.get("date", "?"), meta.get("wall", "?"), meta.get("machine", "?")))

    o.append("## Totals\n")
    o.append("- tasks: %d in INDEX.tsv, %d with a property siren answers (%s), %d skipped (%s)" % (
        len(rows), len(runnable),
        ", ".join("%d %s" % (sum(1 for r in runnable if r["property"] == p), p) for p in SUBCOMMAND),
        len(skipped), ", ".join(sorted(set(r["property"] for r in skipped))) or "none"))
    o.append("- siren's verdicts: " + ", ".join("%s %d" % (k, v) for k, v in sorted(by_verdict.items())))
    o.append("- **UNSAFE answers replayed natively: %d — reproduced %d, not reproduced %d**" % (
        len(unsafe), len(reproduced), len(not_reproduced)))
    o.append("- **SAFE / no-race answers stress-tested: %d of %d (%d native runs in all)%s**" % (
        len(safe_tested), len(safe), safe_runs,
        "" if not short_safe else "; %d of them ended before %d runs (time limit)" % (
            len(short_safe), meta.get("runs", 2000))))
    agg = {}
    for r in safe_tested:
        for part in r["stress_outcomes"].split():
            k, _, v = part.partition("=")
            agg[k] = agg.get(k, 0) + _n(v)
    if agg:
        o.append("  - how those runs ended: " + ", ".join(
            "%s %d" % (k, agg[k]) for k in sorted(agg, key=lambda k: -agg[k])) +
            " (`bound`: cut off after --max-steps scheduling points, `pruned`: "
            "`__VERIFIER_assume` false or `abort()`, `timeout`: the run's time limit)")
    o.append("- **unreach-call tasks expected `false`: %d — `siren test` finds the bug in %d, "
             "not in %d, %d not compilable natively**" % (
                 len(false_tasks), len(found), len(missed), len(false_uncompilable)))
    retried = [r for r in runnable if r.get("clang_args")]
    o.append("- tasks not compilable natively: %d; compiled natively only with extra clang "
             "arguments (%s): %d; internal errors of `siren test`: %d" % (
                 len(set(key_of(r) for r in uncompilable)),
                 ", ".join(sorted(set("`%s`" % r["clang_args"] for r in retried))) or "none",
                 len(retried), len(errors)))
    o.append("- **contradictions: %d**\n" % len(contradictions))

    def section(title, items, fmt, empty="none."):
        o.append("## %s\n" % title)
        if not items:
            o.append(empty + "\n")
            return
        for r in items:
            o.append("- " + fmt(r))
        o.append("")

    section("Contradictions", contradictions,
            lambda r: "`%s` (%s): siren %s, native %s in run %s of %s: %s" % (
                _task_link(r), r["property"], r["verdict"], r["stress_result"], r["stress_first_run"],
                r["stress_runs"], r["stress_message"]))
    section("UNSAFE answers not reproduced natively", not_reproduced,
            lambda r: "`%s` (%s, expected %s): replay %s (exit %s) %s" % (
                _task_link(r), r["property"], r["expected"], r["replay"], r["replay_exit"],
                r["replay_message"] or r["native_error"]))
    section("Expected-false unreach-call tasks whose bug `siren test` did not find", missed,
            lambda r: "`%s`: siren %s; PCT: %s runs, outcomes %s; hunt: %s runs" % (
                _task_link(r), r["verdict"], r["stress_runs"], r["stress_outcomes"],
                r.get("hunt_runs") or "-"))
    hunted = [r for r in found if r.get("hunt_first_run")]
    section("Expected-false tasks whose bug only the hunt found", hunted,
            lambda r: "`%s`: run %s of the hunt (%s schedule, %s s); PCT stress: none in %s runs" % (
                _task_link(r), r["hunt_first_run"], r["hunt_strategy"], r["hunt_seconds"],
                r["stress_runs"]))
    uniq, seen = [], set()
    for r in uncompilable + errors:
        if key_of(r) not in seen:
            seen.add(key_of(r))
            uniq.append(r)
    section("Not compilable natively / internal errors", uniq,
            lambda r: "`%s` (%s): %s" % (_task_link(r), r["property"], r["native_error"]))
    section("Built natively only with --clang-retry's arguments", retried,
            lambda r: "`%s` (%s): %s" % (_task_link(r), r["property"], _compile_note(r)))
    others = [dict(r, note=_other_notes(r)) for r in noted if _other_notes(r)]
    section("Other observations", others,
            lambda r: "`%s` (%s, expected %s, siren %s): %s" % (
                _task_link(r), r["property"], r["expected"], r["verdict"], r["note"]))
    if meta.get("analysis"):
        o.append("## Analysis\n")
        o.append(meta["analysis"].strip() + "\n")

    o.append("## Per task\n")
    o.append("*verdict*: siren's answer (≤K: SAFE up to the bound) and its seconds. *replay*: the "
             "native replay of an UNSAFE trace. *stress*: `siren test` result, the run that failed "
             "(k of N) or the number of runs, and the outcome counts. *bug*: unreach-call "
             "expected false — did `siren test` find it. †: compiled natively only with the extra "
             "clang arguments of --clang-retry.\n")
    o.append("| task | property | expected | verdict | replay | stress | outcomes | bug | contradiction |")
    o.append("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        v = r["verdict"].replace("SAFE_UP_TO_BOUND", "SAFE ≤K")
        if r["verdict_seconds"]:
            v += " %.1f s" % float(r["verdict_seconds"])
        if r["stress_result"] in ("VIOLATION", "DATA RACE"):
            s = "%s, run %s of %s" % (r["stress_result"], r["stress_first_run"], r["stress_runs"])
        elif r["stress_result"] == "NO VIOLATION FOUND":
            s = "none in %s runs" % r["stress_runs"]
            if r.get("hunt_first_run"):
                s += "; hunt: run %s of %s (%s)" % (r["hunt_first_run"], r["hunt_runs"], r["hunt_strategy"])
            elif r.get("hunt_runs"):
                s += "; hunt: none in %s runs" % r["hunt_runs"]
        else:
            s = r["stress_result"]
        if r.get("clang_args"):
            s += " †"
        o.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            _task_link(r), r["property"], r["expected"], v if r["property"] in SUBCOMMAND else "skipped",
            r["replay"], s, r["stress_outcomes"], r["bug_found"],
            "**yes**" if r["contradiction"] == "yes" else ""))
    return "\n".join(o) + "\n"


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--siren", default=os.path.join(ROOT, "build", "siren"))
    ap.add_argument("--native-rt", default="", help="sets SIREN_NATIVE_RT (the runtime library)")
    ap.add_argument("--svcomp", default=os.path.join(ROOT, "..", "shared", "benchmarks", "svcomp"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=60, help="siren check / race --timeout")
    ap.add_argument("--memory", type=int, default=4096, help="siren check / race --memory (MB)")
    ap.add_argument("--runs", type=int, default=2000, help="siren test --runs")
    ap.add_argument("--seed", type=int, default=1, help="siren test --seed")
    ap.add_argument("--stress-timeout", type=int, default=900, help="siren test --timeout")
    ap.add_argument("--max-steps", type=int, default=20000, help="siren test --max-steps")
    ap.add_argument("--run-ms", type=int, default=1000,
                    help="siren test --run-timeout-ms (a spin loop on locals has no scheduling point: "
                         "only the run's time limit ends it)")
    ap.add_argument("--hunt-runs", type=int, default=20000,
                    help="siren test --runs of the bug hunt (expected-false tasks the stress run missed)")
    ap.add_argument("--hunt-timeout", type=int, default=900, help="siren test --timeout of the bug hunt")
    ap.add_argument("--replay-wall", type=int, default=120, help="wall-clock limit of a replay")
    ap.add_argument("--clang-retry",
                    default="-Wno-error=implicit-function-declaration -fgnu89-inline",
                    help="clang arguments for a second try when clang cannot compile or link a "
                         "task (exit 6, or exit 2 'could not be linked'); empty: no second try")
    ap.add_argument("--filter", default="", help="keep tasks whose CATEGORY/FILE:PROPERTY matches")
    ap.add_argument("--work", default=os.path.join(HERE, "out", "native"),
                    help="logs, saved verdict JSONs and results.partial.csv (git-ignored)")
    ap.add_argument("--csv", default=os.path.join(HERE, "native", "results.csv"))
    ap.add_argument("--md", default=os.path.join(HERE, "NATIVE.md"))
    ap.add_argument("--fresh", action="store_true", help="ignore an earlier results.partial.csv")
    ap.add_argument("--report", default="", help="run nothing; render --md from this results.csv")
    ap.add_argument("--analysis", default=os.path.join(HERE, "native", "analysis.md"),
                    help="hand-written markdown inserted as NATIVE.md's Analysis section "
                         "(default benchmarks/native/analysis.md, when it exists)")
    ap.add_argument("--command", default="", help="the command line quoted in the report")
    a = ap.parse_args()
    a.siren = os.path.abspath(a.siren)
    if a.native_rt:
        os.environ["SIREN_NATIVE_RT"] = os.path.abspath(a.native_rt)
    command = a.command or shlex.join(["benchmarks/native_sweep.py"] + sys.argv[1:])
    meta_path = os.path.join(os.path.dirname(a.csv), "meta.json")

    analysis = _read(a.analysis) if a.analysis and os.path.exists(a.analysis) else ""
    if a.report:
        rows = read_csv(a.report)
        meta = json.load(open(meta_path)) if os.path.exists(meta_path) else {}
        if analysis:
            meta["analysis"] = analysis
        with open(a.md, "w") as f:
            f.write(render(rows, meta))
        print("wrote", a.md)
        return 0

    tasks = load_index(os.path.abspath(a.svcomp), a.filter or None)
    partial_path = os.path.join(a.work, "results.partial.csv")
    if a.fresh and os.path.exists(partial_path):
        os.rename(partial_path, partial_path + ".old")
    done = {key_of(r): r for r in read_csv(partial_path)}
    partial = PartialCsv(partial_path)
    todo = [t for t in tasks if t["key"] not in done]
    print("native sweep: %d tasks, %d already in %s, %d to run, %d jobs" % (
        len(tasks), len(tasks) - len(todo), partial_path, len(todo), a.jobs), file=sys.stderr)
    start = time.monotonic()
    count = [len(tasks) - len(todo)]
    lock = threading.Lock()
    pool = ThreadPoolExecutor(max_workers=max(1, a.jobs))
    try:
        futures = {pool.submit(do_task, t, a, a.work): t for t in todo}
        for fut in as_completed(futures):
            row = fut.result()
            partial.append(row)
            done[key_of(row)] = row
            with lock:
                count[0] += 1
                print("[%d/%d] %s: %s | replay %s | stress %s %s | %s%s" % (
                    count[0], len(tasks), key_of(row), row["verdict"], row["replay"] or "-",
                    row["stress_result"], row["stress_outcomes"], row["native_error"],
                    " CONTRADICTION" if row["contradiction"] else ""), file=sys.stderr)
        pool.shutdown()
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        runner.kill_running()
        raise
    wall = time.monotonic() - start
    rows = [done[t["key"]] for t in tasks if t["key"] in done]
    write_csv(a.csv, rows)
    old = json.load(open(meta_path)) if os.path.exists(meta_path) else {}
    meta = {
        "command": command, "runs": a.runs, "seed": a.seed, "stress_timeout": a.stress_timeout,
        "max_steps": a.max_steps, "hunt_runs": a.hunt_runs, "hunt_timeout": a.hunt_timeout,
        "run_ms": a.run_ms,
        "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        # a resumed sweep adds its wall time to the earlier part's
        "wall_seconds": wall + (old.get("wall_seconds", 0) if len(todo) < len(tasks) else 0),
        "machine": machine_note(a.siren),
    }
    meta["wall"] = "%.0f s (%d jobs)" % (meta["wall_seconds"], a.jobs)
    with open(meta_path, "w") as f:
        json.dump(meta, f, indent=1)
    if analysis:
        meta["analysis"] = analysis
    with open(a.md, "w") as f:
        f.write(render(rows, meta))
    print("wrote %s and %s (%.0f s)" % (a.csv, a.md, wall), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
