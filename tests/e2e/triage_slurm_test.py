#!/usr/bin/python3
"""End-to-end (label slurm): `siren triage --executor slurm` on the local Slurm cluster
(scripts/slurm-local, started here when it is not up).

1. A manifest of 9 shared goblint-regression no-data-race programs (lockset candidates) and a
   warnings file of 60 pairs: the Slurm run gives exactly the results (id -> verdict) of the
   local executor, every warning once; prints both times.
2. A slow program first (about 8 s with --timeout 1) and --shards 2: the array task holding it
   is scancel'led while it runs; siren submits its open warnings once more, and the merged
   results answer every warning exactly once.

Usage: triage_slurm_test.py SIREN SHARED_DIR SLURM_LOCAL
"""
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from triage_manifest_test import good_manifest, results  # noqa: E402


def verdicts(out):
    got = results(out)
    ids = [j["id"] for j in got]
    assert len(ids) == len(set(ids)), f"{out}: a warning answered twice"
    return {j["id"]: j["verdict"] for j in got}


def main():
    siren, shared, slurm_local = sys.argv[1], Path(sys.argv[2]).resolve(), sys.argv[3]
    if subprocess.run([slurm_local, "status"], capture_output=True).returncode != 0:
        r = subprocess.run([slurm_local, "start"], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, f"scripts/slurm-local start failed: {r.stderr}"
    with tempfile.TemporaryDirectory() as tmpname:
        tmp = Path(tmpname)
        good = good_manifest(shared, tmp)
        manifest = tmp / "manifest.jsonl"
        manifest.write_text("\n".join(json.dumps(it) for it in good) + "\n")
        times = {}
        for executor in ("local", "slurm"):
            start = time.monotonic()
            r = subprocess.run([siren, "triage", "--manifest", str(manifest), "--out", str(tmp / f"{executor}.jsonl"),
                                "--executor", executor, "-q"], capture_output=True, text=True, timeout=240)
            times[executor] = time.monotonic() - start
            assert r.returncode == 0, f"{executor}: exit {r.returncode}: {r.stderr}"
        local, slurm = verdicts(tmp / "local.jsonl"), verdicts(tmp / "slurm.jsonl")
        # 60 given warnings and the lockset candidates of the rest (74 since create/join order
        # keeps main's accesses before pthread_create out of the candidates), as triage_manifest_test
        assert len(local) >= 70, len(local)
        assert slurm == local, "Slurm and local verdicts differ: " + str(
            {k: (local.get(k), slurm.get(k)) for k in set(local) | set(slurm) if local.get(k) != slurm.get(k)})
        print(f"ok: {len(local)} warnings of {len(good)} programs, the same verdicts; "
              f"local {times['local']:.1f} s, Slurm {times['slurm']:.1f} s")

        # Cancel the array task with the slow program while it runs.
        slow = {"program": str(shared / "benchmarks/svcomp/goblint-regression/04-mutex_36-trylock_nr.c")}
        slow_out = tmp / "slow.jsonl"
        subprocess.run([siren, "triage", "--program", slow["program"], "--out", str(slow_out), "--timeout", "1", "-q"],
                       capture_output=True, text=True, timeout=300)
        n_slow = len(results(slow_out))
        assert n_slow >= 1, "the slow program has a candidate"
        cm = tmp / "cancel.jsonl"
        cm.write_text("\n".join(json.dumps(it) for it in [slow] + good) + "\n")
        out = tmp / "cancel-out.jsonl"
        p = subprocess.Popen([siren, "triage", "--manifest", str(cm), "--out", str(out), "--executor", "slurm",
                              "--shards", "2", "--timeout", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        jobfile = Path(str(out) + ".slurm") / "job"
        cancelled, deadline = None, time.monotonic() + 60
        while cancelled is None and time.monotonic() < deadline and p.poll() is None:
            if jobfile.exists() and jobfile.read_text().strip():
                job = jobfile.read_text().strip()
                q = subprocess.run(["squeue", "-h", "-r", "-j", job, "-o", "%i %T"], capture_output=True, text=True)
                for line in q.stdout.splitlines():
                    tid, state = line.split()
                    # The slow program goes to the shard of the smaller programs (LPT), task 1.
                    if tid == f"{job}_1" and state == "RUNNING":
                        time.sleep(1)
                        subprocess.run(["scancel", tid], check=True)
                        cancelled = tid
            time.sleep(0.1)
        assert cancelled, "no running array task to cancel"
        _, err = p.communicate(timeout=240)
        assert p.returncode == 0, f"exit {p.returncode}: {err}"
        assert "submitting them once more" in err, f"nothing resubmitted after scancel {cancelled}:\n{err}"
        got = verdicts(out)
        assert len(got) == len(local) + n_slow, f"{len(got)} results for {len(local) + n_slow} warnings"
        assert all(got[k] == v for k, v in local.items()), "verdicts differ after the cancel"
        print(f"ok: cancelled {cancelled} mid-run; resubmitted; every warning exactly once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
