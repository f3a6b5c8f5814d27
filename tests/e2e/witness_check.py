"""Shared by the SV-COMP sweeps (svcomp_check.py, race_sweep.py): the witnesses of an UNSAFE
answer, written with `--witness BASE.graphml --witness BASE.yml`, must both be CONFIRMED by
`siren validate` (exit 10)."""
import os
import subprocess


def witness_args(directory, key):
    """The --witness arguments for task `key` (files under `directory`)."""
    base = os.path.join(directory, key.replace("/", "__"))
    return ["--witness", base + ".graphml", "--witness", base + ".yml"]


def unconfirmed(siren, program, directory, key, timeout):
    """Failures (strings) of validating both witnesses of task `key`; [] when both confirmed."""
    base = os.path.join(directory, key.replace("/", "__"))
    failures = []
    for ext in ("graphml", "yml"):
        path = base + "." + ext
        if not os.path.exists(path):
            failures.append(f"{key}: no {ext} witness written")
            continue
        try:
            p = subprocess.run([siren, "validate", path, str(program), "--timeout", str(timeout)],
                               capture_output=True, text=True, timeout=timeout + 15)
        except subprocess.TimeoutExpired:
            failures.append(f"{key}: validate {ext} did not stop")
            continue
        first = (p.stdout.strip().splitlines() or p.stderr.strip().splitlines() or ["no output"])[0]
        if p.returncode != 10 or "CONFIRMED" not in first:
            failures.append(f"{key}: {ext} witness not confirmed (exit {p.returncode}): {first[:160]}")
    return failures
