"""SV-COMP task definitions (`.yml`, format 1.0/2.0) -> one Task per (task file, property).

A task file names `input_files` (relative to the yml; a string or a list) and a list of
`properties`, each with a `property_file` (e.g. `../properties/unreach-call.prp`) and usually an
`expected_verdict` (true/false). The property's name is the property file's stem.
"""

import os
import re
from dataclasses import dataclass

import yaml


@dataclass(frozen=True)
class Task:
    task_id: str          # yml path relative to the task root, without `.yml`
    folder: str           # directory of the yml relative to the task root ("." at top level)
    yml: str              # absolute path of the yml
    input_file: str       # absolute path of the (first) input file
    property: str         # property file stem: unreach-call, no-data-race, ...
    expected: str         # "true", "false" or "" when the yml gives none
    subproperty: str = ""


def _verdict_text(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).strip().lower()


def parse_task_file(path, root):
    """Tasks of one yml file. Raises ValueError with a message for a malformed file."""
    path = os.path.abspath(path)
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    if not isinstance(doc, dict):
        raise ValueError(f"{path}: not a task definition (top level is not a mapping)")
    inputs = doc.get("input_files")
    if isinstance(inputs, str):
        inputs = [inputs]
    if not inputs or not all(isinstance(i, str) for i in inputs):
        raise ValueError(f"{path}: no input_files")
    base = os.path.dirname(path)
    input_file = os.path.normpath(os.path.join(base, inputs[0]))
    rel = os.path.relpath(path, root)
    task_id = rel[:-4] if rel.endswith(".yml") else rel
    folder = os.path.dirname(rel) or "."
    tasks = []
    for prop in doc.get("properties") or []:
        if not isinstance(prop, dict) or "property_file" not in prop:
            raise ValueError(f"{path}: property without property_file")
        name = os.path.basename(str(prop["property_file"]))
        if name.endswith(".prp"):
            name = name[:-4]
        tasks.append(Task(task_id=task_id, folder=folder, yml=path, input_file=input_file,
                          property=name, expected=_verdict_text(prop.get("expected_verdict")),
                          subproperty=str(prop.get("subproperty") or "")))
    return tasks


def load_tasks(root, pattern=None):
    """All tasks under `root` (recursive), sorted by id then property.

    `pattern` is a regular expression searched in "<task_id>:<property>". Returns
    (tasks, problems) where problems are messages for yml files that could not be read.
    """
    root = os.path.abspath(root)
    regex = re.compile(pattern) if pattern else None
    tasks, problems = [], []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if not (name.endswith(".yml") or name.endswith(".yaml")):
                continue
            try:
                found = parse_task_file(os.path.join(dirpath, name), root)
            except ValueError as e:
                problems.append(str(e))
                continue
            except (OSError, yaml.YAMLError) as e:
                where = os.path.relpath(os.path.join(dirpath, name), root)
                problems.append(f"{where}: " + " ".join(str(e).split()))
                continue
            for t in found:
                if regex is None or regex.search(f"{t.task_id}:{t.property}"):
                    tasks.append(t)
    tasks.sort(key=lambda t: (t.task_id, t.property))
    return tasks, problems
