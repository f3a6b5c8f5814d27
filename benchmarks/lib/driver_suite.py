"""The Linux 4.0 driver suite of ../shared/benchmarks/linux-drivers (Whoop's), as the driver
benchmarks (drivers.py, table1.py) walk it, and the markdown table they write into a file."""
from pathlib import Path


def drivers(shared, only=""):
    """(name "dir/driver", path of driver.c) of every driver of the suite, sorted; `only`: a
    comma-separated list of driver directory names to keep."""
    suite = Path(shared) / "benchmarks" / "linux-drivers"
    found = sorted(suite.glob("driversuite/*/**/driver.c"))
    if only:
        found = [d for d in found if d.parent.name in only.split(",")]
    return [(f"{d.parent.parent.name}/{d.parent.name}", d) for d in found]


def model_dir(shared):
    """Whoop's kernel model directory (the -I the drivers are closed with, after siren's)."""
    return Path(shared) / "benchmarks" / "linux-drivers" / "Model"


def write_between(md, begin, end, lines, header=""):
    """Replaces what lies between the markers `begin` and `end` in file `md` by `lines` (which
    hold both markers); a file without them gets `header` (if new) and `lines` appended."""
    md = Path(md)
    text = md.read_text() if md.exists() else header
    if begin in text and end in text:
        text = text[:text.index(begin)] + "\n".join(lines) + text[text.index(end) + len(end):]
    else:
        text = text + "\n".join(lines) + "\n"
    md.write_text(text)
