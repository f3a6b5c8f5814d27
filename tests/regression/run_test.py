#!/usr/bin/python3
"""Runs one folder-per-case regression test (after CBMC's regression/ layout).

A case is a folder with `main.c` and `test.desc`; test.desc lines:
  command: check | race   the siren subcommand (default check; race: UNSAFE = a data race,
                 SAFE = no data race)
  args: <extra siren arguments; {root} is the project root, as in -I{root}/kernel/include>
  verdict: UNSAFE | SAFE | SAFE_UP_TO_BOUND | UNKNOWN
  match: <regex that must match the --json output>        (repeatable)
  no-match: <regex that must not match>                     (repeatable)
  min-bound: N   the violation needs at least N steps: with --engine bmc --bound N-1 the
                 answer must be SAFE_UP_TO_BOUND (a property of BMC's step bound; the
                 explicit-state engine of --engine auto has no bound and may find it anyway)
  timeout: SEC   (default 60) wall-clock limit for each siren run
  source: PATH   the program to check, relative to the case folder, when the case reuses
                 another case's program (default: main.c)
  native: skip <why>   leave out the native oracle (native/README.md) for this case. Without
                 it, an UNSAFE trace must also happen natively (`siren test --replay`), and a
                 SAFE program must show no violation (race) in 300 native runs (`siren test`).
Usage: run_test.py SIREN CASE_DIR
       run_test.py SIREN CASE_DIR --broken FLAG...   a deliberately broken siren (a hidden
                 --test-* flag): the case must FAIL (verdict or match), without the native oracle
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

EXIT_CODES = {"SAFE": 0, "SAFE_UP_TO_BOUND": 0, "UNSAFE": 10, "UNKNOWN": 5}


def parse_desc(path):
    desc = {"command": "check", "args": [], "match": [], "no-match": [], "timeout": 60, "source": "main.c"}
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if key == "args":  # {root}: the project's root (e.g. -I{root}/kernel/include)
            root = str(Path(__file__).resolve().parents[2])
            desc["args"] += [a.replace("{root}", root) for a in shlex.split(value)]
        elif key in ("match", "no-match"):
            desc[key].append(value)
        elif key in ("verdict", "source", "command", "native"):
            desc[key] = value
        elif key in ("min-bound", "timeout"):
            desc[key] = int(value)
        else:
            raise SystemExit(f"{path}: unknown key '{key}'")
    if "verdict" not in desc:
        raise SystemExit(f"{path}: no verdict line")
    if desc["command"] not in ("check", "race"):
        raise SystemExit(f"{path}: unknown command '{desc['command']}'")
    if desc["command"] == "race" and "min-bound" in desc:
        raise SystemExit(f"{path}: min-bound is for check")
    return desc


def run(siren, program, args, timeout, command="check"):
    cmd = [siren, command, str(program), "--json", *args]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"FAIL: {' '.join(cmd)} did not finish within {timeout} s")
    try:
        out = json.loads(p.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"FAIL: {' '.join(cmd)}: exit {p.returncode}, output is not JSON:\n"
                         f"{p.stdout}\n{p.stderr}")
    return p, out


def main():
    siren, case = sys.argv[1], Path(sys.argv[2])
    broken = sys.argv[4:] if len(sys.argv) > 3 and sys.argv[3] == "--broken" else None
    desc = parse_desc(case / "test.desc")
    if broken:
        desc["args"] += broken
        desc["native"] = "skip broken variant"
        desc.pop("min-bound", None)
    program = (case / desc["source"]).resolve()
    p, out = run(siren, program, desc["args"], desc["timeout"], desc["command"])
    failures = []
    if out.get("verdict") != desc["verdict"]:
        failures.append(f"verdict {out.get('verdict')} ({out.get('reason', '')}), "
                        f"expected {desc['verdict']}")
    if p.returncode != EXIT_CODES[desc["verdict"]]:
        failures.append(f"exit code {p.returncode}, expected {EXIT_CODES[desc['verdict']]}")
    if desc["verdict"] == "UNSAFE" and not out.get("trace"):
        failures.append("UNSAFE without a trace")
    for rx in desc["match"]:
        if not re.search(rx, p.stdout):
            failures.append(f"output does not match /{rx}/")
    for rx in desc["no-match"]:
        if re.search(rx, p.stdout):
            failures.append(f"output matches /{rx}/")
    if "min-bound" in desc:
        shallow = [a for a in desc["args"]] + ["--engine", "bmc", "--bound", str(desc["min-bound"] - 1)]
        _, out2 = run(siren, program, shallow, desc["timeout"])
        if out2.get("verdict") != "SAFE_UP_TO_BOUND":
            failures.append(f"with --bound {desc['min-bound'] - 1}: verdict "
                            f"{out2.get('verdict')}, expected SAFE_UP_TO_BOUND")
    native = ""
    if not failures and not desc.get("native", "").startswith("skip"):
        native = check_native(siren, program, desc, out, failures)
    if broken is not None:
        if not failures:
            print(f"FAIL {case.name}: with {' '.join(broken)} the case still passes ({out.get('verdict')}): "
                  "it does not catch the broken variant")
            sys.exit(1)
        print(f"PASS {case.name}: with {' '.join(broken)} the case fails as it should: {failures[0]}")
        return
    if failures:
        print(f"FAIL {case.name}:\n  " + "\n  ".join(failures))
        print(p.stdout[:4000])
        sys.exit(1)
    print(f"PASS {case.name}: {out['verdict']} (bound {out.get('bound')}){native}")


def check_native(siren, program, desc, out, failures):
    """The native oracle: siren's UNSAFE trace happens natively; a SAFE program does not fail
    natively in 300 random / PCT schedules."""
    clang = [a for a in desc["args"] if a.startswith(("-D", "-I"))]
    race = ["--race"] if desc["command"] == "race" else []
    if desc["verdict"] == "UNSAFE":
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(out, f)
        try:
            p = subprocess.run([siren, "test", str(program), "--replay", f.name, *race, *clang],
                               capture_output=True, text=True, timeout=120)
        finally:
            os.unlink(f.name)
        if p.returncode != 10:
            failures.append(f"the trace does not happen natively (siren test --replay: exit {p.returncode}): "
                            f"{(p.stdout + p.stderr).strip()[:600]}")
        return "; replayed natively"
    if desc["verdict"] == "SAFE":
        p = subprocess.run([siren, "test", str(program), "--runs", "300", "--timeout", "60", *race, *clang],
                           capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            failures.append(f"SAFE, but native execution fails (siren test: exit {p.returncode}): "
                            f"{(p.stdout + p.stderr).strip()[:600]}")
        return "; no native violation in 300 runs"
    return ""


if __name__ == "__main__":
    main()
