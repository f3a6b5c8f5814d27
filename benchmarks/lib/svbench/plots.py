"""Cactus and scatter plots of CPU times (PNG, matplotlib Agg backend).

cactus: per configuration, the CPU times of its correct results sorted ascending; the x-axis
counts solved tasks, so a curve further right solves more and a lower curve solves faster.
scatter: one point per task run by both configurations, CPU time of A against B on log-log
axes; a result that is not correct (timeout, unknown, crash, ...) is drawn at the time limit.
"""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402,F401

from .scoring import to_float  # noqa: E402

MIN_TIME = 0.01   # log axes: clamp faster runs to this


def _key(row):
    return (row["task"], row["property"])


def _cpu(row):
    return max(MIN_TIME, to_float(row.get("cpu_seconds")) or MIN_TIME)


def cactus(rows, config_names, path, limit):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name in config_names:
        times = sorted(_cpu(r) for r in rows if r["config"] == name and r["outcome"] == "correct")
        if times:
            ax.plot(range(1, len(times) + 1), times, marker="o", markersize=3, label=name)
        else:
            ax.plot([], [], label=f"{name} (none solved)")
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_xlabel("correctly solved tasks")
    ax.set_ylabel("CPU time per task (s)")
    ax.axhline(limit, color="grey", linestyle=":", linewidth=1, label=f"{limit:g} s limit")
    ax.set_title("Cactus plot: tasks solved vs time")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def scatter(rows, a, b, path, limit):
    by_a = {_key(r): r for r in rows if r["config"] == a}
    by_b = {_key(r): r for r in rows if r["config"] == b}
    groups = {"both correct": [], f"only {a} correct": [], f"only {b} correct": [],
              "neither correct": []}
    for k in sorted(set(by_a) & set(by_b)):
        ra, rb = by_a[k], by_b[k]
        ok_a, ok_b = ra["outcome"] == "correct", rb["outcome"] == "correct"
        x = _cpu(ra) if ok_a else limit
        y = _cpu(rb) if ok_b else limit
        name = ("both correct" if ok_a and ok_b else f"only {a} correct" if ok_a
                else f"only {b} correct" if ok_b else "neither correct")
        groups[name].append((x, y))
    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    markers = {"both correct": "o", f"only {a} correct": "s", f"only {b} correct": "^",
               "neither correct": "x"}
    for name, pts in groups.items():
        if pts:
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], marker=markers[name], s=22,
                       label=f"{name} ({len(pts)})")
    lo, hi = MIN_TIME, limit * 1.5
    ax.plot([lo, hi], [lo, hi], color="grey", linewidth=1)
    for f in (10, 0.1):
        ax.plot([lo, hi], [lo * f, hi * f], color="grey", linewidth=0.6, linestyle=":")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel(f"{a}: CPU time (s)")
    ax.set_ylabel(f"{b}: CPU time (s)")
    ax.set_title(f"{a} vs {b} (not correct = at the {limit:g} s limit)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small", loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def make_plots(rows, config_names, out_dir, limit):
    """Write cactus.png and one scatter per pair of configurations that gave verdicts (not
    e.g. --count-schedules ones, which never answer); returns the file names."""
    import os
    names = ["cactus.png"]
    answering = [c for c in config_names
                 if any(r["config"] == c and r["outcome"] in ("correct", "wrong") for r in rows)]
    cactus(rows, answering, os.path.join(out_dir, "cactus.png"), limit)
    for i, a in enumerate(answering):
        for b in answering[i + 1:]:
            name = f"scatter_{a}_vs_{b}.png"
            scatter(rows, a, b, os.path.join(out_dir, name), limit)
            names.append(name)
    return names
