"""`benchmarks/run`: run siren on SV-COMP tasks, write results.csv, summary.md, plots."""

import argparse
import csv
import datetime
import glob
import json
import os
import re
import shlex
import shutil
import signal
import sys
import time

from . import report, runner, scoring, tasks as tasks_mod

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
DEFAULT_SIREN = os.path.join(REPO, "build", "siren")
DEFAULT_TASKS = os.path.normpath(os.path.join(REPO, "..", "shared", "benchmarks", "svcomp"))
CONFIG_NAME = re.compile(r"^[A-Za-z0-9_.+-]+$")


def _name_value(text, what):
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"{what} must be NAME=VALUE, got {text!r}")
    name, value = text.split("=", 1)
    if not CONFIG_NAME.match(name):
        raise argparse.ArgumentTypeError(f"{what} name {name!r}: use letters, digits, _.+-")
    return name, value


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="benchmarks/run",
        description="Run siren on SV-COMP task definitions (.yml) and score the answers.")
    p.add_argument("--siren", default=DEFAULT_SIREN, help="siren binary (default build/siren)")
    p.add_argument("--tasks", default=DEFAULT_TASKS,
                   help="folder searched recursively for task .yml files "
                        "(default ../shared/benchmarks/svcomp)")
    p.add_argument("--config", action="append", default=[], metavar="NAME=ARGS",
                   type=lambda s: _name_value(s, "--config"),
                   help='a named configuration: extra siren arguments, e.g. '
                        'none="--reduction none"; repeatable (default: default="")')
    p.add_argument("--timeout", type=float, default=60.0,
                   help="wall-clock seconds per run, passed to siren as --timeout; the runner "
                        "kills the run after timeout + slack (default 60)")
    p.add_argument("--slack", type=float, default=5.0,
                   help="seconds the runner waits beyond --timeout before killing (default 5)")
    p.add_argument("--memory", type=int, default=4096,
                   help="MB of address space per run (RLIMIT_AS), passed to siren as --memory; "
                        "0 = no limit (default 4096)")
    p.add_argument("--jobs", "-j", type=int, default=1, help="runs in parallel (default 1)")
    p.add_argument("--alone", action="append", default=[], metavar="NAME",
                   help="run this configuration's runs one at a time after all others, with "
                        "nothing beside them (for configurations that use several cores "
                        "themselves, e.g. --solver portfolio); repeatable")
    p.add_argument("--filter", help="regular expression searched in TASK:PROPERTY, "
                                    "e.g. 'pthread-lit/' or ':unreach-call$'")
    p.add_argument("--command", action="append", default=[], metavar="PROPERTY=SUBCOMMAND",
                   type=lambda s: _name_value(s, "--command"),
                   help="siren subcommand for a property, adding to or overriding the table "
                        "(unreach-call=check); an empty SUBCOMMAND skips the property")
    p.add_argument("--out", help="output folder (default benchmarks/out/<timestamp>)")
    p.add_argument("--results-md", metavar="PATH",
                   help="also write the markdown summary there (e.g. benchmarks/RESULTS.md), "
                        "with plots and results.csv copied into results/ next to it")
    p.add_argument("--plots", action="store_true", help="write cactus and scatter plots (PNG)")
    p.add_argument("--report", metavar="RESULTS_CSV",
                   help="run nothing: re-render summary (and plots) from an earlier results.csv "
                        "(its meta.json, if next to it, supplies the run's description)")
    args = p.parse_args(argv)
    if not args.config:
        args.config = [("default", "")]
    names = [n for n, _ in args.config]
    if len(set(names)) != len(names):
        p.error("configuration names must be distinct")
    for name in args.alone:
        if name not in names:
            p.error(f"--alone {name}: no configuration of that name")
    if args.timeout <= 0 or args.jobs < 1 or args.memory < 0:
        p.error("--timeout and --jobs must be positive, --memory not negative")
    return args


def _log(msg):
    print(msg, file=sys.stderr, flush=True)


def _write_outputs(rows, meta, out_dir, plots, results_md):
    scoring.write_csv(os.path.join(out_dir, "results.csv"), rows)
    with open(os.path.join(out_dir, "meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=1)
    config_names = [n for n, _ in meta["configs"]]
    plot_names = []
    if plots:
        from . import plots as plots_mod   # matplotlib only when asked for
        plot_names = plots_mod.make_plots(rows, config_names, out_dir, meta["timeout"])
    with open(os.path.join(out_dir, "summary.md"), "w", encoding="utf-8") as f:
        f.write(report.render(rows, meta, None, plot_names))
    _log(f"wrote {os.path.join(out_dir, 'summary.md')}")
    if results_md:
        md_dir = os.path.dirname(os.path.abspath(results_md))
        files_dir = os.path.join(md_dir, "results")
        os.makedirs(files_dir, exist_ok=True)
        for old in glob.glob(os.path.join(files_dir, "*.png")):
            os.remove(old)
        for name in plot_names + ["results.csv"]:
            shutil.copy(os.path.join(out_dir, name), os.path.join(files_dir, name))
        text = report.render(rows, meta, "results", plot_names)
        text += "\nAll rows: [results/results.csv](results/results.csv).\n"
        with open(results_md, "w", encoding="utf-8") as f:
            f.write(text)
        _log(f"wrote {results_md}")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)

    if args.report:
        rows = scoring.read_csv(args.report)
        out_dir = args.out or os.path.dirname(os.path.abspath(args.report))
        os.makedirs(out_dir, exist_ok=True)
        meta_path = os.path.join(os.path.dirname(os.path.abspath(args.report)), "meta.json")
        if os.path.exists(meta_path):
            with open(meta_path, encoding="utf-8") as f:
                meta = json.load(f)
        else:
            names = list(dict.fromkeys(r["config"] for r in rows))
            meta = _meta(args, [(n, "") for n in names], ("unknown", "unknown"))
            meta["command"] = "(re-rendered from " + args.report + ")"
        _write_outputs(rows, meta, out_dir, args.plots, args.results_md)
        return 0

    siren = os.path.abspath(args.siren)
    if not (os.path.isfile(siren) and os.access(siren, os.X_OK)):
        _log(f"benchmarks/run: siren binary {args.siren} not found or not executable "
             "(build it, or pass --siren PATH)")
        return 1
    if not os.path.isdir(args.tasks):
        _log(f"benchmarks/run: task folder {args.tasks} does not exist")
        return 1
    try:
        configs = [(n, shlex.split(a)) for n, a in args.config]
    except ValueError as e:
        _log(f"benchmarks/run: bad --config arguments: {e}")
        return 1
    commands = dict(runner.PROPERTY_COMMANDS)
    for prop, sub in args.command:
        commands[prop] = sub or None

    tasks, problems = tasks_mod.load_tasks(args.tasks, args.filter)
    for p in problems:
        _log(f"warning: {p}")
    if not tasks:
        _log(f"benchmarks/run: no tasks in {args.tasks}" +
             (f" matching {args.filter!r}" if args.filter else ""))
        return 1

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out_dir = os.path.abspath(args.out or os.path.join(REPO, "benchmarks", "out", stamp))
    os.makedirs(out_dir, exist_ok=True)
    meta = _meta(args, args.config, report.siren_version(siren))
    meta["siren"] = args.siren

    runnable = sum(1 for t in tasks if commands.get(t.property))
    total = runnable * len(configs)
    n_alone = runnable * len(set(args.alone))
    worst = ((total - n_alone) / args.jobs + n_alone) * (args.timeout + args.slack)
    _log(f"{runnable} runnable of {len(tasks)} task/property pairs x {len(configs)} "
         f"configurations = {total} runs, {args.jobs} in parallel"
         f"{f' ({n_alone} alone)' if n_alone else ''} "
         f"(worst case {worst / 60:.0f} min); output in {out_dir}")

    partial = open(os.path.join(out_dir, "results.partial.csv"), "w", newline="",
                   encoding="utf-8")
    writer = csv.DictWriter(partial, fieldnames=scoring.COLUMNS, extrasaction="ignore")
    writer.writeheader()

    def on_row(row, done, total):
        writer.writerow(row)
        partial.flush()
        what = row["verdict"] or row["outcome"]
        _log(f"[{done}/{total}] {row['config']} {row['task']} {row['property']}: "
             f"{row['outcome']} ({what}, expected {row['expected'] or '?'}) "
             f"{row['seconds']} s")

    def interrupted(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")
    # Ctrl-C and kill both stop the queued runs and kill the running ones (runner.run_all).
    signal.signal(signal.SIGINT, interrupted)
    signal.signal(signal.SIGTERM, interrupted)

    start = time.monotonic()
    try:
        rows, skipped = runner.run_all(tasks, configs, siren, commands, args.timeout,
                                       args.slack, args.memory, args.jobs, out_dir, on_row,
                                       alone=set(args.alone))
    except KeyboardInterrupt:
        _log(f"interrupted; finished runs are in {partial.name}")
        return 130
    finally:
        partial.close()
    os.remove(partial.name)
    meta["wall_seconds"] = time.monotonic() - start
    meta["skipped"] = [(t.task_id, t.property) for t in skipped]
    meta["problems"] = problems
    _write_outputs(rows, meta, out_dir, args.plots, args.results_md)
    for name, t in scoring.totals_by(rows, lambda r: r["config"]).items():
        _log(f"{name}: score {t.score}, correct {t.correct} "
             f"({t.correct_true} true, {t.correct_false} false), wrong {t.wrong}, "
             f"other {t.tasks - t.correct - t.wrong}")
    return 0


def _meta(args, configs, version):
    cwd = os.getcwd()
    command = shlex.join([sys.argv[0], *sys.argv[1:]]) if sys.argv else "benchmarks/run"
    if os.path.realpath(cwd) != os.path.realpath(REPO):
        command = f"cd {shlex.quote(os.path.relpath(cwd, REPO))} && {command}"
    tasks_dir = os.path.abspath(args.tasks)
    shown = os.path.relpath(tasks_dir, REPO)
    return {
        "command": command,
        "date": datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "machine": report.machine_description(),
        "siren": args.siren,
        "siren_describe": version[0],
        "siren_version": version[1],
        "tasks_dir": shown,
        "timeout": args.timeout,
        "memory_mb": args.memory,
        "jobs": args.jobs,
        "alone": list(args.alone),
        "configs": [list(c) for c in configs],
        "wall_seconds": 0.0,
        "skipped": [],
        "problems": [],
    }
