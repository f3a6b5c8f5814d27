#!/usr/bin/python3
"""End-to-end: `siren race --witness W --sarif S --json` on programs with a known race.

For each program asserts:
- the verdict is UNSAFE (exit 10) and the JSON race names the expected variable and lines;
- the GraphML witness parses, declares the SV-COMP keys, has the data-race specification
  and the program's SHA-256, is one path from the entry node to the violation node;
- every thread (threadId) other than main (0) is started by an earlier edge whose
  createThread names it, and every createThread names a thread not started before;
- the last edge is the first racy access (thread and line as in the JSON);
- the SARIF log is 2.1.0 with one result whose two locations are the racy lines.

Usage: race_witness_test.py SIREN"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

NS = {"g": "http://graphml.graphdrawing.org/xmlns"}
siren = sys.argv[1]
tmp = tempfile.mkdtemp(prefix="siren-witness-")

# name -> (source, racy variable, the two racy lines as a set)
PROGRAMS = {
    "two_workers": ("""#include <pthread.h>
int x;
void *w(void *a) {
  x = 1;
  return 0;
}
void *r(void *a) {
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
""", "x", {4, 8}),
    # The race is between main and the second thread it creates (the first one is joined
    # before): thread ids and createThread must follow the creation order.
    "after_join": ("""#include <pthread.h>
int x, z;
void *f(void *a) {
  z = 1;
  return 0;
}
void *g(void *a) {
  x = 2;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, f, 0);
  pthread_join(a, 0);
  z = 3;
  pthread_create(&b, 0, g, 0);
  x = 5;
  pthread_join(b, 0);
  return 0;
}
""", "x", {8, 17}),
}

failures = []


def check(name, source, var, lines):
    c = os.path.join(tmp, name + ".c")
    with open(c, "w") as f:
        f.write(source)
    witness = os.path.join(tmp, name + ".graphml")
    sarif = os.path.join(tmp, name + ".sarif")
    p = subprocess.run([siren, "race", c, "--json", "--witness", witness, "--sarif", sarif,
                        "--timeout", "60"], capture_output=True, text=True, timeout=120)
    problems = []

    def expect(cond, what):
        if not cond:
            problems.append(what)

    expect(p.returncode == 10, f"exit {p.returncode}, expected 10 (race): {p.stderr.strip()[:200]}")
    if p.returncode != 10:
        return problems
    doc = json.loads(p.stdout)
    race = doc["race"]
    expect(race["first"]["variable"] == var and race["second"]["variable"] == var,
           f"race on {race['first']['variable']}/{race['second']['variable']}, expected {var}")
    expect({race["first"]["line"], race["second"]["line"]} == lines,
           f"racy lines {race['first']['line']},{race['second']['line']}, expected {sorted(lines)}")

    root = ET.parse(witness).getroot()
    keys = {k.get("id") for k in root.findall("g:key", NS)}
    for k in ("witness-type", "specification", "programfile", "programhash", "entry",
              "violation", "startline", "threadId", "createThread"):
        expect(k in keys, f"witness lacks key {k}")
    graph = root.find("g:graph", NS)
    gdata = {d.get("key"): d.text for d in graph.findall("g:data", NS)}
    expect(gdata.get("witness-type") == "violation_witness", "witness-type")
    expect(gdata.get("specification") == "CHECK( init(main()), LTL(G ! data-race) )",
           f"specification {gdata.get('specification')!r}")
    expect(gdata.get("programhash") == hashlib.sha256(source.encode()).hexdigest(), "programhash")

    nodes = {n.get("id"): {d.get("key"): d.text for d in n.findall("g:data", NS)}
             for n in graph.findall("g:node", NS)}
    edges = graph.findall("g:edge", NS)
    entries = [n for n, d in nodes.items() if d.get("entry") == "true"]
    violations = [n for n, d in nodes.items() if d.get("violation") == "true"]
    expect(len(entries) == 1 and len(violations) == 1, f"entry {entries}, violation {violations}")
    # One path: each edge leaves the node the previous one entered.
    at = entries[0] if entries else None
    started = {"0"}
    creates = 0
    for e in edges:
        d = {x.get("key"): x.text for x in e.findall("g:data", NS)}
        expect(e.get("source") == at, f"edge {e.get('source')}->{e.get('target')} does not continue the path at {at}")
        at = e.get("target")
        tid = d.get("threadId")
        expect(tid in started, f"edge at line {d.get('startline')} runs thread {tid} before a createThread names it")
        if "createThread" in d:
            creates += 1
            expect(d["createThread"] not in started, f"thread {d['createThread']} created twice")
            started.add(d["createThread"])
    expect(at == (violations[0] if violations else None), "the path does not end at the violation node")
    expect(creates == 2, f"{creates} createThread edges, expected 2 (both programs create two threads)")
    last = {x.get("key"): x.text for x in edges[-1].findall("g:data", NS)} if edges else {}
    expect(last.get("startline") == str(race["first"]["line"]),
           f"last edge at line {last.get('startline')}, the first racy access is at {race['first']['line']}")

    log = json.load(open(sarif))
    expect(log.get("version") == "2.1.0", f"SARIF version {log.get('version')}")
    results = log["runs"][0]["results"]
    expect(len(results) == 1, f"{len(results)} SARIF results, expected 1")
    if results:
        r = results[0]
        got = {r["locations"][0]["physicalLocation"]["region"]["startLine"]}
        got |= {x["physicalLocation"]["region"]["startLine"] for x in r.get("relatedLocations", [])}
        expect(got == lines, f"SARIF lines {sorted(got)}, expected {sorted(lines)}")
    return problems


for name, (source, var, lines) in PROGRAMS.items():
    problems = check(name, source, var, lines)
    print(f"{'FAIL' if problems else 'PASS'} {name}")
    for pr in problems:
        print("   ", pr)
    if problems:
        failures.append(name)

print(f"{len(PROGRAMS) - len(failures)}/{len(PROGRAMS)} passed")
sys.exit(1 if failures else 0)
