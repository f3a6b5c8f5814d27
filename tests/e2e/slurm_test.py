#!/usr/bin/env python3
"""Smoke test of the local Slurm cluster: sbatch --wait --array=0-1 runs both tasks.

usage: slurm_test.py SOURCE_DIR
Fails with "start it with scripts/slurm-local start" when no usable cluster answers.
"""
import os
import shutil
import subprocess
import sys
import tempfile

HINT = "start it with scripts/slurm-local start"


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    src = sys.argv[1]
    if shutil.which("sbatch") is None:
        fail(f"Slurm is not installed (no sbatch): {HINT}")
    st = subprocess.run([os.path.join(src, "scripts", "slurm-local"), "status"],
                        capture_output=True, text=True, timeout=60)
    if st.returncode != 0:
        why = (st.stdout + st.stderr).strip()
        fail(f"Slurm is not running: {why}" + ("" if HINT in why else f" ({HINT})"))
    with tempfile.TemporaryDirectory(prefix="siren-slurm-test-") as d:
        try:
            r = subprocess.run(
                ["sbatch", "--wait", "--array=0-1", "--job-name=siren-slurm-smoke", "--time=1",
                 "-o", os.path.join(d, "task_%a.out"),
                 "--wrap", "echo task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_JOB_ID"],
                capture_output=True, text=True, timeout=100)
        except subprocess.TimeoutExpired:
            fail(f"sbatch --wait did not return within 100 s (is the node usable? {HINT})")
        if r.returncode != 0:
            fail(f"sbatch returned {r.returncode}: {r.stdout.strip()} {r.stderr.strip()}")
        job = r.stdout.strip().split()[-1]  # "Submitted batch job N"
        for i in range(2):
            path = os.path.join(d, f"task_{i}.out")
            if not os.path.exists(path):
                fail(f"task {i} wrote no {path} (files: {sorted(os.listdir(d))})")
            text = open(path).read().strip()
            if text != f"task {i} of {job}":
                fail(f"task {i} output {text!r}, expected 'task {i} of {job}'")
        print(f"ok: array job {job} ran tasks 0 and 1")


if __name__ == "__main__":
    main()
