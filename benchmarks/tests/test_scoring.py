"""Tests of benchmarks/run: scoring, outcome classification, task parsing, and the runner end
to end against fake_siren (a script that answers, crashes, hangs or prints garbage depending on
the task's file name).

Run from the repository root:  /usr/bin/python3 -m unittest -v benchmarks/tests/test_scoring.py
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
REPO = os.path.dirname(BENCH)
sys.path.insert(0, os.path.join(BENCH, "lib"))

from svbench import outcome, report, scoring, tasks  # noqa: E402

SHARED = os.environ.get("SIREN_SHARED_DIR") or os.path.join(REPO, "..", "shared")
SVCOMP = os.path.join(SHARED, "benchmarks", "svcomp")
FAKE = os.path.join(HERE, "fake_siren")
FAKE_TASKS = os.path.join(HERE, "tasks")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


class Scoring(unittest.TestCase):
    def setUp(self):
        self.rows = scoring.read_csv(os.path.join(HERE, "data", "hand_made.csv"))

    def test_points_per_result(self):
        self.assertEqual(scoring.score("correct", "true"), 2)
        self.assertEqual(scoring.score("correct", "false"), 1)
        self.assertEqual(scoring.score("wrong", "false"), -32)   # answered true
        self.assertEqual(scoring.score("wrong", "true"), -16)    # answered false
        for o in ("unknown", "timeout", "memout", "crash", "error", "unparseable"):
            self.assertEqual(scoring.score(o, "true"), 0, o)
            self.assertEqual(scoring.score(o, "false"), 0, o)

    def test_hand_made_csv_totals(self):
        per = scoring.totals_by(self.rows, lambda r: r["config"])
        x, y = per["x"], per["y"]
        # x: +2 (SAFE) +2 (SAFE_UP_TO_BOUND) +1 -32 -16, and 0 for the other six outcomes
        self.assertEqual(x.score, -43)
        self.assertEqual((x.tasks, x.correct_true, x.proofs, x.correct_false), (11, 2, 1, 1))
        self.assertEqual((x.thread_bounded, x.any_threads), (1, 0))  # f1/correct-true-bounded: up to 8 threads
        self.assertEqual((x.wrong_true, x.wrong_false), (1, 1))
        self.assertEqual((x.unknown, x.timeout, x.memout, x.crash, x.error, x.unparseable),
                         (1, 1, 1, 1, 1, 1))
        self.assertAlmostEqual(x.cpu_seconds, 68.9)
        self.assertAlmostEqual(x.cpu_correct, 3.5)
        self.assertEqual(y.score, 2 + 2 + 1 + 1 + 2)
        self.assertEqual((y.correct_true, y.proofs, y.correct_false, y.wrong), (3, 3, 2, 0))
        # y's f1/correct-true-bounded is proven for any number of threads: a proof, not a bound
        self.assertEqual((y.any_threads, y.thread_bounded), (1, 0))

    def test_per_folder(self):
        per = scoring.totals_by(self.rows, lambda r: (r["folder"], r["config"]))
        self.assertEqual(per[("f1", "x")].score, 2 + 2 + 1 - 32)
        self.assertEqual(per[("f2", "x")].score, -16)
        self.assertEqual(per[("f2", "y")].score, 2)

    def test_unknown_outcome_is_rejected(self):
        t = scoring.Totals()
        with self.assertRaises(ValueError):
            t.add({"outcome": "maybe", "expected": "true"})

    def test_cells(self):
        self.assertEqual(report._cell({"outcome": "unknown", "schedules": "3", "cpu_seconds": "0.5"}),
                         "3 schedules 0.50 s")
        self.assertEqual(report._cell({"outcome": "unknown", "schedules": "", "cpu_seconds": "0.5"}),
                         "UNKNOWN 0.50 s")
        self.assertEqual(report._cell({"outcome": "correct", "verdict": "SAFE", "cpu_seconds": "1"}),
                         "SAFE ok 1.00 s")

    def test_markdown(self):
        meta = {"command": "benchmarks/run --config x= --config y=", "date": "today",
                "machine": report.machine_description(), "siren": "build/siren",
                "siren_describe": "v0", "siren_version": "siren 0", "tasks_dir": "t",
                "timeout": 60.0, "memory_mb": 4096, "jobs": 2, "wall_seconds": 1.0,
                "configs": [["x", ""], ["y", "--reduction sir"]],
                "skipped": [["a", "no-data-race"]], "problems": []}
        text = report.render(self.rows, meta)
        self.assertIn("| x | 11 | 2 (1 / 0 / 1) | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | **-43** |", text)
        self.assertIn("| f2 | y | 1 |", text)
        self.assertIn("| f1/wrong-true | unreach-call | false | SAFE_UP_TO_BOUND **WRONG**",
                      text)
        self.assertIn("| no-data-race | 1 |", text)
        self.assertIn(meta["command"], text)
        self.assertIn("nproc", text)


def json_out(verdict, **more):
    return json.dumps({"verdict": verdict, "bound": 4, "reason": "", "trace": [],
                       "stats": {"frames": 4}, **more})


class Classification(unittest.TestCase):
    CASES = [
        # (exit code, stdout, expected, timed out) -> (outcome, verdict, proof)
        ((0, json_out("SAFE"), "true", False), ("correct", "SAFE", "yes")),
        ((0, json_out("SAFE_UP_TO_BOUND"), "true", False), ("correct", "SAFE_UP_TO_BOUND", "no")),
        ((10, json_out("UNSAFE"), "false", False), ("correct", "UNSAFE", "")),
        ((0, json_out("SAFE"), "false", False), ("wrong", "SAFE", "yes")),
        ((0, json_out("SAFE_UP_TO_BOUND"), "false", False), ("wrong", "SAFE_UP_TO_BOUND", "no")),
        ((10, json_out("UNSAFE"), "true", False), ("wrong", "UNSAFE", "")),
        ((5, json_out("UNKNOWN", reason="unsupported: asm"), "true", False),
         ("unknown", "UNKNOWN", "")),
        ((5, json_out("UNKNOWN", reason="timeout after 60 s"), "false", False),
         ("timeout", "UNKNOWN", "")),
        ((5, json_out("UNKNOWN", reason="memory limit of 4096 MB"), "false", False),
         ("memout", "UNKNOWN", "")),
        ((-9, "", "true", True), ("timeout", "", "")),
        ((0, json_out("SAFE"), "true", True), ("timeout", "", "")),   # killed: never correct
        ((-11, json_out("SAFE"), "true", False), ("crash", "", "")),
        ((-6, "", "false", False), ("crash", "", "")),
        ((2, "", "true", False), ("crash", "", "")),
        ((3, json_out("SAFE"), "true", False), ("crash", "", "")),
        ((0, json_out("UNSAFE"), "false", False), ("crash", "UNSAFE", "")),  # code contradicts
        ((1, "", "true", False), ("error", "", "")),
        ((6, "", "false", False), ("error", "", "")),
        ((0, "", "true", False), ("unparseable", "", "")),
        ((0, "SAFE", "true", False), ("unparseable", "", "")),
        ((0, "{\"verdict\": \"SAFE\"", "true", False), ("unparseable", "", "")),
        ((0, json.dumps({"verdict": "safe"}), "true", False), ("unparseable", "", "")),
        ((0, json.dumps(["SAFE"]), "true", False), ("unparseable", "", "")),
        ((10, "log line\n" + json_out("UNSAFE") + "\n", "false", False),
         ("correct", "UNSAFE", "")),
        ((0, json_out("SAFE"), "", False), ("unknown", "SAFE", "yes")),   # no expected verdict
    ]

    def test_cases(self):
        for args, want in self.CASES:
            with self.subTest(args=args):
                c = outcome.classify(*args)
                self.assertEqual((c.outcome, c.verdict, c.proof), want)
                self.assertIn(c.outcome, outcome.OUTCOMES)

    def test_only_matching_verdicts_are_correct(self):
        for code, verdict in ((0, "SAFE"), (0, "SAFE_UP_TO_BOUND"), (10, "UNSAFE"),
                              (5, "UNKNOWN")):
            for expected in ("true", "false"):
                c = outcome.classify(code, json_out(verdict), expected)
                right = (verdict == "UNSAFE") == (expected == "false") and verdict != "UNKNOWN"
                self.assertEqual(c.outcome == "correct", right, (verdict, expected))


@unittest.skipUnless(os.path.isdir(SVCOMP), f"shared tasks not found at {SVCOMP}")
class SharedTasks(unittest.TestCase):
    def test_real_task_files(self):
        root = SVCOMP
        t = tasks.parse_task_file(os.path.join(root, "pthread-lit", "qw2004-2.yml"), root)
        self.assertEqual(len(t), 1)
        self.assertEqual((t[0].task_id, t[0].folder, t[0].property, t[0].expected),
                         ("pthread-lit/qw2004-2", "pthread-lit", "unreach-call", "false"))
        self.assertEqual(t[0].input_file, os.path.join(os.path.abspath(root), "pthread-lit",
                                                       "qw2004-2.c"))
        self.assertTrue(os.path.isfile(t[0].input_file))
        two = tasks.parse_task_file(os.path.join(root, "pthread-atomic", "gcd-2.yml"), root)
        self.assertEqual(sorted(x.property for x in two), ["termination", "unreach-call"])

    def test_whole_set_matches_index(self):
        loaded, problems = tasks.load_tasks(SVCOMP)
        self.assertEqual(problems, [])
        with open(os.path.join(SVCOMP, "INDEX.tsv"), encoding="utf-8") as f:
            index = [line.rstrip("\n").split("\t") for line in f][1:]
        self.assertEqual(len(loaded), len(index))
        ours = {(t.task_id.split("/")[-1] + ".yml", t.property.replace("no-data-races",
                 "other:no-data-races.prp").replace("termination", "other:termination.prp"),
                 t.expected) for t in loaded}
        theirs = {(row[1], row[3], row[4]) for row in index}
        self.assertEqual(ours, theirs)
        for t in loaded:
            self.assertTrue(os.path.isfile(t.input_file), t.input_file)

    def test_filter(self):
        loaded, _ = tasks.load_tasks(SVCOMP, r"^pthread-lit/.*:unreach-call$")
        self.assertEqual([t.task_id for t in loaded],
                         ["pthread-lit/fk2012", "pthread-lit/qw2004-1", "pthread-lit/qw2004-2"])


class RunnerEndToEnd(unittest.TestCase):
    """benchmarks/run against fake_siren on tests/tasks (one task per outcome)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="svbench-test-")
        cls.out = os.path.join(cls.tmp, "out")
        cls.md = os.path.join(cls.tmp, "md", "RESULTS.md")
        cmd = [sys.executable, os.path.join(BENCH, "run"), "--siren", FAKE, "--tasks",
               FAKE_TASKS, "--timeout", "1", "--slack", "0.5", "--jobs", "4",
               "--config", "plain=", "--config", "bounded=--bound 3 --reduction none",
               "--alone", "bounded",
               # no-data-race has a command (race) by default; switch it off to test skipping
               "--command", "no-data-race=",
               "--out", cls.out, "--results-md", cls.md, "--plots"]
        start = time.monotonic()
        cls.proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        cls.elapsed = time.monotonic() - start
        path = os.path.join(cls.out, "results.csv")
        cls.rows = scoring.read_csv(path) if os.path.exists(path) else []

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def row(self, task, config="plain"):
        found = [r for r in self.rows if r["task"] == task and r["config"] == config]
        self.assertEqual(len(found), 1, (task, config))
        return found[0]

    def test_exit_status(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)

    def test_each_outcome(self):
        want = {
            "ok/safe-true": ("correct", "SAFE", "yes", 2),
            "ok/bounded-true": ("correct", "SAFE_UP_TO_BOUND", "no", 2),
            "ok/unsafe-false": ("correct", "UNSAFE", "", 1),
            "ok/safe-wrong": ("wrong", "SAFE", "yes", -32),
            "ok/unsafe-wrong": ("wrong", "UNSAFE", "", -16),
            "ok/unknown-true": ("unknown", "UNKNOWN", "", 0),
            "bad/selftimeout": ("timeout", "UNKNOWN", "", 0),
            "bad/sleep": ("timeout", "", "", 0),
            "bad/crash": ("crash", "", "", 0),
            "bad/internal": ("crash", "", "", 0),
            "bad/mismatch": ("crash", "UNSAFE", "", 0),
            "bad/inputerr": ("error", "", "", 0),
            "bad/garbage": ("unparseable", "", "", 0),
        }
        self.assertEqual(len(self.rows), 2 * len(want), self.proc.stderr)
        for config in ("plain", "bounded"):
            for task, (out, verdict, proof, points) in want.items():
                with self.subTest(task=task, config=config):
                    r = self.row(task, config)
                    self.assertEqual((r["outcome"], r["verdict"], r["proof"], int(r["score"])),
                                     (out, verdict, proof, points))

    def test_details(self):
        crash = self.row("bad/crash")
        self.assertEqual(crash["exit_code"], "-11")
        self.assertIn("signal 11", crash["reason"])
        self.assertIn("expected ';'", self.row("bad/inputerr")["reason"])
        sleep = self.row("bad/sleep")
        self.assertGreaterEqual(float(sleep["seconds"]), 1.5)
        self.assertLess(float(sleep["seconds"]), 5)
        self.assertLess(self.elapsed, 60)   # the killed runs did not hold the runner up
        safe = self.row("ok/safe-true", "bounded")
        self.assertEqual((safe["bound"], safe["schedules"], safe["frames"], safe["vars"],
                          safe["clauses"], safe["siren_peak_rss_mb"]),
                         ("7", "42", "7", "120", "345", "12.5"))
        self.assertGreater(float(safe["peak_mb"]), 1)
        self.assertGreater(float(safe["cpu_seconds"]), 0)
        # the runner passes the limits and the configuration's arguments to siren
        self.assertIn("--timeout 1 --memory 4096 --bound 3 --reduction none", safe["reason"])
        self.assertIn("--reduction none", safe["command"])

    def test_alone_runs_overlap_nothing(self):
        spans = [(r["config"], r["task"], float(r["started"]), float(r["started"]) + float(r["seconds"]))
                 for r in self.rows]
        alone = [s for s in spans if s[0] == "bounded"]
        self.assertEqual(len(alone), len(spans) // 2)
        for c, t, a, b in alone:
            for c2, t2, a2, b2 in spans:
                if (c2, t2) != (c, t):
                    self.assertTrue(b <= a2 + 0.05 or b2 <= a + 0.05, ((c, t, a, b), (c2, t2, a2, b2)))
        self.assertIn("the runs of bounded ran one at a time", read(self.md))

    def test_skipped_and_outputs(self):
        self.assertNotIn("no-data-race", {r["property"] for r in self.rows})
        summary = read(os.path.join(self.out, "summary.md"))
        self.assertIn("| no-data-race | 2 |", summary)
        self.assertIn("bad/broken.yml", summary)          # an unreadable task file is listed
        self.assertIn("| plain | 13 | 2 (1 / 0 / 1) | 1 | 1 | 1 | 1 | 2 | 0 | 3 | 1 | 1 | **-43** |",
                      summary)
        for name in ("cactus.png", "scatter_plain_vs_bounded.png"):
            with open(os.path.join(self.out, name), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            self.assertTrue(os.path.exists(os.path.join(os.path.dirname(self.md), "results",
                                                        name)))
        md = read(self.md)
        self.assertIn("![cactus.png](results/cactus.png)", md)
        self.assertIn("--config 'bounded=--bound 3 --reduction none'", md)

    def test_rerender_from_csv(self):
        again = os.path.join(self.tmp, "again")
        proc = subprocess.run([sys.executable, os.path.join(BENCH, "run"), "--report",
                               os.path.join(self.out, "results.csv"), "--out", again, "--plots"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(read(os.path.join(again, "summary.md")),
                         read(os.path.join(self.out, "summary.md")))

    def test_missing_siren_is_an_error(self):
        proc = subprocess.run([sys.executable, os.path.join(BENCH, "run"), "--siren",
                               os.path.join(self.tmp, "nope"), "--tasks", FAKE_TASKS],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("not found", proc.stderr)


if __name__ == "__main__":
    unittest.main()
