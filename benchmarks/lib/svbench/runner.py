"""Run siren on tasks under a wall-clock and a memory limit, several runs in parallel.

Each run is its own process group (so the runner can kill siren and anything it started) with
RLIMIT_AS set to the memory limit; siren also gets `--timeout` and `--memory` so it can stop by
itself and answer UNKNOWN. The runner waits `timeout + slack` seconds before it kills the group.
Peak memory and CPU time come from `os.wait4`'s rusage of that child.
"""

import os
import resource
import shlex
import signal
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

from . import outcome as outcome_mod
from . import scoring

# Which siren subcommand decides which SV-COMP property. None = no command yet: such tasks are
# skipped and listed as skipped. (`siren race` prints the same JSON shape as `siren check`.)
PROPERTY_COMMANDS = {
    "unreach-call": "check",
    "no-data-race": "race",
}


def command_for(prop, commands):
    return commands.get(prop)


def build_command(siren, subcommand, task, config_args, timeout, memory_mb):
    cmd = [siren, subcommand, task.input_file, "--json", "--timeout", _num(timeout)]
    if memory_mb:
        cmd += ["--memory", str(memory_mb)]
    return cmd + list(config_args)


def _num(x):
    return str(int(x)) if float(x).is_integer() else str(x)


def _limits(memory_mb):
    def apply():
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if memory_mb:
            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return apply


def _kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# Process groups of the runs under way, so an interrupted runner can kill them.
_running = set()
_running_lock = threading.Lock()


def kill_running():
    with _running_lock:
        for pgid in list(_running):
            _kill_group(pgid)


def execute(cmd, cwd, timeout, slack, memory_mb, stdout_path, stderr_path):
    """Run `cmd`; returns dict(exit_code, timed_out, started, seconds, cpu_seconds, peak_mb)."""
    started = time.time()
    start = time.monotonic()
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                start_new_session=True, preexec_fn=_limits(memory_mb))
    with _running_lock:
        _running.add(proc.pid)
    try:
        return dict(_wait(proc, start, timeout, slack), started=started)
    finally:
        with _running_lock:
            _running.discard(proc.pid)


def _wait(proc, start, timeout, slack):
    deadline = start + timeout + slack
    timed_out = False
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() >= deadline:
            timed_out = True
            _kill_group(proc.pid)
            pid, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.02)
    seconds = time.monotonic() - start
    _kill_group(proc.pid)          # whatever siren left behind in its group
    exit_code = os.waitstatus_to_exitcode(status)
    proc.returncode = exit_code    # already reaped: keep Popen from waiting again
    return {
        "exit_code": exit_code,
        "timed_out": timed_out,
        "seconds": seconds,
        "cpu_seconds": usage.ru_utime + usage.ru_stime,
        "peak_mb": usage.ru_maxrss / 1024.0,   # ru_maxrss is in KiB on Linux
    }


def _read_text(path, limit=None):
    try:
        with open(path, "rb") as f:
            data = f.read() if limit is None else f.read(limit)
    except OSError:
        return ""
    return data.decode("utf-8", errors="replace")


def _last_line(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


def _one_line(text, limit=300):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _fmt(x, digits=3):
    return "" if x is None else f"{x:.{digits}f}"


def result_row(task, config, cmd, run, stdout, stderr):
    """One results.csv row from a finished run."""
    c = outcome_mod.classify(run["exit_code"], stdout, task.expected, run["timed_out"])
    doc = c.json
    stats = doc.get("stats") if isinstance(doc.get("stats"), dict) else {}
    reason = c.reason
    if c.outcome in ("crash", "error", "unparseable") and _last_line(stderr):
        reason = f"{reason}: {_last_line(stderr)}"
    return {
        "config": config,
        "task": task.task_id,
        "folder": task.folder,
        "property": task.property,
        "expected": task.expected,
        "verdict": c.verdict,
        "outcome": c.outcome,
        "proof": c.proof,
        "score": scoring.score(c.outcome, task.expected),
        "started": _fmt(run["started"]),
        "seconds": _fmt(run["seconds"]),
        "cpu_seconds": _fmt(run["cpu_seconds"]),
        "peak_mb": _fmt(run["peak_mb"], 1),
        "bound": doc.get("bound", ""),
        "thread_bound": (doc.get("bounds") or {}).get("threads") or "",
        "schedules": doc.get("schedules", ""),
        "frames": stats.get("frames", ""),
        "vars": stats.get("vars", ""),
        "clauses": stats.get("clauses", ""),
        "solve_seconds": stats.get("solve_seconds", ""),
        "total_seconds": stats.get("total_seconds", ""),
        "siren_peak_rss_mb": stats.get("peak_rss_mb", ""),
        "exit_code": run["exit_code"],
        "reason": _one_line(reason),
        "input_file": task.input_file,
        "command": shlex.join(cmd),
    }


def run_all(tasks, configs, siren, commands, timeout, slack, memory_mb, jobs, out_dir,
            on_row=None, alone=()):
    """Run every (task, config) whose property has a command.

    configs: list of (name, [args]). Returns (rows, skipped) where skipped lists the tasks whose
    property has no command. on_row(row, done, total) is called as runs finish (any thread,
    serialised by a lock). Runs of the configurations named in `alone` (ones that use several
    cores themselves) come after all others, one at a time.
    """
    runnable, skipped = [], []
    for t in tasks:
        sub = command_for(t.property, commands)
        (runnable if sub else skipped).append(t)
    work = [(t, name, args) for t in runnable for name, args in configs]
    rows, lock = [], threading.Lock()
    log_root = os.path.join(out_dir, "logs")

    def one(item):
        task, name, args = item
        sub = command_for(task.property, commands)
        cmd = build_command(siren, sub, task, args, timeout, memory_mb)
        stem = os.path.join(log_root, name, f"{task.task_id}.{task.property}")
        os.makedirs(os.path.dirname(stem), exist_ok=True)
        run = execute(cmd, os.path.dirname(task.input_file) or ".", timeout, slack, memory_mb,
                      stem + ".out", stem + ".err")
        return result_row(task, name, cmd, run, _read_text(stem + ".out", 1 << 24),
                          _read_text(stem + ".err"))

    def finished(row):
        with lock:
            rows.append(row)
            if on_row:
                on_row(row, len(rows), len(work))

    shared = [w for w in work if w[1] not in alone]
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        for fut in as_completed([pool.submit(one, item) for item in shared]):
            finished(fut.result())
        pool.shutdown()
        for item in work:
            if item[1] in alone:
                finished(one(item))
    except BaseException:          # Ctrl-C or a bug: stop queued runs, kill the running ones
        pool.shutdown(wait=False, cancel_futures=True)
        kill_running()
        raise
    order = {name: i for i, (name, _) in enumerate(configs)}
    rows.sort(key=lambda r: (r["task"], r["property"], order[r["config"]]))
    return rows, skipped
