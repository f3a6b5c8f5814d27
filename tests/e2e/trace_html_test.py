#!/usr/bin/python3
"""End-to-end: `siren check/race --trace-html FILE`, the pages loaded in headless Chromium.

For an UNSAFE check (main and two workers losing an update) and a data race it runs siren with
--json --trace-html, loads the page in `chromium --headless` (--dump-dom with console logging)
and asserts:
- the page is self-contained (no src=/href= attributes) and loads without console messages
  (an uncaught script error is one), and its script ran: <html data-lanes="N">;
- one <g class="lane"> per thread, named as the JSON trace names them (threads that run or are
  started), N equal to that number;
- one box per trace row (and per racing access), the failing statement (the last row, its
  C text intact through HTML escaping) or the two racing accesses (thread and line as in the
  JSON) marked, and nothing else;
- a screenshot is produced and is not a blank page (a PNG of more than 20 KB).
A SAFE check gives a page without lanes that says so. Then the checks are shown to catch broken
pages: the UNSAFE page with a planted throwing script, with a lane removed, without its
failing mark, and with a syntax error in its own script must each be rejected.

Usage: trace_html_test.py SIREN"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

siren = sys.argv[1]
tmp = tempfile.mkdtemp(prefix="siren-trace-html-")
chromium = shutil.which("chromium") or "/usr/bin/chromium"
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


LOST_UPDATE = r"""#include <pthread.h>
#include <assert.h>

int counter = 0;

void *worker(void *arg) {
  int tmp = counter;
  tmp = tmp + 1;
  counter = tmp;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter >= 2 && counter < 3);
  return 0;
}
"""

SAFE = r"""#include <pthread.h>
#include <assert.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *arg) { pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_join(a, 0);
  assert(x == 1);
  return 0;
}
"""


def write(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


runs = 0


def chromium_run(page, *extra):
    """Runs headless Chromium on `page` with a fresh profile; returns (stdout, stderr)."""
    global runs
    runs += 1
    cmd = [chromium, "--headless", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
           "--user-data-dir=" + os.path.join(tmp, "profile%d" % runs),
           "--enable-logging=stderr", "--v=0", *extra, "file://" + os.path.abspath(page)]
    if os.geteuid() == 0:
        cmd.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=90)
    return p.stdout, p.stderr


class Dom(html.parser.HTMLParser):
    """The elements the checks look at, from Chromium's serialised DOM."""

    def __init__(self):
        super().__init__()
        self.lanes = []        # data-thread of each <g class="lane">
        self.steps = []        # dict per element of class "step": classes, attributes, text
        self.data_lanes = None
        self.open = []         # element stack: (tag, step dict or None)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "html":
            self.data_lanes = a.get("data-lanes")
        if "lane" in classes:
            self.lanes.append(a.get("data-thread"))
        step = None
        if "step" in classes:
            step = {"classes": classes, "attrs": a, "text": ""}
            self.steps.append(step)
        self.open.append((tag, step))

    def handle_endtag(self, tag):
        while self.open:
            t, _ = self.open.pop()
            if t == tag:
                break

    def handle_data(self, data):
        # the text of a box's statement line (its <text class="stmt">), outside its <title>
        tags = [t for t, _ in self.open]
        if "title" in tags:
            return
        for t, s in reversed(self.open):
            if s is not None:
                s["text"] += data
                break


def inspect(page, threads, rows, marked):
    """The problems of `page`: threads = the expected lane names in order, rows = the number of
    boxes, marked = (class, set of (thread, line, step or None)) that must carry it."""
    problems = []
    text = open(page).read()
    if re.search(r"\b(src|href)\s*=", text):
        problems.append("the page refers to an external resource (src=/href=)")
    out, err = chromium_run(page, "--dump-dom")
    console = [l for l in err.splitlines() if ":CONSOLE" in l]
    if console:
        problems.append("console messages (script errors): " + " | ".join(console))
    if "<html" not in out:
        problems.append("the page did not load (no DOM dumped): " + err[-500:])
        return problems
    dom = Dom()
    dom.feed(out)
    if dom.data_lanes is None:
        problems.append("the page's script did not run to its end (no data-lanes on <html>)")
    elif dom.data_lanes != str(len(dom.lanes)):
        problems.append("data-lanes=%s but %d lane elements" % (dom.data_lanes, len(dom.lanes)))
    if dom.lanes != threads:
        problems.append("lanes %s, expected one per thread: %s" % (dom.lanes, threads))
    if len(dom.steps) != rows:
        problems.append("%d step boxes, expected %d" % (len(dom.steps), rows))
    cls, want = marked
    got = set()
    for s in dom.steps:
        if cls in s["classes"]:
            step = s["attrs"].get("data-step")
            got.add((s["attrs"].get("data-thread"), int(s["attrs"].get("data-line", 0)),
                     int(step) if step and step.isdigit() else None))
    want_keys = {(t, l, st) for t, l, st, _ in want}
    if got != want_keys:
        problems.append("boxes marked %r: %s, expected %s" % (cls, sorted(got, key=str), sorted(want_keys, key=str)))
    for t, l, st, stmt in want:
        box = [s for s in dom.steps if s["attrs"].get("data-thread") == t and s["attrs"].get("data-line") == str(l)
               and cls in s["classes"]]
        if box and stmt not in box[0]["text"]:
            problems.append("marked box text %r does not show the statement %r" % (box[0]["text"], stmt))
    return problems


def screenshot(page, name):
    png = os.path.join(tmp, name)
    chromium_run(page, "--window-size=1200,900", "--screenshot=" + png)
    if not os.path.exists(png):
        fail("%s: no screenshot written" % name)
        return
    data = open(png, "rb").read()
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        fail("%s: not a PNG" % name)
    elif len(data) < 20000:
        fail("%s: %d bytes, a blank page?" % (name, len(data)))
    else:
        print("ok: screenshot %s (%d bytes)" % (name, len(data)))


def run_siren(cmd, program, page, expect_rc):
    try:
        p = subprocess.run([siren, cmd, program, "--json", "--trace-html", page], capture_output=True, text=True,
                           timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        fail("siren %s %s: %s" % (cmd, program, e))
        return None
    if p.returncode != expect_rc:
        fail("siren %s %s: exit %d, expected %d\n%s" % (cmd, program, p.returncode, expect_rc, p.stderr))
        return None
    if not os.path.exists(page):
        fail("siren %s %s: no page written" % (cmd, program))
        return None
    return json.loads(p.stdout)


def lane_names(trace, extra=()):
    names = []
    for r in trace:
        for n in (r["thread"], r.get("started")):
            if n and n not in names:
                names.append(n)
    for n in extra:
        if n not in names:
            names.append(n)
    return names


def report(what, problems):
    if problems:
        fail("%s: %s" % (what, "; ".join(problems)))
    else:
        print("ok:", what)


if not os.path.exists(chromium):
    sys.exit("FAIL: no chromium (scripts/setup --tests installs the Debian package)")

# --- check: a failing assertion ---------------------------------------------------------------
lost = write("lost_update.c", LOST_UPDATE)
check_page = os.path.join(tmp, "check.html")
j = run_siren("check", lost, check_page, 10)
if j:
    trace = j["trace"]
    threads = lane_names(trace)
    if len(threads) != 3:
        fail("check: the trace has threads %s, expected main and two workers" % threads)
    last = trace[-1]
    check_marked = ("failing", {(last["thread"], last["line"], last["step"], last["stmt"])})
    if "&&" not in last["stmt"] or "<" not in last["stmt"]:
        fail("check: the failing statement %r should need HTML escaping" % last["stmt"])
    report("check page: loads, one lane per thread, failing assertion marked",
           inspect(check_page, threads, len(trace), check_marked))
    screenshot(check_page, "check.png")

    # The checks must catch broken pages.
    page_text = open(check_page).read()
    lane = re.search(r'<g class="lane".*?</g>\n', page_text, re.S)
    broken = {
        "a planted throwing script": (page_text.replace("</body>", "<script>throw new Error('planted');</script></body>"),
                                      "console"),
        "a lane removed": (page_text.replace(lane.group(0), "", 1) if lane else page_text, "lanes"),
        "the failing mark removed": (page_text.replace(" failing\"", "\""), "marked"),
        "a syntax error in the page's script": (page_text.replace("(function () {", "(function () {{", 1), "data-lanes"),
    }
    for what, (text, keyword) in broken.items():
        page = write("broken.html", text)
        if text == page_text:
            fail("broken variant '%s': the page did not change" % what)
            continue
        problems = inspect(page, threads, len(trace), check_marked)
        if not any(keyword in p for p in problems):
            fail("broken variant '%s' not caught (expected a problem about %r; got %s)" % (what, keyword, problems))
        else:
            print("ok: broken variant '%s' caught: %s" % (what, problems[0][:120]))

# --- race: the two racing accesses ------------------------------------------------------------
race_page = os.path.join(tmp, "race.html")
j = run_siren("race", lost, race_page, 10)
if j:
    first, second = j["race"]["first"], j["race"]["second"]
    names = lane_names(j["trace"], (first["thread"], second["thread"]))
    race_marked = ("racing", {(e["thread"], e["line"], None, e["stmt"]) for e in (first, second)})
    report("race page: loads, one lane per thread, both racing accesses marked",
           inspect(race_page, names, len(j["trace"]) + 2, race_marked))
    screenshot(race_page, "race.png")

# --- no counterexample ------------------------------------------------------------------------
safe_page = os.path.join(tmp, "safe.html")
j = run_siren("check", write("safe.c", SAFE), safe_page, 0)
if j:
    problems = inspect(safe_page, [], 0, ("failing", set()))
    if "No counterexample" not in open(safe_page).read() or j["verdict"] not in open(safe_page).read():
        problems.append("the page does not state the verdict and that there is no counterexample")
    report("SAFE page: loads, no lanes, states the verdict", problems)

if failures:
    print("%d failure(s); pages in %s" % (len(failures), tmp))
    sys.exit(1)
shutil.rmtree(tmp)
print("all trace-html checks passed")
