#!/usr/bin/python3
"""Counterexamples that use values of functions without a body are confirmed natively before
they are printed (confirm/library_values.hpp). The regression cases libvalues_* assert the
verdicts; this test shows that the confirmation is what makes them pass: with the TEST ONLY
switch --test-skip-native-confirmation (the arbitrary values trusted), the rand() cases
become UNSAFE / a RACE whose trace does not happen natively, and the regression case
libvalues_rand_unknown run with the switch FAILS. Triage replays every race natively, and a
race replay confirms only that race, at its own lines (a broken runtime that lets any race end
it is caught).
Usage: library_values_test.py SIREN TESTS_DIR"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

siren, tests = sys.argv[1], sys.argv[2]
regression = os.path.join(tests, "regression")
failures = []


def run(args):
    p = subprocess.run([siren, *args, "--json"], capture_output=True, text=True, timeout=120)
    return p, json.loads(p.stdout)


def expect(what, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what + (": " + detail if detail else ""))


rand_c = os.path.join(regression, "libvalues_rand_unknown", "main.c")
race_c = os.path.join(regression, "libvalues_race_rand_unknown", "main.c")

# 1. As shipped: UNKNOWN, the native replay ran and did not confirm.
p, out = run(["check", rand_c])
expect("check: UNKNOWN with the native confirmation", out["verdict"] == "UNKNOWN" and p.returncode == 5 and
       out.get("native_confirmation", {}).get("confirmed") is False, p.stdout[:800])

# 2. Broken: the switch trusts the arbitrary value: UNSAFE, and that trace does not happen natively.
p, out = run(["check", rand_c, "--test-skip-native-confirmation"])
expect("check --test-skip-native-confirmation: UNSAFE (the wrong verdict)", out["verdict"] == "UNSAFE" and
       p.returncode == 10, p.stdout[:800])
with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    json.dump(out, f)
r = subprocess.run([siren, "test", rand_c, "--replay", f.name], capture_output=True, text=True, timeout=120)
os.unlink(f.name)
expect("... and siren test --replay does not see it natively", r.returncode != 10, r.stdout[:800])

# 3. The regression case run with the switch fails (run_test.py exit 1).
tmp = tempfile.mkdtemp(prefix="siren-libvalues-")
case = os.path.join(tmp, "libvalues_rand_unknown_broken")
shutil.copytree(os.path.join(regression, "libvalues_rand_unknown"), case)
with open(os.path.join(case, "test.desc"), "a") as f:
    f.write("args: --test-skip-native-confirmation\n")
r = subprocess.run([sys.executable, os.path.join(regression, "run_test.py"), siren, case], capture_output=True,
                   text=True, timeout=300)
expect("regression case libvalues_rand_unknown with the switch FAILS", r.returncode == 1 and "FAIL" in r.stdout,
       r.stdout[:800])
shutil.rmtree(tmp)

# 3b. When the native oracle cannot build the program (here: its runtime is missing), a
# counterexample that would be UNSAFE (libvalues_rand_unsafe) is UNKNOWN naming the function.
unsafe_c = os.path.join(regression, "libvalues_rand_unsafe", "main.c")
p = subprocess.run([siren, "check", unsafe_c, "--json"], capture_output=True, text=True, timeout=120,
                   env=dict(os.environ, SIREN_NATIVE_RT="/nonexistent/libsiren_native_rt.a"))
out = json.loads(p.stdout)
expect("check without a native build: UNKNOWN, not UNSAFE", out["verdict"] == "UNKNOWN" and
       "'rand()'" in out["reason"] and "could not be compiled natively" in out["reason"], p.stdout[:800])

# 4. siren race: the same two ways.
p, out = run(["race", race_c])
expect("race: UNKNOWN, not a race", out["verdict"] == "UNKNOWN" and p.returncode == 5, p.stdout[:800])
p, out = run(["race", race_c, "--test-skip-native-confirmation"])
expect("race --test-skip-native-confirmation: UNSAFE (the wrong verdict)", out["verdict"] == "UNSAFE", p.stdout[:800])

# 5. siren triage: the warning (the thread's write, main's read) is UNKNOWN, not RACE, for the
# impossible value; RACE for the twin whose write happens with the real rand().
def triage(program):
    loc = lambda line: {"physicalLocation": {"artifactLocation": {"uri": "main.c"}, "region": {"startLine": line}}}
    sarif = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "hand-written", "rules": [{"id": "race"}]}},
                                           "results": [{"ruleId": "race", "message": {"text": "data"},
                                                        "locations": [loc(8)], "relatedLocations": [loc(14)]}]}]}
    with tempfile.TemporaryDirectory() as d:
        w, o = os.path.join(d, "w.sarif"), os.path.join(d, "out.jsonl")
        with open(w, "w") as f:
            json.dump(sarif, f)
        p = subprocess.run([siren, "triage", w, "--program", program, "--out", o, "-q"], capture_output=True,
                           text=True, timeout=300)
        lines = open(o).read().splitlines() if os.path.exists(o) else []
        return p, [json.loads(l) for l in lines]


p, answers = triage(race_c)
expect("triage: the impossible race is UNKNOWN naming rand()",
       len(answers) == 1 and answers[0]["verdict"] == "UNKNOWN" and "'rand()'" in answers[0].get("reason", ""),
       p.stdout[:400] + p.stderr[:400] + str(answers))
p, answers = triage(os.path.join(regression, "libvalues_race_rand_unsafe", "main.c"))
expect("triage: the real race is RACE, natively confirmed",
       len(answers) == 1 and answers[0]["verdict"] == "RACE" and
       answers[0]["witness"].get("native_confirmation", {}).get("confirmed") is True,
       p.stdout[:400] + p.stderr[:400] + str(answers))

# 3. Triage replays every race natively, also one that uses no library value, and the replay
#    of a race confirms that race: the lost update of d.board_idx (line 4) lies on the way to
#    the race on d.printed_version (line 5), and only the latter may end that replay (the
#    runtime knows the bytes of the whole global d, so its line tells the two apart, as for
#    gdrom's gd.pending written at two lines). Broken runtime (SIREN_RT_TEST_BROKEN=5: any
#    race ends the replay of another): the replay of line 5 shows the race at line 4, which
#    confirms nothing: line 5 is UNKNOWN, its reason naming the race it saw.
LOST = """#include <pthread.h>
struct { int board_idx, printed_version; } d;
void *probe(void *arg) {
  int mine = d.board_idx++;
  if (mine == 0) d.printed_version++;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, probe, 0);
  pthread_create(&t2, 0, probe, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
"""


def triage_lost(broken):
    with tempfile.TemporaryDirectory() as d:
        c, w = os.path.join(d, "lost.c"), os.path.join(d, "w.csv")
        open(c, "w").write(LOST)
        open(w, "w").write("lost.c,4,14,lost.c,4,14\nlost.c,5,18,lost.c,5,18\n")
        env = dict(os.environ, SIREN_RT_TEST_BROKEN="5" if broken else "0")
        p = subprocess.run([siren, "triage", w, "--program", c, "-q"], capture_output=True, text=True, timeout=300,
                           env=env, cwd=d)
        answers = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
        native = {a["first"]["line"]: ((a.get("witness") or {}).get("native_confirmation") or {}) for a in answers}
        return p, answers, native


p, answers, native = triage_lost(False)
expect("triage: both races RACE, each replayed natively at its own line without library values",
       [a["verdict"] for a in answers] == ["RACE", "RACE"] and
       all(native[l].get("functions") == [] and native[l].get("replayed") is True and
           native[l].get("native") == "data race at lost.c:%d / lost.c:%d" % (l, l) for l in (4, 5)),
       p.stderr[:400] + str(native))
p, answers, native = triage_lost(True)
verdicts = {a["first"]["line"]: a["verdict"] for a in answers}
reasons = {a["first"]["line"]: a.get("reason", "") for a in answers}
expect("broken runtime (any race ends a race replay): the line-5 race is UNKNOWN, its replay showed line 4's",
       verdicts.get(4) == "RACE" and verdicts.get(5) == "UNKNOWN" and "a data race at lost.c:4" in reasons.get(5, "")
       and "not at lines 5 / 5" in reasons.get(5, ""), p.stderr[:400] + str(answers))

if failures:
    print("FAILED:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("PASS")
