#!/usr/bin/python3
"""End-to-end: violation witnesses (`--witness`) and `siren validate` (issue 23, items 3 and 4).

Asserts:
- `siren check` and `siren race` write a GraphML and a YAML witness of every UNSAFE answer; the
  GraphML parses as XML with the SV-COMP keys and the program's SHA-256, the YAML parses (PyYAML)
  as one violation_sequence of format 2.2 with thread_id on every waypoint, a target at the
  failing line (check) or two targets at the racing lines (race);
- `siren validate` CONFIRMS each of them (exit 10) and prints the replayed run;
- mutated witnesses are REJECTED (exit 0): a wrong thread id, a wrong branch, a wrong line, in
  both formats; another program's hash is a one-line error, exit 6;
- bad witness input (not XML or YAML, unsupported format version, missing file, a correctness
  witness) is a one-line error with exit 6, never a crash;
- witnesses written by hand the way other tools write them (GraphML with other key ids and no
  thread ids; a YAML 2.0 sequence without thread_id) are confirmed;
- the broken variant: `siren validate --test-ignore-witness` (a validator that only looks for any
  violation) CONFIRMS the mutated witnesses, so the rejection checks above would catch it.

- `siren triage --witness-dir` writes both witnesses of every RACE (tests/triage/simple_rc.sarif)
  and `siren validate` confirms each.

Usage: witness_test.py SIREN SHARED_DIR"""
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import yaml

siren = sys.argv[1]
shared = sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
tmp = tempfile.mkdtemp(prefix="siren-witness-")
NS = {"g": "http://graphml.graphdrawing.org/xmlns"}
failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL", what)


def write(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


# No nondet values, three threads with different code: every mutation below makes the witness
# false, and the validator's search is complete (so it can reject).
REACH = write("reach.c", """#include <pthread.h>
void reach_error(void);
int x, y;
void *setter(void *a) {
  x = 1;
  return 0;
}
void *other(void *a) {
  y = 2;
  return 0;
}
int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, setter, 0);
  pthread_create(&h2, 0, other, 0);
  if (x == 1) {
    if (y == 2)
      reach_error();
  }
  return 0;
}
""")
REACH_ERROR_LINE = 18

RACE = write("race.c", """#include <pthread.h>
int x, z;
void *w(void *a) {
  x = 1;
  return 0;
}
void *r(void *a) {
  z = 5;
  int y = x;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, r, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
""")
RACE_LINES = {4, 9}

# A nondet value decides the path: the witness carries it (function_return / assumption).
NONDET = write("nondet.c", """#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
void reach_error(void);
int g;
void *t(void *a) {
  g = g + 1;
  return 0;
}
int main(void) {
  pthread_t h;
  int n = __VERIFIER_nondet_int();
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  if (n == 7 && g == 1)
    reach_error();
  return 0;
}
""")


def run(args):
    return subprocess.run([siren, *args], capture_output=True, text=True, timeout=120)


def validate(witness, program, *extra):
    p = run(["validate", witness, program, *extra])
    first = (p.stdout.strip().splitlines() or [""])[0]
    return p.returncode, first, p.stderr.strip()


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def check_graphml(path, program, spec):
    root = ET.parse(path).getroot()
    keys = {k.get("attr.name") for k in root.findall("g:key", NS)}
    for k in ("witness-type", "programhash", "threadId", "createThread", "startline", "isViolationNode"):
        expect(k in keys, f"{path}: GraphML key {k} declared")
    graph = root.find("g:graph", NS)
    data = {d.get("key"): d.text for d in graph.findall("g:data", NS)}
    expect(data.get("witness-type") == "violation_witness", f"{path}: witness-type")
    expect(data.get("programhash") == sha256(program), f"{path}: programhash is the program's SHA-256")
    expect(spec in (data.get("specification") or ""), f"{path}: specification names {spec}")
    edges = graph.findall("g:edge", NS)
    expect(all(e.find("g:data[@key='threadId']", NS) is not None for e in edges), f"{path}: threadId on every edge")
    return edges


def check_yaml(path, program, spec):
    doc = yaml.safe_load(open(path))
    expect(isinstance(doc, list) and len(doc) == 1 and doc[0]["entry_type"] == "violation_sequence",
           f"{path}: one violation_sequence entry")
    meta = doc[0]["metadata"]
    expect(meta["format_version"] == "2.2", f"{path}: format_version 2.2")
    expect(list(meta["task"]["input_file_hashes"].values()) == [sha256(program)], f"{path}: input_file_hashes")
    expect(spec in meta["task"]["specification"], f"{path}: specification names {spec}")
    segments = doc[0]["content"]
    waypoints = [w["waypoint"] for s in segments for w in s["segment"]]
    expect(all("thread_id" in w for w in waypoints), f"{path}: thread_id on every waypoint")
    expect(all(w["type"] != "target" for s in segments[:-1] for w in (x["waypoint"] for x in s["segment"])),
           f"{path}: targets only in the final segment")
    return [w["waypoint"] for w in segments[-1]["segment"]]


def confirmed(witness, program, what):
    code, first, err = validate(witness, program)
    expect(code == 10 and first.startswith("VALIDATION RESULT: CONFIRMED"),
           f"{what}: validate confirms ({code}: {first} {err})")


# --- siren check: both formats, confirmed ---------------------------------------------------
g1, y1 = os.path.join(tmp, "reach.graphml"), os.path.join(tmp, "reach.yml")
p = run(["check", REACH, "--witness", g1, "--witness", y1])
expect(p.returncode == 10, f"check reach.c is UNSAFE ({p.returncode})")
edges = check_graphml(g1, REACH, "reach_error")
expect(any(e.find("g:data[@key='createThread']", NS) is not None for e in edges), "reach.graphml: createThread")
targets = check_yaml(y1, REACH, "reach_error")
expect(len(targets) == 1 and targets[0]["type"] == "target" and targets[0]["location"]["line"] == REACH_ERROR_LINE,
       f"reach.yml: one target at line {REACH_ERROR_LINE}: {targets}")
confirmed(g1, REACH, "check GraphML")
confirmed(y1, REACH, "check YAML")

gn, yn = os.path.join(tmp, "nondet.graphml"), os.path.join(tmp, "nondet.yml")
p = run(["check", NONDET, "--witness", gn, "--witness", yn])
expect(p.returncode == 10, f"check nondet.c is UNSAFE ({p.returncode})")
expect("\\result == 7" in open(gn).read(), "nondet.graphml: the nondet value as an assumption")
expect(any(w["waypoint"]["type"] == "function_return" and "7" in w["waypoint"]["constraint"]["value"]
           for s in yaml.safe_load(open(yn))[0]["content"] for w in s["segment"]), "nondet.yml: a function_return waypoint")
confirmed(gn, NONDET, "nondet GraphML")
confirmed(yn, NONDET, "nondet YAML")

# --- siren race: both formats, confirmed -----------------------------------------------------
g2, y2 = os.path.join(tmp, "race.graphml"), os.path.join(tmp, "race.yml")
p = run(["race", RACE, "--witness", g2, "--witness-format", "graphml"])
expect(p.returncode == 10, f"race race.c is UNSAFE ({p.returncode})")
p = run(["race", RACE, "--witness", y2, "--witness-format", "yaml"])
edges = check_graphml(g2, RACE, "data-race")
last = int(edges[-1].find("g:data[@key='startline']", NS).text)
expect(last in RACE_LINES, f"race.graphml: the last edge is a racing access ({last})")
targets = check_yaml(y2, RACE, "data-race")
expect(len(targets) == 2 and {t["location"]["line"] for t in targets} == RACE_LINES,
       f"race.yml: two targets at the racing lines: {targets}")
confirmed(g2, RACE, "race GraphML")
confirmed(y2, RACE, "race YAML")


# --- mutations: rejected -----------------------------------------------------------------------
def mutate(src, dst, pattern, repl):
    text = open(src).read()
    new, n = re.subn(pattern, repl, text, count=1, flags=re.S)
    expect(n == 1, f"mutation {dst}: pattern found")
    return write(dst, new)


MUTANTS = [
    # the setter's assignment (line 5) said to be run by thread 2 (which runs `other`)
    mutate(g1, "m_thread.graphml", r'(startline">5</data>\s*<data key="threadId">)1<', r"\g<1>2<"),
    mutate(y1, "m_thread.yml", r"(line: 5\n\s*thread_id: )1", r"\g<1>2"),
    # the first condition (x == 1) said to be false
    mutate(g1, "m_branch.graphml", r"condition-true", "condition-false"),
    mutate(y1, "m_branch.yml", r'value: "true"', 'value: "false"'),
    # other's assignment (line 9) moved to line 2, where nothing executes
    mutate(g1, "m_line.graphml", r'startline">9<', 'startline">2<'),
    mutate(y1, "m_line.yml", r"line: 9\n", "line: 2\n"),
]
for m in MUTANTS:
    code, first, err = validate(m, REACH)
    expect(code == 0 and first.startswith("VALIDATION RESULT: REJECTED"), f"{os.path.basename(m)} rejected ({code}: {first} {err})")
# the race witness with the second target at a line that does not race
mr = mutate(y2, "m_race.yml", r"(line: )9(\n\s*thread_id: 2\s*)$", r"\g<1>8\2")
code, first, err = validate(mr, RACE)
expect(code == 0 and "REJECTED" in first, f"m_race.yml rejected ({code}: {first} {err})")

# The broken variant: a validator that ignores the witness confirms every mutant.
for m in MUTANTS:
    code, first, _ = validate(m, REACH, "--test-ignore-witness")
    expect(code == 10, f"broken variant: --test-ignore-witness confirms {os.path.basename(m)} ({code}: {first})")


# --- bad witness input: one line, exit 6 -------------------------------------------------------
def input_error(witness, program, what):
    code, first, err = validate(witness, program)
    lines = err.splitlines()
    expect(code == 6 and len(lines) == 1 and lines[0].startswith("siren: ") and not first,
           f"{what}: one-line error, exit 6 ({code}: {err!r} {first!r})")


input_error(mutate(g1, "m_hash.graphml", r'programhash">[0-9a-f]+<', 'programhash">' + "ab" * 32 + "<"), REACH,
            "GraphML with another program's hash")
input_error(mutate(y1, "m_hash.yml", r'(reach\.c": )[0-9a-f]+', r"\g<1>" + "cd" * 32), REACH,
            "YAML with another program's hash")
input_error(g1, RACE, "a witness of reach.c validated against race.c")
input_error(write("garbage.graphml", "\x00\x01binary\xff garbage"), REACH, "not XML or YAML")
input_error(write("broken.graphml", "<graphml><graph><node id='a'></graph>"), REACH, "malformed XML")
input_error(write("broken.yml", "- entry_type: violation_sequence\n  metadata: [unclosed\n"), REACH, "malformed YAML")
input_error(mutate(y1, "m_version.yml", r'format_version: "2.2"', 'format_version: "9.0"'), REACH, "YAML format 9.0")
input_error(mutate(g1, "m_type.graphml", r"violation_witness", "correctness_witness"), REACH, "a correctness witness")
input_error(os.path.join(tmp, "missing.graphml"), REACH, "missing witness file")

# --- witnesses as other tools write them --------------------------------------------------------
other_graphml = write("other.graphml", f"""<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
 <key id="d0" for="graph" attr.name="witness-type" attr.type="string"/>
 <key id="d1" for="graph" attr.name="specification" attr.type="string"/>
 <key id="d2" for="node" attr.name="isEntryNode" attr.type="boolean"><default>false</default></key>
 <key id="d3" for="node" attr.name="isViolationNode" attr.type="boolean"><default>false</default></key>
 <key id="d4" for="edge" attr.name="startline" attr.type="int"/>
 <key id="d5" for="edge" attr.name="control" attr.type="string"/>
 <key id="d6" for="node" attr.name="isSinkNode" attr.type="boolean"><default>false</default></key>
 <graph edgedefault="directed">
  <data key="d0">violation_witness</data>
  <data key="d1">CHECK( init(main()), LTL(G ! call(reach_error())) )</data>
  <node id="A"><data key="d2">true</data></node>
  <node id="B"/> <node id="S"><data key="d6">true</data></node>
  <node id="E"><data key="d3">true</data></node>
  <!-- no thread ids: the lines and the branches alone -->
  <edge source="A" target="B"><data key="d4">16</data><data key="d5">condition-true</data></edge>
  <edge source="A" target="S"><data key="d4">16</data><data key="d5">condition-false</data></edge>
  <edge source="B" target="E"><data key="d4">17</data><data key="d5">condition-true</data></edge>
 </graph>
</graphml>
""")
confirmed(other_graphml, REACH, "a GraphML witness with other key ids and a sink")
other_yaml = write("other.yml", """# as a sequential verifier writes format 2.0: no thread ids
- entry_type: "violation_sequence"
  metadata:
    format_version: '2.0'
    uuid: 5e3c1a8e-0000-4000-8000-000000000000
    creation_time: 2024-01-01T00:00:00Z
    producer: {name: other-tool, version: "1.0"}
    task:
      input_files: [nondet.c]
      specification: "CHECK( init(main()), LTL(G ! call(reach_error())) )"
      data_model: ILP32
      language: C
  content:
    - segment:
      - waypoint: {type: function_return, action: follow, location: {file_name: nondet.c, line: 11, column: 34}, constraint: {value: "\\\\result == 7", format: acsl_expression}}
    - segment:
      - waypoint:
          type: branching
          action: follow
          constraint: {value: "true"}
          location: {file_name: nondet.c, line: 14, column: 3}
    - segment:
      - waypoint: {type: target, action: follow, location: {file_name: nondet.c, line: 15, column: 5}}
""")
confirmed(other_yaml, NONDET, "a YAML 2.0 witness without thread ids")

# --- siren triage --witness-dir ------------------------------------------------------------------
import json  # noqa: E402

wdir = os.path.join(tmp, "triage-witnesses")
os.makedirs(wdir)
program = os.path.join(shared, "benchmarks", "svcomp", "goblint-regression", "04-mutex_01-simple_rc.c")
out = os.path.join(tmp, "triage.jsonl")
p = run(["triage", os.path.join(HERE, "..", "triage", "simple_rc.sarif"), "--program", program, "--out", out,
         "--witness-dir", wdir, "--quiet"])
lines = [json.loads(l) for l in open(out)] if os.path.exists(out) else []
races = [l for l in lines if l["verdict"] == "RACE"]
expect(p.returncode in (0, 10) and races, f"triage simple_rc finds races ({p.returncode}, {len(races)})")
files = sorted(os.listdir(wdir))
expect(len(files) == 2 * len(races), f"triage: two witnesses per RACE ({len(files)} files, {len(races)} races)")
for l in races:
    expect(len(l["witness"].get("files", [])) == 2, f"triage: {l['id']} lists its witness files")
for f in files:
    confirmed(os.path.join(wdir, f), program, f"triage witness {f}")

print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
