#!/usr/bin/python3
"""Bad input and bad flags: each case asserts the exit code and a clear one-line error.
Usage: cli_test.py SIREN TESTS_DIR"""
import json
import os
import subprocess
import sys
import tempfile
import time

siren = sys.argv[1]
tmp = tempfile.mkdtemp(prefix="siren-cli-")


def write(name, data):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


ok_c = write("ok.c", "#include <pthread.h>\nint x;\nvoid *t(void *a) { x = 1; return 0; }\n"
             "int main(void) { pthread_t i; pthread_create(&i, 0, t, 0); return 0; }\n")
spin_c = write("spin.c", "#include <pthread.h>\nint x;\n"
               "void *t(void *a) { while (1) x = x + 1; return 0; }\n"
               "void *u(void *a) { while (1) x = x * 3 + 1; return 0; }\n"
               "int main(void) { pthread_t i, j; pthread_create(&i, 0, t, 0);"
               " pthread_create(&j, 0, u, 0); while (1) { if (x == 12345) return 1; } }\n")
empty_c = write("empty.c", "")
garbage_c = write("garbage.c", bytes(range(256)) * 8)
syntax_c = write("syntax.c", "int main(void) { int x = ; return 0 }\n")
missing_c = os.path.join(tmp, "does_not_exist.c")

failures = []
count = 0


def case(name, args, code, stderr_rx=None, max_seconds=None):
    global count
    count += 1
    start = time.monotonic()
    p = subprocess.run([siren, *args], capture_output=True, text=True, timeout=120)
    elapsed = time.monotonic() - start
    problems = []
    if p.returncode != code:
        problems.append(f"exit {p.returncode}, expected {code}")
    if stderr_rx is not None:
        import re
        if not re.search(stderr_rx, p.stderr):
            problems.append(f"stderr does not match /{stderr_rx}/: {p.stderr.strip()[:300]!r}")
    if "Traceback" in p.stderr or "Assertion" in p.stderr or "Segmentation" in p.stderr:
        problems.append("crash output on stderr")
    if max_seconds is not None and elapsed > max_seconds:
        problems.append(f"took {elapsed:.1f} s, limit {max_seconds} s")
    status = "FAIL" if problems else "PASS"
    print(f"{status} {name}: exit {p.returncode} in {elapsed:.1f} s")
    for pr in problems:
        print("   ", pr)
    if problems:
        failures.append(name)
    return p


# usage errors: exit 1
case("no subcommand", [], 1)
case("unknown flag", ["check", ok_c, "--no-such-flag"], 1)
case("bound 0", ["check", ok_c, "--bound", "0"], 1, r"bound")
case("negative bound", ["check", ok_c, "--bound", "-3"], 1, r"bound")
case("non-numeric bound", ["check", ok_c, "--bound", "abc"], 1, r"bound")
case("threads 0", ["check", ok_c, "--threads", "0"], 1, r"threads")
case("negative timeout", ["check", ok_c, "--timeout", "-1"], 1, r"timeout")
case("unknown reduction", ["check", ok_c, "--reduction", "magic"], 1, r"reduction")
# input errors: exit 6 with a location or the file name
case("missing file", ["check", missing_c], 6, r"does_not_exist\.c")
case("empty file", ["check", empty_c], 6, r"empty\.c")
case("binary garbage", ["check", garbage_c], 6, r"garbage\.c")
case("syntax error", ["check", syntax_c], 6, r"syntax\.c:1:[0-9]+: ?error")
# a missing header: where, which, and how to give it (issue 18)
header_c = write("needs_header.c", '#include "svcomp.h"\nint main(void) { return 0; }\n')
case("missing header", ["check", header_c], 6, r"needs_header\.c:1:10: error: 'svcomp\.h' file not found \(add -I DIR\)")
case("race: missing header", ["race", header_c], 6, r"needs_header\.c:1:10: error: 'svcomp\.h' file not found \(add -I DIR\)")
case("test: missing header", ["test", header_c], 6, r"'svcomp\.h' file not found \(add -I DIR\)")
case("cfg missing file", ["cfg", missing_c], 6, r"does_not_exist\.c")
case("cfg syntax error", ["cfg", syntax_c], 6, r"syntax\.c:1:[0-9]+: ?error")
# a working run
case("ok program", ["check", ok_c], 0)
# --reach on the paper's Fig. 1 (main creates t2#1; main joins it at line 27)
fig1 = os.path.join(os.path.dirname(os.path.abspath(sys.argv[2])), "examples", "fig1.c")
case("reach: main at 26 with t2 finished", ["check", fig1, "--reach", "main:fig1.c:26,t2#1:done"], 10,
     max_seconds=60)
case("reach: main past the join while t2 is at line 12", ["check", fig1, "--reach",
     "main:fig1.c:28,t2#1:fig1.c:12", "--reduction", "mpor"], 0, max_seconds=60)
case("reach: unknown thread", ["check", fig1, "--reach", "nobody:fig1.c:3"], 1, r"no thread named 'nobody'")
case("reach: no instruction on that line", ["check", fig1, "--reach", "main:fig1.c:3"], 1,
     r"no instruction at fig1\.c:3")
case("reach: malformed", ["check", fig1, "--reach", "main"], 1, r"not thread:file:line")
case("reach: line number too large", ["check", fig1, "--reach", "main:fig1.c:99999999999999999999"], 1,
     r"not thread:file:line")
case("reach: not with the explicit engine", ["check", fig1, "--reach", "main:fig1.c:26",
     "--engine", "explicit"], 1, r"--reach runs the BMC engine")
# timeout: UNKNOWN within the limit plus one second (plus process start-up)
p = case("timeout", ["check", spin_c, "--bound", "100000", "--timeout", "2", "--json"], 5,
         max_seconds=3.5)
try:
    out = json.loads(p.stdout)
    if out.get("verdict") != "UNKNOWN" or "timeout" not in out.get("reason", "").lower():
        print(f"FAIL timeout: verdict {out.get('verdict')} reason {out.get('reason')!r}")
        failures.append("timeout")
except json.JSONDecodeError:
    print("FAIL timeout: output is not JSON")
    failures.append("timeout")

# siren test (the native oracle): the same codes.
case("test: missing file", ["test", missing_c], 6, r"does_not_exist\.c")
case("test: syntax error", ["test", syntax_c], 6, r"syntax\.c:1:[0-9]+: error")
case("test: unknown strategy", ["test", ok_c, "--strategy", "magic"], 1, r"strategy")
case("test: zero runs", ["test", ok_c, "--runs", "0"], 1, r"runs")
case("test: replay file missing", ["test", ok_c, "--replay", missing_c], 1, r"replay")
case("test: replay file malformed", ["test", ok_c, "--replay", garbage_c], 6, r"not a siren check/race --json result")
case("test: no violation", ["test", ok_c, "--runs", "50"], 0)
# A program whose runs never end: each run stops at the scheduling-point bound, and the whole
# batch at --timeout (plus compilation).
case("test: timeout", ["test", spin_c, "--runs", "1000000", "--timeout", "3", "--max-steps", "100000000",
                       "--run-timeout-ms", "1000"], 0, max_seconds=15)

# siren test --strategy dfs: the systematic search says when it explored every state, its failing
# run's "this run again" command repeats the violation, and --timeout stops a search that cannot end.
lost_c = write("lost.c", "#include <pthread.h>\n#include <assert.h>\nint x;\n"
               "void *inc(void *a) { x++; return 0; }\n"
               "int main(void) { pthread_t a, b; pthread_create(&a, 0, inc, 0); pthread_create(&b, 0, inc, 0);"
               " pthread_join(a, 0); pthread_join(b, 0); assert(x == 2); return 0; }\n")


def expect_stdout(name, p, rx):
    import re
    if not re.search(rx, p.stdout):
        print(f"FAIL {name}: stdout does not match /{rx}/: {p.stdout.strip()[-300:]!r}")
        failures.append(name)


case("test: schedule without dfs", ["test", ok_c, "--schedule", "0x2,1"], 1, r"--schedule is a run of --strategy dfs")
p = case("test: dfs exhausts", ["test", ok_c, "--strategy", "dfs"], 0)
expect_stdout("test: dfs exhausts", p, r"NO VIOLATION FOUND: every reachable state explored \([0-9]+ states")
p = case("test: dfs finds", ["test", lost_c, "--strategy", "dfs"], 10)
expect_stdout("test: dfs finds", p, r"VIOLATION \(.*x == 2.*dfs schedule")
again = [line for line in p.stdout.splitlines() if line.startswith("this run again: siren test ")]
if not again or "--schedule" not in again[0]:
    print("FAIL test: dfs finds: no 'this run again' command with --schedule")
    failures.append("test: dfs finds")
else:
    p = case("test: dfs schedule repeats", again[0].split()[4:], 10)
    expect_stdout("test: dfs schedule repeats", p, r"VIOLATION .* in run 1 of 1")
p = case("test: dfs timeout", ["test", spin_c, "--strategy", "dfs", "--timeout", "3", "--run-timeout-ms", "1000"], 0,
         max_seconds=15)
expect_stdout("test: dfs timeout", p, r"the systematic search stopped at --runs or --timeout before it explored every state")

print(f"{count - len(set(failures))} passed, {len(set(failures))} failed")
sys.exit(1 if failures else 0)
