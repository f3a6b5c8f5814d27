#!/usr/bin/python3
"""siren tg on Fig. 1: invariants at (a3,b1), (a3,b2), (a3,b3), sliced edges, relevant vars, and
SIR's SS-pairs: exactly (a1,b1), (a1,b2), (a1,b3) (DESIGN.md §B4), in both orders, and the
collapsed graph they give: main runs a1..a3 without a switch, so of the 56 complete paths of the
transaction graph 6 remain (main's one transaction before b1, after it, after b2, after b3, with
t2's two local transactions around them)."""
import functools
import json
import subprocess
import sys

siren, fig1 = sys.argv[1], sys.argv[2]
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)


p = subprocess.run([siren, "tg", "--json", fig1], capture_output=True, text=True, timeout=60)
check(p.returncode == 0, "exit code %d: %s" % (p.returncode, p.stderr))
j = json.loads(p.stdout)
check(j["complete"], "graph incomplete")
by_label = {n["label"]: n for n in j["nodes"]}
for label, v in [("main:fig1.c:25 t2#1:fig1.c:12", 2), ("main:fig1.c:25 t2#1:fig1.c:13", 4),
                 ("main:fig1.c:25 t2#1:fig1.c:14", 7), ("main:fig1.c:23 t2#1:fig1.c:14", 5),
                 ("main:fig1.c:24 t2#1:fig1.c:14", 6)]:
    n = by_label.get(label)
    check(n is not None, "no node " + label)
    if n:
        check(n["shared_intervals"].get("sh") == [v, v], "%s: sh is %s, expected [%d, %d]"
              % (label, n["shared_intervals"].get("sh"), v, v))
        check("%d <= sh <= %d" % (v, v) in n["invariant"], "%s: invariant text %r" % (label, n["invariant"]))
check(j["num_sliced_edges"] >= 2, "expected sliced edges (b3 and a3 guards)")
check(any("sh" in c["relevant"] for c in j["clusters"]), "sh is not a relevant shared variable")
sir = j["sir"]
check(sir["gave_up"] is None, "sir gave up: %s" % sir["gave_up"])
ss = set()
for p in sir["pairs"]:
    if not p["insensitive"]:
        a, b = p["where"].split(" / ")
        ss.add(frozenset((a, b)))
want = {frozenset(("main:fig1.c:23", "t2#1:fig1.c:%d" % b)) for b in (12, 13, 14)}
check(ss == want, "SS-pairs %s, expected %s" % (sorted(map(sorted, ss)), sorted(map(sorted, want))))
check(sir["ss_pairs"] == 6 and sir["insensitive_pairs"] == 10,
      "pair counts %d SS / %d insensitive, expected 6 / 10" % (sir["ss_pairs"], sir["insensitive_pairs"]))


def complete_paths(edges):
    out = {}
    for e in edges:
        out.setdefault(e["src"], []).append(e["dst"])

    @functools.lru_cache(None)
    def count(n):
        return sum(count(d) for d in out[n]) if n in out else 1
    return count(0)


col = j["collapsed"]
a2a3 = {n["id"] for n in j["nodes"]
        if n["label"].split(" ")[0] in ("main:fig1.c:24", "main:fig1.c:25") and not n["terminated"]}
removed = {(r["node"], r["thread"]) for r in col["removed_switches"]}
check(removed == {(i, "main") for i in a2a3},
      "switches removed at %s, expected main's at every a2/a3 node %s" % (sorted(removed), sorted(a2a3)))
check(not a2a3 & set(col["nodes"]), "the collapsed graph still has a2/a3 nodes %s" % sorted(a2a3 & set(col["nodes"])))
final = [n["id"] for n in j["nodes"] if n["terminated"]]
check(len(final) == 1 and final[0] in col["nodes"], "the final node is lost in the collapsed graph")
full_paths = complete_paths([e for e in j["edges"] if not e["sliced"]])
col_paths = complete_paths(col["edges"])
check(full_paths == 56 and col_paths == 6, "complete paths %d -> %d, expected 56 -> 6" % (full_paths, col_paths))
for e in col["edges"]:
    if e["thread"] == "main" and e["text"].startswith("main fig1.c:23.."):
        check(not e["text"].startswith("main fig1.c:23..fig1.c:23"), "main stops after a1: " + e["text"])
for flag in ([], ["--dot"], ["--dot", "--collapsed"]):
    q = subprocess.run([siren, "tg", fig1] + flag, capture_output=True, text=True, timeout=60)
    check(q.returncode == 0 and "sh" in q.stdout, "siren tg %s failed" % " ".join(flag))
q = subprocess.run([siren, "tg", "/nonexistent.c"], capture_output=True, text=True, timeout=60)
check(q.returncode == 6, "missing file: exit %d" % q.returncode)
if failures:
    print("\n".join(failures))
    sys.exit(1)
print("ok")
