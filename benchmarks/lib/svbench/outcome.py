"""Classify one finished siren run into an outcome.

Outcomes (never anything but `correct` counts as correct):
  correct      the verdict matches the expected verdict
  wrong        SAFE / SAFE_UP_TO_BOUND on an expected-false task, UNSAFE on an expected-true task
  unknown      siren answered UNKNOWN (or a verdict on a task with no expected verdict)
  timeout      the runner killed siren at the wall-clock limit, or siren said UNKNOWN because
               of its own time limit
  memout       siren said UNKNOWN because of its memory limit
  crash        killed by a signal, exit code 2 (internal error), an exit code outside the
               interface, or an exit code that contradicts the printed verdict
  error        exit code 1 (usage) or 6 (input error)
  unparseable  exit code 0/5/10 but stdout holds no JSON object with a known verdict

The siren interface: exit 0 SAFE/SAFE_UP_TO_BOUND, 10 UNSAFE, 5 UNKNOWN, 1 usage, 6 input, 2
internal error; with --json one JSON object on stdout.
"""

import json
import re
from dataclasses import dataclass, field

OUTCOMES = ("correct", "wrong", "unknown", "timeout", "memout", "crash", "error", "unparseable")

VERDICTS = ("SAFE", "SAFE_UP_TO_BOUND", "UNSAFE", "UNKNOWN")
EXIT_CODE_OF_VERDICT = {"SAFE": 0, "SAFE_UP_TO_BOUND": 0, "UNSAFE": 10, "UNKNOWN": 5}

_TIME_REASON = re.compile(r"time.?out|time limit|deadline", re.I)
_MEMORY_REASON = re.compile(r"memory|out of mem|bad_alloc|memout", re.I)


@dataclass
class Classified:
    outcome: str
    verdict: str = ""         # SAFE, SAFE_UP_TO_BOUND, UNSAFE, UNKNOWN, or "" without an answer
    answer: str = ""          # "true" / "false" / "" -- the SV-COMP answer the verdict stands for
    proof: str = ""           # "yes" for SAFE, "no" for SAFE_UP_TO_BOUND, "" otherwise
    reason: str = ""
    json: dict = field(default_factory=dict)


def parse_json_output(stdout):
    """The JSON object siren printed, or None. Accepts the whole stdout being one object, or
    (tolerating stray log lines) the last line that parses as an object."""
    text = stdout.strip()
    if not text:
        return None
    try:
        value = json.loads(text)
        return value if isinstance(value, dict) else None
    except ValueError:
        pass
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict):
                return value
    return None


def classify(exit_code, stdout, expected, timed_out=False):
    """Outcome of one run.

    exit_code: the process's return code (negative = killed by that signal, None = unknown);
    stdout: its standard output (str); expected: "true" / "false" / ""; timed_out: the runner
    killed it at its wall-clock limit.
    """
    if timed_out:
        return Classified("timeout", reason="killed at the wall-clock limit")
    if exit_code is None:
        return Classified("crash", reason="no exit status")
    if exit_code < 0:
        return Classified("crash", reason=f"killed by signal {-exit_code}")
    if exit_code == 2:
        return Classified("crash", reason="internal error (exit code 2)")
    if exit_code in (1, 6):
        kind = "usage error" if exit_code == 1 else "input error"
        return Classified("error", reason=f"{kind} (exit code {exit_code})")
    if exit_code not in (0, 5, 10):
        return Classified("crash", reason=f"unexpected exit code {exit_code}")

    doc = parse_json_output(stdout)
    if doc is None:
        return Classified("unparseable", reason="no JSON object on stdout")
    verdict = doc.get("verdict")
    if not isinstance(verdict, str) or verdict not in VERDICTS:
        return Classified("unparseable", reason=f"unknown verdict {verdict!r}", json=doc)
    reason = str(doc.get("reason") or "")
    if EXIT_CODE_OF_VERDICT[verdict] != exit_code:
        return Classified("crash", verdict=verdict, json=doc,
                          reason=f"exit code {exit_code} contradicts verdict {verdict}")
    if verdict == "UNKNOWN":
        outcome = "unknown"
        if _TIME_REASON.search(reason):
            outcome = "timeout"
        elif _MEMORY_REASON.search(reason):
            outcome = "memout"
        return Classified(outcome, verdict=verdict, reason=reason, json=doc)

    answer = "false" if verdict == "UNSAFE" else "true"
    proof = "" if verdict == "UNSAFE" else ("yes" if verdict == "SAFE" else "no")
    if expected not in ("true", "false"):
        outcome = "unknown"
        reason = reason or "task has no expected verdict"
    else:
        outcome = "correct" if answer == expected else "wrong"
    return Classified(outcome, verdict=verdict, answer=answer, proof=proof, reason=reason,
                      json=doc)
