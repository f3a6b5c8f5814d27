#!/usr/bin/python3
"""Transaction-graph sizes and construction times on every shared SV-COMP task.

Runs `siren tg --json` on each task of ../shared/benchmarks/svcomp/INDEX.tsv (one process per
task; peak memory is the child's maximum RSS from wait4) and writes benchmarks/TG.md. Each task
also runs with `--no-protected` (every shared access a switch point), for the size the
lock / create-join reduction of switch points saves.

Usage: benchmarks/tg_sizes.py [--siren build/siren] [--timeout 60] [--out benchmarks/TG.md]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(ROOT, "..", "shared", "benchmarks", "svcomp")


def run(cmd, timeout):
    """(exit code or None on timeout, stdout, wall seconds, peak RSS in MB)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        killed = []
        timer = threading.Timer(timeout, lambda: (killed.append(1), proc.kill()))
        timer.start()
        _, status, ru = os.wait4(proc.pid, 0)
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - t0
        out.seek(0)
        return (None if killed else proc.returncode), out.read(), wall, ru.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--siren", default=os.path.join(ROOT, "build", "siren"))
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--out", default=os.path.join(HERE, "TG.md"))
    a = ap.parse_args()
    tasks = []
    with open(os.path.join(SHARED, "INDEX.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(header, line.rstrip("\n").split("\t")))
            if r.get("input_file"):
                tasks.append(r["category"] + "/" + r["input_file"])
    results = []
    for task in tasks:
        code, out, wall, rss = run([a.siren, "tg", "--json", "--summary", os.path.join(SHARED, task)], a.timeout)
        res = {"task": task, "wall": wall, "rss_mb": rss}
        if code is None:
            res["status"] = "timeout"
        elif code in (0, 5):
            try:
                j = json.loads(out)
                for k in ("complete", "num_nodes", "num_edges", "num_sliced_edges", "num_relevant_vars", "seconds",
                          "threads", "rounds", "protected_accesses"):
                    res[k] = j.get(k)
                if j.get("peak_rss_mb") is not None:
                    res["rss_mb"] = j["peak_rss_mb"]
                res["status"] = "ok" if j.get("complete") else "incomplete: " + j.get("incomplete_reason", "")
            except json.JSONDecodeError:
                res["status"] = "bad json"
        else:
            res["status"] = "front end: exit %d" % code
        if res.get("seconds") is not None:
            code2, out2, _, _ = run([a.siren, "tg", "--json", "--summary", "--no-protected", os.path.join(SHARED, task)],
                                    a.timeout)
            try:
                j2 = json.loads(out2) if code2 in (0, 5) else {}
            except json.JSONDecodeError:
                j2 = {}
            res["nodes_unprotected"] = j2.get("num_nodes")
            res["complete_unprotected"] = j2.get("complete")
        results.append(res)
        print("%-70s %-14s %8s nodes %7.2f s %7.1f MB" % (task, res["status"][:14], res.get("num_nodes", ""),
                                                          wall, rss), file=sys.stderr)
    write(a, results)


def write(a, results):
    ok = [r for r in results if r["status"] == "ok"]
    built = [r for r in results if r.get("seconds") is not None]
    worst = max(built, key=lambda r: r["seconds"]) if built else None
    worst_mem = max(results, key=lambda r: r["rss_mb"]) if results else None
    cmd = " ".join(["benchmarks/tg_sizes.py"] + [os.path.relpath(x, ROOT) if os.path.exists(x) else x
                                                  for x in sys.argv[1:]])
    with open(a.out, "w") as f:
        f.write("# Transaction graph sizes on the shared SV-COMP tasks\n\n")
        f.write("Made by `%s` (one `siren tg --json --summary` per task; default options: --threads 8,\n"
                "--max-nodes 200000, --time-limit 7, --max-mb 512). *time* is the graph construction time reported by siren (front end and\n"
                "thread model excluded), *wall* the whole process, *peak MB* its maximum resident set size (getrusage in siren);\n"
                "both include tg's SIR section, which builds its own graph (2 s, 256 MB at most) when accesses are protected.\n"
                "Edges are transactions; *sliced* counts guards found infeasible (⊥) under a node's invariant. *protected*: shared\n"
                "accesses inside transactions because no conflicting access can run beside them (a common must-held lock, or\n"
                "create/join order); *nodes (all visible)*: the graph with `--no-protected`, where every shared access is a switch point.\n\n" % cmd)
        f.write("Tasks: %d; complete graph: %d; incomplete (limit hit): %d; front end rejected / timeout: %d.\n"
                % (len(results), len(ok), len(built) - len(ok), len(results) - len(built)))
        f.write("With every shared access a switch point (`--no-protected`): complete graph: %d. Tasks with protected accesses: %d.\n\n"
                % (sum(1 for r in built if r.get("complete_unprotected")),
                   sum(1 for r in built if (r.get("protected_accesses") or 0) > 0)))
        if worst:
            f.write("**Worst construction time: %.3f s** (%s). Worst wall time: %.2f s. Worst peak memory: %.0f MB (%s).\n\n"
                    % (worst["seconds"], worst["task"], max(r["wall"] for r in results), worst_mem["rss_mb"],
                       worst_mem["task"]))
        f.write("| task | threads | nodes | nodes (all visible) | protected | edges | sliced | relevant vars | rounds | time (s) | wall (s) | peak MB | status |\n")
        f.write("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
        for r in results:
            unprot = r.get("nodes_unprotected")
            unprot = "" if unprot is None else ("%s" % unprot) + ("" if r.get("complete_unprotected") else " (incomplete)")
            f.write("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2f | %.0f | %s |\n" % (
                r["task"], r.get("threads", ""), r.get("num_nodes", ""), unprot,
                r.get("protected_accesses", "") if r.get("protected_accesses") is not None else "", r.get("num_edges", ""),
                r.get("num_sliced_edges", ""), r.get("num_relevant_vars", ""), r.get("rounds", ""),
                "%.3f" % r["seconds"] if r.get("seconds") is not None else "", r["wall"], r["rss_mb"], r["status"]))


if __name__ == "__main__":
    main()
