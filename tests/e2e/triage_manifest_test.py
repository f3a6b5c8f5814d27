#!/usr/bin/python3
"""End-to-end: `siren triage --manifest` over shared SV-COMP no-data-race programs.

A manifest of 9 goblint-regression programs (lockset candidates; one by a path relative to the
manifest, one with clang_args, one with an id prefix), a warnings file of 60 pairs, and bad
lines: malformed JSON, an unknown key, a missing program, a warnings file with a duplicate pair.
Asserts: one `siren: MANIFEST:LINE: ...` line per bad line and exit 6; every good item answered
exactly as a single-program run answers it, each line naming its program; a second run answers
nothing new; a run SIGKILLed mid-way and resumed answers every warning exactly once; and
`--executor slurm` without Slurm installed / with a Slurm that does not answer is a one-line
error (exit 6).

Usage: triage_manifest_test.py SIREN SHARED_DIR
"""
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROGRAMS = ["04-mutex_01-simple_rc", "04-mutex_07-ps_nr", "04-mutex_11-ptr_rc", "04-mutex_16-ps_add1_rc",
            "05-lval_ls_01-idx_rc", "06-symbeq_10-equ_rc", "06-symbeq_11-equ_nr", "09-regions_01-list_rc",
            "09-regions_02-list_nr"]


def good_manifest(shared, tmp):
    """The good lines (as dicts) of the manifest; writes what they refer to into tmp."""
    g = shared / "benchmarks" / "svcomp" / "goblint-regression"
    items = [{"program": str(g / f"{p}.c")} for p in PROGRAMS]
    shutil.copy(g / "04-mutex_07-ps_nr.c", tmp / "local.c")
    items[1] = {"program": "local.c", "clang_args": ["-DUNUSED=1"]}  # relative to the manifest
    items[6]["id"] = "equ"
    prog = g / "09-regions_02-list_nr.c"
    lines = [11, 12, 24, 25, 26, 36, 38, 43, 44, 13, 30]
    pairs = list(itertools.combinations_with_replacement(lines, 2))[:60]
    (tmp / "w60.json").write_text(json.dumps(
        [{"first": {"file": prog.name, "line": a}, "second": {"file": prog.name, "line": b}} for a, b in pairs]))
    items.append({"program": str(prog), "warnings": "w60.json", "id": "regions60"})
    return items


def results(out):
    return [json.loads(l) for l in Path(out).read_text().splitlines()]


def main():
    siren, shared = sys.argv[1], Path(sys.argv[2]).resolve()
    with tempfile.TemporaryDirectory() as tmpname:
        tmp = Path(tmpname)
        good = good_manifest(shared, tmp)
        # Expected: what single-program runs answer.
        expected = {}  # (program, first/second key) -> verdict
        for it in good:
            prog = it["program"] if os.path.isabs(it["program"]) else str(tmp / it["program"])
            single = tmp / "single.jsonl"
            single.unlink(missing_ok=True)
            cmd = [siren, "triage", "--program", prog, "-q", "--out", str(single)]
            cmd += [str(tmp / it["warnings"])] if "warnings" in it else []
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            assert r.returncode == 0, f"{cmd}: exit {r.returncode}: {r.stderr}"
            for j in results(single):
                expected[(it.get("id", it["program"]), j["id"])] = (prog, j["verdict"])
        # 60 given warnings and the lockset candidates of the rest (74 since create/join order
        # keeps main's accesses before pthread_create out of the candidates)
        assert len(expected) >= 70, len(expected)

        dup = tmp / "dup.json"
        dup.write_text(json.dumps([{"first": {"file": "a.c", "line": 3}, "second": {"file": "a.c", "line": 4}},
                                   {"first": {"file": "a.c", "line": 4}, "second": {"file": "a.c", "line": 3}}]))
        text = [json.dumps(it) for it in good]
        bad = {  # line number -> (manifest line, what the error must say)
            len(text) + 2: ('{"program": "local.c"', "malformed JSON"),
            len(text) + 3: ('{"program": "local.c", "id": "x", "warning": "w60.json"}', 'unknown key "warning"'),
            len(text) + 4: ('{"program": "no-such-program.c"}', "no such file"),
            len(text) + 5: ('{"program": "local.c", "id": "dup", "warnings": "dup.json"}', "duplicate warning id"),
        }
        text.append("# a comment line")
        text += [v[0] for _, v in sorted(bad.items())]
        manifest = tmp / "manifest.jsonl"
        manifest.write_text("\n".join(text) + "\n")
        out = tmp / "out.jsonl"
        cmd = [siren, "triage", "--manifest", str(manifest), "--out", str(out), "--jobs", "2"]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert r.returncode == 6, f"exit {r.returncode} (expected 6): {r.stderr}"
        errors = [l for l in r.stderr.splitlines() if l.startswith(f"siren: {manifest}:")]
        assert len(errors) == len(bad), f"expected {len(bad)} error lines, got:\n" + "\n".join(errors)
        for n, (_, what) in bad.items():
            assert any(l.startswith(f"siren: {manifest}:{n}: ") and what in l for l in errors), \
                f"no error for line {n} ({what}):\n" + "\n".join(errors)
        got = results(out)
        ids = [j["id"] for j in got]
        assert len(ids) == len(set(ids)), "a warning answered twice"
        assert len(got) == len(expected), f"{len(got)} results for {len(expected)} warnings"
        for j in got:
            prefix, wid = j["id"].rsplit("/", 1)
            prog, verdict = expected[(prefix, wid)]
            assert Path(j["program"]).resolve() == Path(prog).resolve(), j["program"]
            assert j["verdict"] == verdict, f"{j['id']}: {j['verdict']} (single-program run: {verdict})"
        print(f"ok: {len(got)} warnings of {len(good)} programs, {len(bad)} bad lines reported")
        before = out.read_text()
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert r.returncode == 6 and out.read_text() == before, "a second run changed the results"
        assert f"{len(got)} of {len(got)} warnings already answered" in r.stderr, r.stderr
        print("ok: a second run answers nothing new")

        # --shard I/N: three shards, each its own file: disjoint, together every warning.
        shard_ids = []
        for i in range(3):
            sf = tmp / f"shard{i}.jsonl"
            r = subprocess.run([siren, "triage", "--manifest", str(manifest), "--out", str(sf), "--shard", f"{i}/3",
                                "-q"], capture_output=True, text=True, timeout=300)
            assert r.returncode == 6, f"shard {i}: exit {r.returncode}: {r.stderr}"
            shard_ids.append({j["id"] for j in results(sf)})
            assert shard_ids[-1], f"shard {i} is empty"
        assert sum(len(s) for s in shard_ids) == len(got) and set().union(*shard_ids) == set(ids), "shards overlap"
        print("ok: --shard 0/3, 1/3, 2/3: disjoint, every warning once")

        # SIGKILL mid-way: a slow program first (about 8 s with --timeout 1), then the rest.
        slow = {"program": str(shared / "benchmarks/svcomp/goblint-regression/04-mutex_36-trylock_nr.c")}
        slow_out = tmp / "slow.jsonl"
        subprocess.run([siren, "triage", "--program", slow["program"], "--out", str(slow_out), "--timeout", "1", "-q"],
                       capture_output=True, text=True, timeout=300)
        n_slow = len(results(slow_out))
        assert n_slow >= 1, "the slow program has a candidate"
        kill_manifest = tmp / "kill.jsonl"
        kill_manifest.write_text("\n".join(json.dumps(it) for it in [slow] + good) + "\n")
        kout = tmp / "kill.jsonl.out"
        kcmd = [siren, "triage", "--manifest", str(kill_manifest), "--out", str(kout), "--timeout", "1", "-q"]
        p = subprocess.Popen(kcmd, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and p.poll() is None:
            if kout.exists() and kout.read_text().count("\n") >= 1:
                break
            time.sleep(0.02)
        killed_early = p.poll() is None
        p.send_signal(signal.SIGKILL)
        p.wait()
        at_kill = kout.read_text().count("\n")
        assert killed_early and at_kill < len(expected), f"not killed mid-way ({at_kill} lines)"
        time.sleep(0.5)
        r = subprocess.run(kcmd, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, f"resumed run: exit {r.returncode}: {r.stderr}"
        ids = [j["id"] for j in results(kout)]
        assert len(ids) == len(set(ids)), "a warning answered twice after the kill"
        assert len(ids) == len(expected) + n_slow, f"{len(ids)} results for {len(expected) + n_slow} warnings"
        print(f"ok: killed after {at_kill} lines, resumed: every warning exactly once")

        # Slurm missing / not answering: one line, exit 6.
        fake = tmp / "bin"
        fake.mkdir()
        env = dict(os.environ, PATH=str(fake))
        sout = tmp / "slurm.jsonl"
        scmd = [siren, "triage", "--manifest", str(manifest), "--out", str(sout), "--executor", "slurm", "-q"]
        r = subprocess.run(scmd, capture_output=True, text=True, timeout=120, env=env)
        msgs = [l for l in r.stderr.splitlines() if "slurm" in l.lower()]
        assert r.returncode == 6 and len(msgs) == 1 and "not installed" in msgs[0], (r.returncode, r.stderr)
        for tool in ("sbatch", "squeue", "scancel"):
            f = fake / tool
            f.write_text("#!/bin/sh\necho 'sbatch: error: Batch job submission failed: Unable to contact slurm "
                         "controller (connect failure)' >&2\nexit 1\n")
            f.chmod(0o755)
        r = subprocess.run(scmd, capture_output=True, text=True, timeout=120, env=env)
        msgs = [l for l in r.stderr.splitlines() if "slurm" in l.lower()]
        assert r.returncode == 6 and len(msgs) == 1 and "Unable to contact" in msgs[0], (r.returncode, r.stderr)
        print("ok: Slurm not installed / not running: one line, exit 6")

        # Every array task fails, twice: the open warnings are answered UNKNOWN with the state.
        (fake / "sbatch").write_text("#!/bin/sh\necho 77\n")
        (fake / "squeue").write_text("#!/bin/sh\ni=0\nwhile [ $i -lt 64 ]; do echo \"77_$i FAILED NonZeroExitCode\"; "
                                     "i=$((i+1)); done\n")
        (fake / "scancel").write_text("#!/bin/sh\nexit 0\n")
        r = subprocess.run(scmd, capture_output=True, text=True, timeout=120, env=env)
        assert r.returncode == 6, (r.returncode, r.stderr)  # the manifest's bad lines
        got = results(sout)
        assert len(got) == len(expected) and len({j["id"] for j in got}) == len(got), len(got)
        assert all(j["verdict"] == "UNKNOWN" and j["reason"] == "slurm: FAILED NonZeroExitCode" for j in got), got[0]
        print("ok: failed array tasks, submitted twice: UNKNOWN with the Slurm state")
    return 0


if __name__ == "__main__":
    sys.exit(main())
