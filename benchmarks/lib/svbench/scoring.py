"""SV-COMP scoring and aggregates over result rows (one row per task, property and config).

Scores (SV-COMP rules): +2 correct true, +1 correct false, -32 wrong true (answered true, the
expected verdict is false), -16 wrong false (answered false, the expected verdict is true),
0 for everything else (unknown, timeout, memout, crash, error, unparseable).
For `unreach-call` SAFE and SAFE_UP_TO_BOUND both answer true (column `proof` tells them apart).
"""

import csv
from dataclasses import dataclass, fields

SCORE_CORRECT_TRUE = 2
SCORE_CORRECT_FALSE = 1
SCORE_WRONG_TRUE = -32
SCORE_WRONG_FALSE = -16

# Column order of results.csv.
COLUMNS = (
    "config", "task", "folder", "property", "expected", "verdict", "outcome", "proof", "score",
    "started", "seconds", "cpu_seconds", "peak_mb", "bound", "thread_bound", "schedules", "frames", "vars", "clauses",
    "solve_seconds", "total_seconds", "siren_peak_rss_mb", "exit_code", "reason", "input_file",
    "command",
)


def score(outcome, expected):
    """Score of one result. `expected` is the task's expected verdict ("true"/"false")."""
    if outcome == "correct":
        return SCORE_CORRECT_TRUE if expected == "true" else SCORE_CORRECT_FALSE
    if outcome == "wrong":
        # A wrong answer is the opposite of the expected verdict.
        return SCORE_WRONG_TRUE if expected == "false" else SCORE_WRONG_FALSE
    return 0


@dataclass
class Totals:
    tasks: int = 0
    correct_true: int = 0
    correct_false: int = 0
    proofs: int = 0          # correct true answers that were SAFE (not only up to the bound)
    any_threads: int = 0     # proofs for any number of threads (siren's bounds.threads "unbounded")
    thread_bounded: int = 0  # correct true answers up to a thread bound (siren's bounds.threads: N)
    wrong_true: int = 0
    wrong_false: int = 0
    unknown: int = 0
    timeout: int = 0
    memout: int = 0
    crash: int = 0
    error: int = 0
    unparseable: int = 0
    score: int = 0
    cpu_seconds: float = 0.0
    cpu_correct: float = 0.0  # CPU time of the correct results (what SV-COMP reports)

    @property
    def correct(self):
        return self.correct_true + self.correct_false

    @property
    def wrong(self):
        return self.wrong_true + self.wrong_false

    def add(self, row):
        outcome, expected = row["outcome"], row["expected"]
        self.tasks += 1
        cpu = to_float(row.get("cpu_seconds")) or 0.0
        self.cpu_seconds += cpu
        if outcome == "correct":
            self.cpu_correct += cpu
            if expected == "true":
                self.correct_true += 1
                self.proofs += row.get("proof") == "yes"
                threads = str(row.get("thread_bound") or "")
                self.any_threads += threads == "unbounded"
                self.thread_bounded += threads not in ("", "0", "unbounded")
            else:
                self.correct_false += 1
        elif outcome == "wrong":
            if expected == "false":
                self.wrong_true += 1
            else:
                self.wrong_false += 1
        elif outcome in ("unknown", "timeout", "memout", "crash", "error", "unparseable"):
            setattr(self, outcome, getattr(self, outcome) + 1)
        else:
            raise ValueError(f"unknown outcome {outcome!r} for {row.get('task')}")
        self.score += score(outcome, expected)

    def as_dict(self):
        return {f.name: getattr(self, f.name) for f in fields(self)}


def totals_by(rows, key):
    """{key(row): Totals} in first-seen order of the keys."""
    out = {}
    for row in rows:
        out.setdefault(key(row), Totals()).add(row)
    return out


def to_float(value):
    if value in (None, ""):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def write_csv(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        w.writeheader()
        for row in rows:
            w.writerow(row)
