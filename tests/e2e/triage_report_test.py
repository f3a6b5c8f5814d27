#!/usr/bin/python3
"""End-to-end: `siren triage --manifest M --report DIR` (issue 24, item 4).

Asserts that DIR/index.html has one row per program whose verdict counts are those of the
results file, a total row, and one list item per RACE whose link opens an existing trace page
DIR/races/NAME.html; that every trace page marks exactly two racing accesses and draws a lane
per thread; and that the report is rewritten (not appended) by a resumed run.

Usage: triage_report_test.py SIREN SHARED_DIR"""
import html.parser
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

siren, shared = sys.argv[1], Path(sys.argv[2]).resolve()
g = shared / "benchmarks" / "svcomp" / "goblint-regression"
PROGRAMS = ["04-mutex_01-simple_rc", "04-mutex_07-ps_nr", "09-regions_01-list_rc", "04-mutex_16-ps_add1_rc"]
failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL", what)


class Index(html.parser.HTMLParser):
    """Rows of table#verdicts (cells' text) and the races' links."""

    def __init__(self):
        super().__init__()
        self.rows, self.links, self.races, self._row, self._cell = [], [], 0, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr":
            self._row = {"class": a.get("class", ""), "cells": []}
        elif tag in ("td", "th") and self._row is not None:
            self._cell = ""
        elif tag == "li" and a.get("class") == "race":
            self.races += 1
        elif tag == "a":
            self.links.append(a.get("href"))

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row["cells"].append(self._cell.strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None


with tempfile.TemporaryDirectory() as tmpname:
    tmp = Path(tmpname)
    (tmp / "m.jsonl").write_text("".join(json.dumps({"program": str(g / f"{p}.c")}) + "\n" for p in PROGRAMS))
    report, out = tmp / "report", tmp / "r.jsonl"
    for attempt in range(2):  # the second run answers nothing new and writes the same report
        p = subprocess.run([siren, "triage", "--manifest", str(tmp / "m.jsonl"), "--out", str(out), "--report",
                            str(report), "-q"], capture_output=True, text=True, timeout=300)
        expect(p.returncode == 0, f"run {attempt + 1}: exit {p.returncode}: {p.stderr.strip()[:300]}")
        lines = [json.loads(l) for l in out.read_text().splitlines()]
        idx = Index()
        idx.feed((report / "index.html").read_text())
        header = next(r["cells"] for r in idx.rows if not r["class"])
        programs = [r for r in idx.rows if r["class"] == "program"]
        expect(len(programs) == len(PROGRAMS), f"run {attempt + 1}: {len(programs)} program rows")
        for row in programs:
            mine = [l for l in lines if l["program"] == row["cells"][0]]
            for col, cell in zip(header[1:], row["cells"][1:]):
                n = sum(1 for l in mine if l["verdict"] == col)
                expect(int(cell) == n, f"{row['cells'][0]} {col}: report {cell}, results {n}")
        total = next(r["cells"] for r in idx.rows if r["class"] == "total")
        expect(sum(int(c) for c in total[1:]) == len(lines), f"total row {total} vs {len(lines)} results")
        races = [l for l in lines if l["verdict"] == "RACE"]
        expect(races and idx.races == len(races), f"{idx.races} race rows for {len(races)} races")
        expect(len(idx.links) == len(races), f"{len(idx.links)} links for {len(races)} races")
        for href in idx.links:
            page = report / href
            expect(page.exists(), f"trace page {href} exists")
            if page.exists():
                text = page.read_text()
                marked = re.findall(r'class="step[^"]*\bracing\b', text)
                expect(len(marked) == 2 and 'class="lane"' in text, f"{href}: {len(marked)} racing accesses marked")
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
