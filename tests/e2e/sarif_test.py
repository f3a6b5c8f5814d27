#!/usr/bin/env python3
"""End-to-end: every SARIF log siren writes passes Microsoft's validator with no error and no
warning (issue 23, item 5), and check's log shows the interleaving.

    sarif_test.py SIREN VALIDATOR TESTS_DIR

Writes logs with `siren check --sarif` (UNSAFE with three threads, SAFE, UNKNOWN), `siren race
--sarif` (a race, no race) and `siren triage --sarif` (tests/triage/ordered.sarif, and the race
log siren itself wrote, read back as warnings), and runs VALIDATOR (`sarif-multitool validate`,
npm package @microsoft/sarif-multitool, installed by scripts/setup --tests into build/npm) on all of
them: any error or warning fails the test, as does a missing validator. The UNSAFE log must
have one threadFlow per thread of the replayed trace, executionOrder numbering the trace's
statements 1..N across the flows, the last one at the failing assertion. A deliberately broken
log (siren's old shape: an absolute path used with a uriBaseId, no informationUri) must be
reported by the validator, so the check is known to catch what it should.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

PROGRAMS = {
    # Two threads increment x without a lock: main's assert(x == 2) can fail.
    "lost_update.c": """#include <pthread.h>
#include <assert.h>
int x = 0;
void *inc(void *arg) {
  int t = x;
  x = t + 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(x == 2);
  return 0;
}
""",
    # The same with a lock: SAFE, and no data race.
    "locked.c": """#include <pthread.h>
#include <assert.h>
int x = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *inc(void *arg) {
  pthread_mutex_lock(&m);
  x = x + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(x == 2);
  return 0;
}
""",
    # An int read across two cells: UNKNOWN (possible memory-safety violation).
    "unknown.c": """#include <assert.h>
struct two { int a, b; } s = { 1, 2 };
int main(void) {
  char *p = (char *)&s.b + 1;
  int v = *(int *)p;
  assert(v != 12345);
  return 0;
}
""",
    # main and the thread write x unordered: a data race.
    "race.c": """#include <pthread.h>
int x;
void *w(void *arg) {
  x = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  x = 2;
  pthread_join(t, 0);
  return 0;
}
""",
}
ASSERT_LINE = 15  # of lost_update.c

# siren's SARIF before issue 23 item 5: an absolute path as a relative reference with a
# uriBaseId (SARIF1004, an error) and a driver without informationUri (SARIF2005, a warning).
BROKEN = {
    "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
    "version": "2.1.0",
    "runs": [{
        "tool": {"driver": {"name": "siren", "version": "0.1.0", "rules": [{"id": "data-race"}]}},
        "results": [{
            "ruleId": "data-race", "level": "error", "message": {"text": "Data race on 'x'."},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": "/tmp/race.c", "uriBaseId": "SRCROOT"},
                "region": {"startLine": 10}}}]}]}]}

problems = []


def expect(cond, what):
    if not cond:
        problems.append(what)
    return cond


def run(cmd, codes, cwd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=cwd)
    expect(p.returncode in codes, f"{' '.join(cmd[1:])}: exit {p.returncode}, expected {codes}: {p.stderr.strip()[:300]}")
    return p


def validate(validator, files, tmp):
    """{file name: [(level, rule, text)]} of the validator's error and warning results."""
    out = Path(tmp) / "validation.sarif"
    env = dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1")
    # The npm wrapper runs the tool through a shell: the paths must not need quoting.
    assert all(re.fullmatch(r"[\w./+-]+", str(f)) for f in files), files
    p = subprocess.run([validator, "validate"] + [str(f) for f in files] + ["-o", str(out), "--log", "ForceOverwrite"],
                       capture_output=True, text=True, timeout=300, env=env)
    if not expect(p.returncode == 0 and out.exists(),
                  f"validator: exit {p.returncode}, no output log: {(p.stdout + p.stderr).strip()[:1000]}"):
        return None
    log = json.loads(out.read_text(encoding="utf-8-sig"))
    found = {Path(f).name: [] for f in files}
    for r in log["runs"]:
        rules = r["tool"]["driver"].get("rules", [])
        for inv in r.get("invocations", []):
            for n in inv.get("toolExecutionNotifications", []) + inv.get("toolConfigurationNotifications", []):
                if n.get("level", "warning") in ("error", "warning"):
                    problems.append(f"validator notification: {n['message'].get('text')}")
        for res in r.get("results", []):
            level = res.get("level")
            if level is None and "ruleIndex" in res and res["ruleIndex"] < len(rules):
                level = rules[res["ruleIndex"]].get("defaultConfiguration", {}).get("level")
            level = level or "warning"  # SARIF's default level
            if level not in ("error", "warning"):
                continue
            uri = res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            found.setdefault(Path(uri).name, []).append((level, res.get("ruleId"), p.stdout))
    return found


def check_flows(log, trace, program):
    """The UNSAFE log of `siren check` against the statement rows of its --json trace."""
    run0 = log["runs"][0]
    results = run0["results"]
    if not expect(len(results) == 1, f"check UNSAFE: {len(results)} results, expected 1"):
        return
    r = results[0]
    expect(r["ruleId"] == "assertion-violation" and r["level"] == "error", f"check UNSAFE: {r['ruleId']} {r['level']}")
    expect(r["locations"][0]["physicalLocation"]["region"]["startLine"] == ASSERT_LINE,
           f"check UNSAFE: result at line {r['locations'][0]['physicalLocation']['region']['startLine']}")
    # Every relative location resolves against SRCROOT to the program.
    root = run0["originalUriBaseIds"]["SRCROOT"]["uri"]
    expect(root.startswith("file:///") and root.endswith("/"), f"SRCROOT {root}")
    flows = r["codeFlows"][0]["threadFlows"]
    ids = [f["id"] for f in flows]
    threads = list(dict.fromkeys(row["thread"] for row in trace))
    expect(len(ids) == len(set(ids)), f"thread flow ids repeat: {ids}")
    expect(ids == threads, f"thread flows {ids}, threads of the trace (in order of their first step) {threads}")
    expect(len(ids) >= 3, f"{len(ids)} thread flows; the program runs main and two threads")
    steps = []
    for f in flows:
        orders = [l["executionOrder"] for l in f["locations"]]
        expect(orders == sorted(set(orders)), f"thread {f['id']}: executionOrder not increasing: {orders}")
        for l in f["locations"]:
            steps.append((l["executionOrder"], f["id"], l))
    steps.sort(key=lambda s: s[0])
    expect([s[0] for s in steps] == list(range(1, len(trace) + 1)),
           f"executionOrder {[s[0] for s in steps]}, expected 1..{len(trace)} (the trace's statements)")
    for (order, thread, l), row in zip(steps, trace):
        pl = l["location"]["physicalLocation"]
        art = pl["artifactLocation"]
        expect(art.get("uriBaseId") == "SRCROOT" and root + art["uri"] == Path(program).resolve().as_uri(),
               f"step {order}: {art} does not name {program}")
        got = (thread, pl["region"]["startLine"], l["location"]["message"]["text"])
        want = (row["thread"], row["line"], row["stmt"])
        expect(got == want, f"step {order}: {got}, the trace has {want}")
        state = {k: v["text"] for k, v in l.get("state", {}).items()}
        expect(state == row["values"], f"step {order}: state {state}, the trace changes {row['values']}")
    if steps:
        last = steps[-1][2]
        expect(last["location"]["physicalLocation"]["region"]["startLine"] == ASSERT_LINE
               and "assert" in last["location"]["message"]["text"] and last.get("importance") == "essential",
               f"the last step is not the failing assertion: {last}")


def invocation(log):
    inv = log["runs"][0]["invocations"][0]
    notes = inv.get("toolExecutionNotifications", [])
    return inv.get("properties", {}).get("verdict"), [n["level"] for n in notes]


def main():
    siren, validator, tests = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), Path(sys.argv[3]).resolve()
    if not os.access(validator, os.X_OK):
        print(f"FAIL: the SARIF validator {validator} is missing: run scripts/setup --tests, which installs "
              f"@microsoft/sarif-multitool into the build tree's npm/ folder")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name, text in PROGRAMS.items():
            (tmp / name).write_text(text)
        (tmp / "out").mkdir()
        logs = {}

        def sarif(name):
            logs[name] = tmp / "out" / name
            return str(logs[name])

        # Programs are named relative to the working directory, as users do.
        p = run([siren, "check", "lost_update.c", "--json", "--sarif", sarif("check_unsafe.sarif")], [10], tmp)
        trace = json.loads(p.stdout)["trace"] if p.returncode == 10 else []
        run([siren, "check", "locked.c", "--sarif", sarif("check_safe.sarif")], [0], tmp)
        run([siren, "check", "unknown.c", "--sarif", sarif("check_unknown.sarif")], [5], tmp)
        run([siren, "race", "race.c", "--sarif", sarif("race.sarif")], [10], tmp)
        run([siren, "race", "locked.c", "--sarif", sarif("race_none.sarif")], [0], tmp)
        run([siren, "triage", str(tests / "triage" / "ordered.sarif"), "--program", str(tests / "triage" / "ordered.c"),
             "--out", str(tmp / "ordered.jsonl"), "--sarif", sarif("triage.sarif"), "-q"], [0], tmp)
        # siren's own race log read back as warnings (race/warnings.cpp reads the shape it writes).
        run([siren, "triage", str(logs["race.sarif"]), "--program", "race.c", "--out", str(tmp / "race.jsonl"),
             "--sarif", sarif("triage_race.sarif"), "-q"], [0], tmp)
        # A manifest's SARIF: one run over both programs (ordered.c outside SRCROOT, the manifest's folder).
        (tmp / "m.jsonl").write_text(
            json.dumps({"program": str(tests / "triage" / "ordered.c"), "warnings": str(tests / "triage" / "ordered.sarif")})
            + "\n" + json.dumps({"program": "race.c", "warnings": str(logs["race.sarif"])}) + "\n")
        run([siren, "triage", "--manifest", "m.jsonl", "--out", str(tmp / "m_results.jsonl"),
             "--sarif", sarif("triage_manifest.sarif"), "-q"], [0], tmp)
        broken = tmp / "out" / "broken.sarif"
        broken.write_text(json.dumps(BROKEN, indent=2))

        missing = [n for n, f in logs.items() if not f.exists()]
        expect(not missing, f"not written: {missing}")
        found = validate(validator, [f for f in logs.values() if f.exists()] + [broken], tmp)
        if found is not None:
            for name in logs:
                bad = found.get(name, [])
                expect(not bad, f"{name}: validator: " + ", ".join(f"{lvl} {rule}" for lvl, rule, _ in bad))
                print(f"{'FAIL' if bad else 'ok  '} {name} validated")
                if bad:
                    print(bad[0][2])
            rules = {(lvl, rule) for lvl, rule, _ in found.get("broken.sarif", [])}
            expect(("error", "SARIF1004") in rules and ("warning", "SARIF2005") in rules,
                   f"the broken log was not reported as it should be (SARIF1004 error, SARIF2005 warning): {rules}")
            print(f"ok   broken.sarif reported: {sorted(rules)}")

        loaded = {n: json.loads(f.read_text()) for n, f in logs.items() if f.exists()}
        if "check_unsafe.sarif" in loaded:
            check_flows(loaded["check_unsafe.sarif"], trace, tmp / "lost_update.c")
        for name, verdict, levels, results in [("check_safe.sarif", "SAFE", ["note"], 0),
                                               ("check_unknown.sarif", "UNKNOWN", ["warning"], 0),
                                               ("race_none.sarif", "SAFE", ["note"], 0)]:
            if name in loaded:
                got = invocation(loaded[name]) + (len(loaded[name]["runs"][0]["results"]),)
                expect(got == (verdict, levels, results), f"{name}: verdict, notification levels, results {got}")
        if "race.sarif" in loaded:
            r = loaded["race.sarif"]["runs"][0]["results"]
            expect(len(r) == 1 and r[0]["ruleId"] == "data-race" and r[0]["codeFlows"][0]["threadFlows"],
                   "race.sarif: one data-race result with a code flow")
        for name, n in [("triage.sarif", 9), ("triage_race.sarif", 1), ("triage_manifest.sarif", 10)]:
            if name in loaded:
                got = len(loaded[name]["runs"][0]["results"])
                expect(got == n, f"{name}: {got} results, expected {n}")
        if "triage_manifest.sarif" in loaded:
            programs = {Path(r["properties"].get("program", "")).name for r in loaded["triage_manifest.sarif"]["runs"][0]["results"]}
            expect(programs == {"ordered.c", "race.c"}, f"triage_manifest.sarif: results name both programs: {programs}")
        if "triage_race.sarif" in loaded and loaded["triage_race.sarif"]["runs"][0]["results"]:
            v = loaded["triage_race.sarif"]["runs"][0]["results"][0]["properties"]["verdict"]
            expect(v == "RACE", f"triage of siren's own race log: {v}")
    for pr in problems:
        print("FAIL:", pr)
    print("PASS" if not problems else f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
