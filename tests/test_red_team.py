"""The determined student, again: cheats of every kind through the real ``nbgrader autograde``.

A temporary copy of the course grades, in one ``autograde`` run for both exercises, an honest solver,
honest but unusual solutions, and one student per cheat. Each cheat must score nothing for
what it fakes, or be flagged for the teacher; the honest students keep full marks with no flag;
nothing is damaged (the gradebook holds only what the grader wrote, the other students' grades
stand, no secret of the grader's environment reaches a notebook or its feedback, and nothing a
student wrote runs in a teacher's page).

The cheats, by kind (each student's docstring-like comment in ``STUDENTS`` says what it tries):

- names and lying objects: builtins replaced, objects that claim to equal anything or to be of
  another type, the caller's frames, the garbage collector, the notebook's globals;
- trust anchors in the kernel: the grader's compute module, ``json``, the watch, the trace
  function, a reload or ``runpy`` of the package's hidden functions, its compiled copy, another
  copy of the package's code found through numpy's path, the package's other functions;
- nbgrader's partial credit: the displayhook, results published from inside a tested function;
- metadata: locked answers, raised points, added, pasted, retyped or deleted grade cells, a
  schema of another version, a notebook that is not JSON;
- files in the submission folder: a package named like the course's, ``sitecustomize``, an
  IPython start-up folder, a named pipe, a big sparse file;
- the grader's environment and the kernel's history printed into the feedback;
- active output: scripts, event handlers, raw HTML cells, markdown HTML, HTML in metadata;
- resources: an output flood, a full ``/tmp``, a swarm of processes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest
from formgrader_api import generate_assignment
from test_nbgrader import BIN, EXERCISES, IS_SET, NOTEBOOKS, ODD_ONE_OUT, THIRD_CARD, cell, grades, hand_in

from setwidgets.grading.report import report
from setwidgets.grading.sandbox import bubblewrap_problem
from setwidgets.grading.sanitize import named_picture

pytestmark = [
    pytest.mark.nbgrader,
    pytest.mark.skipif(bubblewrap_problem() is not None, reason=f"no sandbox here: {bubblewrap_problem()}"),
]

ONE, TWO = "01_magic_rule", "02_third_card"
TIMEOUT = 5  # seconds per cell: every honest cell takes well under one
# Per notebook: every honest notebook takes a few. The swarm starves its kernel and uses up all
# of it, so this bound is what its notebook costs the run: 30 s leaves honest ones a wide margin.
NOTEBOOK_SECONDS = 30
SECRET = "grader-secret-7d1f0c"  # in the grader's environment, never in a student's page
HUB_TOKEN = "hub-token-5e2a91"
CANARY = "RED_TEAM_CANARY_42"  # the payload of every active output


def points(assignment: str, function: str = "") -> dict[str, float]:
    """The points of an exercise's graded code cells (of one function's tests), read from its source."""
    nb = nbformat.read(EXERCISES / "source" / assignment / NOTEBOOKS[assignment], as_version=4)
    found = {}
    for c in nb.cells:
        meta = c.metadata.get("nbgrader", {})
        if c.cell_type != "code" or not meta.get("grade"):
            continue
        if not function or meta["grade_id"] in (f"test_{function}_visible", f"test_{function}_hidden"):
            found[meta["grade_id"]] = meta["points"]
    return found


IS_SET_POINTS = points(ONE, "is_set")
ODD_POINTS = points(ONE, "odd_one_out")
FULL_ONE = points(ONE)
FULL_TWO = points(TWO)
THIRD_POINTS = points(TWO, "third_card")


@dataclass
class Student:
    """One hand-in: answers by grade id, what it should earn, and whether the report flags it."""

    answers: dict[str, str] = field(default_factory=dict)
    points: dict[str, float] = field(default_factory=dict)  # cells not named earn 0
    flagged: bool | None = False  # True: the report names this submission; False: it must not; None: either
    files: dict[str, str | bytes | int] = field(default_factory=dict)  # int: a sparse file's size
    edit: Callable[[nbformat.NotebookNode], None] | None = None
    honest: bool = False
    broken: bool = False  # the notebook cannot be graded: this student alone gets nothing
    at_most: bool = False  # a notebook that starves its own kernel may lose some of ``points``


def _constant_is_set(value: str = "True") -> str:
    return f"def is_set(a, b, c):\n    return {value}\n"


# -- names and lying objects -----------------------------------------------------------------

SHADOW_BUILTINS = """
def all(values):
    return True


def len(values):
    return 3


def isinstance(value, kind):
    return True


def is_set(a, b, c):
    return all([a, b, c])
"""
LYING_INT = """
class Yes(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__

    def __bool__(self):
        return True


def is_set(a, b, c):
    return Yes(1)
"""
LYING_STR = """
class Feature(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


def odd_one_out(a, b, c):
    return Feature("color")
"""
TYPE_PATCHED = """
import builtins

_type = builtins.type


class Liar:
    def __eq__(self, other):
        return True


def _lying_type(value, *rest):
    if rest:
        return _type(value, *rest)
    return bool if _type(value) is Liar else _type(value)


builtins.type = _lying_type


def is_set(a, b, c):
    return Liar()
"""
FRAME_READER = """
import sys


def is_set(a, b, c):
    frame = sys._getframe(1)
    while frame is not None:
        for name in ("want", "wants", "expected", "answer"):
            if name in frame.f_locals:
                return frame.f_locals[name]
        frame = frame.f_back
    return True
"""
GC_READER = """
import gc


def is_set(a, b, c):
    for thing in gc.get_objects():
        if type(thing) is list and len(thing) > 1000 and all(x is True or x is False for x in thing[:50]):
            return thing[0]
    return False
"""
GLOBALS_READER = """
def is_set(a, b, c):
    names = globals()
    for key in ("_", "__", "___", "_expected", "Out"):
        if type(names.get(key)) is bool:
            return names[key]
    return True
"""
HUGE_ANSWER = """
def is_set(a, b, c):
    return list(range(300_000))
"""
SELF_NESTED = """
def is_set(a, b, c):
    loop = []
    loop.append(loop)
    return loop
"""
NAN_COUNT = """
def count_sets(cards):
    return float("nan")
"""
CARD_IMPOSTOR = """
class Card:
    code = "1RSO"

    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


def third_card(a, b):
    return Card()
"""

# -- trust anchors inside the kernel ---------------------------------------------------------

JSON_FORGED = """
import json

_dumps = json.dumps


def _forged(value, *args, **kwargs):
    if type(value) is dict and "answers" in value:
        value = {"answers": [{"value": True} for _ in value["answers"]]}
    return _dumps(value, *args, **kwargs)


json.dumps = _forged
""" + _constant_is_set("False")
COMPUTE_FORGED = """
from setwidgets.grading import compute

_call = compute.call


def _forged(request, namespace=None):
    asked = compute.json.loads(request)
    return compute.json.dumps({"answers": [{"value": True} for _ in asked["cases"]]})


compute.call = _forged
""" + _constant_is_set("False")
WATCH_FORGED = """
from setwidgets.grading import watch

watch.finish = lambda token: True
watch.start = lambda token, test, student: token
""" + _constant_is_set()
TRACE_OFF = """
import sys

sys.settrace = lambda function: None
""" + _constant_is_set()
RELOADED = """
import importlib

import setwidgets.rules

importlib.reload(setwidgets.rules)
is_set = setwidgets.rules.is_set
"""
# No import the scan knows: runpy reads the module's file afresh, and finds the hidden copy.
RUNPY = """
import runpy

is_set = runpy.run_module("setwidgets" + ".rules")["is_set"]
"""
PYC = """
import glob
import marshal
import setwidgets

for _path in glob.glob(setwidgets.__path__[0] + "/__pycache__/rules*.pyc"):
    with open(_path, "rb") as _file:
        _code = marshal.loads(_file.read()[16:])
    _names = {}
    exec(_code, _names)
    is_set = _names["is_set"]
"""
# numpy reads and writes files without open, and a module written to the working folder is
# imported without exec: the course's own files hold the solutions.
NUMPY_THIEF = """
import numpy as np

_root = np.__file__.split("/.venv/")[0]
_text = np.fromfile(_root + "/tests/test_nbgrader.py", dtype=np.uint8).tobytes().decode()
_start = _text.index("def is_set(a, b, c):")
_code = "from setwidgets import FEATURES\\n" + _text[_start : _text.index("\\'\\'\\'", _start)]
np.frombuffer(_code.encode(), dtype=np.uint8).tofile("stolen.py")
from stolen import is_set
"""

# -- issue 33's routes to the package's answers, by names no scan sees -----------------------
# The grading kernel has the package as the exercise hands it out (setwidgets.grading.handout):
# each route finds nothing, and its function is undefined or wrong.

WRAPPED_GLOBALS = """
from setwidgets.checks import check_is_set

_globals = getattr(check_is_set, "__wrap" + "ped__", check_is_set).__globals__
_rules = _globals.get("rules") or __import__("importlib").import_module("setwidgets." + "rules")
_third = getattr(_rules, "third" + "_card")


def is_set(a, b, c):
    return len({a, b, c}) == 3 and _third(a, b) == c
"""
THIRD_TABLE = """
import importlib

_table = getattr(importlib.import_module("setwidgets.r" + "ules"), "TH" + "IRD")


def is_set(a, b, c):
    return len({a, b, c}) == 3 and _table[81 * a.index + b.index] == c.index
"""
# Another copy of the course on this machine: the checkout the grader runs from.
OTHER_COPY = f"""
import json
import os

_source = json.load(open(os.path.join({str(EXERCISES)!r}, "source", "01_magic_rule", "magic_rule.ipynb")))
_ids = [c["metadata"].get("nbgrader", {{}}).get("grade_id") for c in _source["cells"]]
exec("".join(_source["cells"][_ids.index("is_set_answer")]["source"]))
"""
# A global __import__ no longer answers the grader: its questions come on a route of their own.
IMPORT_SHADOW = (
    _constant_is_set("False")
    + """

import json as _json


class _Forger:
    def call(self, request, namespace=None):
        asked = _json.loads(request)
        return _json.dumps({"answers": [{"value": True, "pad": "x" * 1000} for _ in asked["cases"]]})


def __import__(name, *args, **kwargs):
    return _Forger()
"""
)
# The route's handler replaced by one that answers with more than the grader reads: dropped unread.
ROUTE_FLOOD = (
    IS_SET
    + """

_kernel = get_ipython().kernel
_send = _kernel.session.send


def _flood(stream, ident, parent):
    reply = {"status": "ok", "reply": "[" * 10 + " " * (40 * 2**20)}
    _send(stream, "setwidgets_grading_reply", reply, parent, ident=ident)


_kernel.shell_handlers["setwidgets_grading_request"] = _flood
"""
)
# /dev/shm and the kernel's sockets' folder are in sized memory too.
SHM_FILLER = (
    IS_SET
    + """

import glob

for _folder in ["/dev/shm", *glob.glob("/tmp/.ipc-*")]:
    try:
        with open(_folder + "/filler", "wb") as _file:
            for _ in range(1024):
                _file.write(b"x" * 2**20)
    except OSError as error:
        print(_folder.split("-")[0], "is full:", error.strerror)
"""
)
# Exercise 2 does not hand out is_set: no deck to search with the package's rule.
IS_SET_SEARCH = """
from setwidgets import full_deck as _deck
import importlib

_is_set = importlib.import_module("setwidgets").__dict__.get("is_set") or importlib.import_module(
    "setwidgets.rules"
).is_set


def third_card(a, b):
    if a == b:
        raise ValueError("the same card")
    return next(c for c in _deck() if _is_set(a, b, c))
"""

# The hidden list names rules.is_set; the package has other ways to the same answer.
BY_GEOMETRY = """
from setwidgets.geometry import line


def is_set(a, b, c):
    return len({a, b, c}) == 3 and line(a, b)[2] == c
"""
BY_CAPS = """
from setwidgets.caps import is_set_free


def is_set(a, b, c):
    return len({a, b, c}) == 3 and not is_set_free([a, b, c])
"""
BY_CARD_METHOD = """
def is_set(a, b, c):
    return len({a, b, c}) == 3 and Card.from_vector([(-x - y) % 3 for x, y in zip(a.vector, b.vector)]) == c
"""
REFEREE_OFF = """
from setwidgets.grading import referee

referee.Referee.guard = lambda self, *args, **kwargs: __import__("contextlib").nullcontext()
from setwidgets.rules import is_set
"""
TOKEN_GUESS = """
def is_set(a, b, c):
    return '{"answers": true}'
"""

# -- nbgrader's partial credit ---------------------------------------------------------------

DISPLAYHOOK = """
import sys


def odd_one_out(a, b, c):
    sys.displayhook(3)
    get_ipython().display_pub.publish({"text/plain": "3"})
    return "number"


3
"""
ANSWER_EXPRESSION = ODD_ONE_OUT.replace("return None", "return 'shape'") + "\n\n5\n"

# -- the grader's environment and the kernel's history ---------------------------------------

ENVIRONMENT = """
import os
import re
import numpy as np

print(dict(os.environ))


def _proc(path):
    try:
        return np.fromfile(path, dtype=np.uint8).tobytes().decode(errors="replace")
    except Exception as error:
        return str(error)


def is_set(a, b, c):
    raise RuntimeError(str(dict(os.environ)) + _proc("/proc/1/environ") + _proc("/proc/self/environ"))
"""
HISTORY = """
def is_set(a, b, c):
    raise RuntimeError(repr((In, Out, _ih, _dh)))


print(In, Out)
"""

# -- active output ---------------------------------------------------------------------------

PAYLOAD = f"document.title='{CANARY}';window.{CANARY}=1"
SCRIPTS = (
    IS_SET
    + f"""

from IPython.display import HTML, SVG, Javascript, Markdown, display

_payload = {PAYLOAD!r}
display(HTML(f'<img src=x onerror="{{_payload}}"><script>{{_payload}}</script>'))
display(Javascript(_payload))
display(SVG(f'<svg xmlns="http://www.w3.org/2000/svg" onload="{{_payload}}"><circle r="3"/></svg>'))
display(Markdown(f'<img src=x onerror="{{_payload}}">'))
_view = {{"model_id": {CANARY!r}}}
_html = f"<script>{{_payload}}</script>"
display({{"application/vnd.jupyter.widget-view+json": _view, "text/html": _html}}, raw=True)
"""
)
ERROR_HTML = f"""
def odd_one_out(a, b, c):
    raise ValueError('<script>{PAYLOAD}</script><img src=x onerror="{PAYLOAD}">')
"""
PROOF_HTML = f'<img src=x onerror="{PAYLOAD}"> [proof](javascript:{PAYLOAD}) <script>{PAYLOAD}</script>'


def _raw_html_cell(nb: nbformat.NotebookNode) -> None:
    raw = nbformat.v4.new_raw_cell(f"<script>{PAYLOAD}</script>")
    raw.metadata["format"] = "text/html"
    raw.metadata["raw_mimetype"] = "text/html"
    nb.cells.insert(3, raw)


def _html_in_metadata(nb: nbformat.NotebookNode) -> None:
    nb.metadata["title"] = f"</title><script>{PAYLOAD}</script>"
    nb.metadata.setdefault("kernelspec", {})["display_name"] = f"<script>{PAYLOAD}</script>"
    nb.metadata.setdefault("language_info", {})["name"] = f"<script>{PAYLOAD}</script>"


def _html_in_cell_tags(nb: nbformat.NotebookNode) -> None:
    answer = cell(nb, "is_set_answer")
    answer.metadata["tags"] = [f'"><script>{PAYLOAD}</script>']
    answer.outputs = [
        nbformat.v4.new_output("display_data", data={"text/html": f"<script>{PAYLOAD}</script>"})
    ]


# -- metadata --------------------------------------------------------------------------------


def _lock_answer(nb: nbformat.NotebookNode) -> None:
    cell(nb, "is_set_answer").metadata["nbgrader"]["locked"] = True


def _raise_points(nb: nbformat.NotebookNode) -> None:
    for c in nb.cells:
        meta = c.metadata.get("nbgrader", {})
        if meta.get("grade"):
            meta["points"] = 100


def _answer_as_grade(nb: nbformat.NotebookNode) -> None:
    meta = cell(nb, "is_set_answer").metadata["nbgrader"]
    meta.update(grade=True, points=50)


def _bonus_cell(nb: nbformat.NotebookNode) -> None:
    bonus = nbformat.v4.new_code_cell("50")
    bonus.metadata["nbgrader"] = {
        "grade": True,
        "solution": False,
        "locked": True,
        "points": 50,
        "grade_id": "test_bonus",
        "schema_version": 3,
    }
    nb.cells.append(bonus)


def _pasted_test(nb: nbformat.NotebookNode) -> None:
    copy = nbformat.from_dict(json.loads(json.dumps(cell(nb, "test_is_set_hidden"))))
    copy["id"] = "pasted-copy"
    nb.cells.insert(nb.cells.index(cell(nb, "test_is_set_hidden")) + 1, copy)


def _schema(nb: nbformat.NotebookNode) -> None:
    for c in nb.cells:
        if "nbgrader" in c.metadata:
            c.metadata["nbgrader"]["schema_version"] = 99


def _tests_deleted(nb: nbformat.NotebookNode) -> None:
    nb.cells = [
        c for c in nb.cells if not c.metadata.get("nbgrader", {}).get("grade_id", "").startswith("test_")
    ]


def _tests_rewritten(nb: nbformat.NotebookNode) -> None:
    for c in nb.cells:
        if c.metadata.get("nbgrader", {}).get("grade_id", "").startswith("test_"):
            c.source = "pass"
            c.metadata["nbgrader"]["checksum"] = "0" * 32


def _tests_retyped(nb: nbformat.NotebookNode) -> None:
    for c in nb.cells:
        if c.metadata.get("nbgrader", {}).get("grade_id", "").startswith("test_"):
            c.cell_type = "markdown"
            c.pop("outputs", None)
            c.pop("execution_count", None)


def _prefilled_outputs(nb: nbformat.NotebookNode) -> None:
    for c in nb.cells:
        if c.metadata.get("nbgrader", {}).get("grade_id", "").startswith("test_"):
            c.outputs = [
                nbformat.v4.new_output("execute_result", data={"text/plain": "5"}, execution_count=1)
            ]


# -- files in the submission folder ----------------------------------------------------------

SHADOW_PACKAGE = {
    "setwidgets/__init__.py": "raise SystemExit('the shadow package ran')\n",
    "sitecustomize.py": "print('SITECUSTOMIZE RAN')\n",
    "usercustomize.py": "print('USERCUSTOMIZE RAN')\n",
    "ipykernel_launcher.py": "print('LAUNCHER RAN')\n",
    ".ipython/profile_default/startup/00-evil.py": "print('STARTUP RAN')\n",
    "itertools.py": "print('ITERTOOLS RAN')\n",
}

# -- resources -------------------------------------------------------------------------------

FLOOD = IS_SET + "\n\nprint('x' * 40_000_000)\n"
TMP_FILLER = (
    IS_SET
    + """

for _folder in ("/tmp", "."):
    try:
        with open(_folder + "/filler", "wb") as _file:
            for _ in range(2048):
                _file.write(b"x" * 2**20)
    except OSError as error:
        print(_folder, "is full:", error.strerror)
"""
)
SWARM = (
    IS_SET
    + """

import os
import re
import time

for _ in range(2000):
    try:
        if os.fork() == 0:
            time.sleep(314.15)
            os._exit(0)
    except OSError as error:
        print("no more processes:", error.strerror)
        break
"""
)

# -- honest but unusual ----------------------------------------------------------------------

AS_A_CLASS = """
class MagicRule:
    \"\"\"The rule as an object: one feature at a time.\"\"\"

    def __init__(self, features):
        self.features = features

    def holds(self, a, b, c):
        return len({a, b, c}) == 3 and all(self.fine(a, b, c, f) for f in self.features)

    @staticmethod
    def fine(a, b, c, feature):
        return len({getattr(a, feature), getattr(b, feature), getattr(c, feature)}) != 2


RULE = MagicRule(FEATURES)


def is_set(a, b, c):
    return RULE.holds(a, b, c)
"""
RECURSIVE = """
def odd_one_out(a, b, c, features=tuple(FEATURES)):
    if not features:
        return None
    first, *rest = features
    if len({getattr(a, first), getattr(b, first), getattr(c, first)}) == 2:
        return first
    return odd_one_out(a, b, c, tuple(rest))
"""
WITH_NUMPY = """
import numpy as np


def is_set(a, b, c):
    if len({a, b, c}) < 3:
        return False
    return bool(np.all(np.sum([a.vector, b.vector, c.vector], axis=0) % 3 == 0))
"""
WITH_ITERTOOLS = """
from itertools import compress, starmap


def odd_one_out(a, b, c):
    kinds = [len({getattr(a, f), getattr(b, f), getattr(c, f)}) == 2 for f in FEATURES]
    return next(compress(FEATURES, kinds), None)
"""
TIMED = "%%time\n" + IS_SET
WITH_FUNCTOOLS = """
import functools
import operator


def is_set(a, b, c):
    if len({a, b, c}) < 3:
        return False
    sums = functools.reduce(lambda x, y: list(map(operator.add, x, y)), [a.vector, b.vector, c.vector])
    return all(total % 3 == 0 for total in sums)
"""
WARNS = """
import warnings


def is_set(a, b, c):
    warnings.warn("this is_set is slow on purpose")
    if len({a, b, c}) < 3:
        return False
    return all(len({getattr(x, f) for x in (a, b, c)}) != 2 for f in FEATURES)
"""
HELPER_MODULE = """
from magic_helpers import alike_or_all_different


def is_set(a, b, c):
    return len({a, b, c}) == 3 and all(alike_or_all_different(a, b, c, f) for f in FEATURES)
"""
HELPER_FILE = """
def alike_or_all_different(a, b, c, feature):
    \"\"\"True when the three cards are all alike or all different in this feature.\"\"\"
    return len({getattr(a, feature), getattr(b, feature), getattr(c, feature)}) != 2
"""
COUNT_BY_DICT = """
def count_sets(cards):
    where = set(cards)
    found = sum(1 for a, b in itertools.combinations(cards, 2) if third_card(a, b) in where)
    return found // 3
"""

STUDENTS: dict[str, dict[str, Student]] = {
    ONE: {
        "solver": Student(points=FULL_ONE, honest=True),
        # names and lying objects
        "shadow_builtins": Student({"is_set_answer": SHADOW_BUILTINS}),
        "lying_int": Student({"is_set_answer": LYING_INT, "odd_one_out_answer": LYING_STR}),
        "type_patched": Student({"is_set_answer": TYPE_PATCHED}, flagged=True),
        "frame_reader": Student({"is_set_answer": FRAME_READER}, flagged=True),
        "gc_reader": Student({"is_set_answer": GC_READER}, flagged=True),
        "globals_reader": Student({"is_set_answer": GLOBALS_READER}, flagged=True),
        "huge_answer": Student({"is_set_answer": HUGE_ANSWER}),
        "self_nested": Student({"is_set_answer": SELF_NESTED}),
        # trust anchors
        "json_forged": Student({"is_set_answer": JSON_FORGED}, flagged=True),
        "compute_forged": Student({"is_set_answer": COMPUTE_FORGED}, flagged=True),
        "watch_forged": Student({"is_set_answer": WATCH_FORGED}, flagged=True),
        "trace_off": Student({"is_set_answer": TRACE_OFF}, flagged=True),
        "reloaded": Student({"is_set_answer": RELOADED}, flagged=True),
        "runpy": Student({"is_set_answer": RUNPY}, flagged=True),
        "pyc": Student({"is_set_answer": PYC}, flagged=True),
        # The project's tests folder is hidden from the kernel: nothing to read there.
        "numpy_thief": Student(
            {"is_set_answer": NUMPY_THIEF, "odd_one_out_answer": ODD_ONE_OUT}, ODD_POINTS, flagged=True
        ),
        # The package's other ways to the answer are not in exercise 1's kernel at all.
        "by_geometry": Student({"is_set_answer": BY_GEOMETRY}, flagged=None),
        "by_caps": Student({"is_set_answer": BY_CAPS}, flagged=None),
        "wrapped_globals": Student({"is_set_answer": WRAPPED_GLOBALS}, flagged=None),
        "third_table": Student({"is_set_answer": THIRD_TABLE}, flagged=None),
        "other_copy": Student({"is_set_answer": OTHER_COPY}, flagged=None),
        "import_shadow": Student({"is_set_answer": IMPORT_SHADOW}, flagged=None),
        # Every graded test is judged, and none gets an answer it can read.
        "route_flood": Student({"is_set_answer": ROUTE_FLOOD}, flagged=None),
        "shm_filler": Student({"is_set_answer": SHM_FILLER}, IS_SET_POINTS, flagged=None),
        "referee_off": Student({"is_set_answer": REFEREE_OFF}, flagged=True),
        "token_guess": Student({"is_set_answer": TOKEN_GUESS}),
        # partial credit
        "displayhook": Student(
            {"is_set_answer": IS_SET, "odd_one_out_answer": DISPLAYHOOK}, IS_SET_POINTS, True
        ),
        "answer_expression": Student(
            {"is_set_answer": IS_SET, "odd_one_out_answer": ANSWER_EXPRESSION}, IS_SET_POINTS
        ),
        "prefilled": Student({}, edit=_prefilled_outputs),
        # metadata
        # The answer marked locked is still the student's (and geometry is not in exercise 1's kernel).
        "locked_answer": Student({"is_set_answer": BY_GEOMETRY}, flagged=True, edit=_lock_answer),
        "raised_points": Student({"is_set_answer": IS_SET}, IS_SET_POINTS, edit=_raise_points),
        "answer_as_grade": Student(
            {"is_set_answer": IS_SET + "\n\n50\n"}, IS_SET_POINTS, edit=_answer_as_grade
        ),
        "bonus_cell": Student({"is_set_answer": IS_SET}, IS_SET_POINTS, edit=_bonus_cell),
        "pasted_test": Student({"is_set_answer": IS_SET}, IS_SET_POINTS, edit=_pasted_test),
        "schema": Student({"is_set_answer": IS_SET}, IS_SET_POINTS, edit=_schema),
        "tests_deleted": Student({"is_set_answer": _constant_is_set()}, edit=_tests_deleted),
        "tests_rewritten": Student({"is_set_answer": _constant_is_set()}, edit=_tests_rewritten),
        "tests_retyped": Student({"is_set_answer": _constant_is_set()}, edit=_tests_retyped),
        "not_json": Student(broken=True),
        # files in the folder
        "shadow_files": Student({"is_set_answer": IS_SET}, IS_SET_POINTS, files=SHADOW_PACKAGE),
        # Handed in past collect (which leaves pipes out): nbgrader fails on this student alone.
        "fifo": Student({"is_set_answer": IS_SET}, files={"pipe": "fifo"}, broken=True),
        "sparse": Student({"is_set_answer": IS_SET}, IS_SET_POINTS, files={"big.bin": 300 * 2**20}),
        # environment and history
        "environment": Student({"is_set_answer": ENVIRONMENT}, flagged=True),
        "history": Student({"is_set_answer": HISTORY}),
        # active output
        "scripts": Student({"is_set_answer": SCRIPTS}, IS_SET_POINTS),
        "error_html": Student({"is_set_answer": IS_SET, "odd_one_out_answer": ERROR_HTML}, IS_SET_POINTS),
        "raw_html": Student({"is_set_answer": IS_SET}, IS_SET_POINTS, edit=_raw_html_cell),
        "metadata_html": Student({"is_set_answer": IS_SET}, IS_SET_POINTS, edit=_html_in_metadata),
        "tags_html": Student({"is_set_answer": IS_SET}, IS_SET_POINTS, edit=_html_in_cell_tags),
        # resources
        "flood": Student({"is_set_answer": FLOOD}, IS_SET_POINTS),
        "tmp_filler": Student({"is_set_answer": TMP_FILLER}, IS_SET_POINTS, flagged=True),
        # 512 processes starve the kernel: its own tests may time out, and nothing else happens.
        "swarm": Student({"is_set_answer": SWARM}, IS_SET_POINTS, flagged=True, at_most=True),
        "with_functools": Student(
            {"is_set_answer": WITH_FUNCTOOLS, "odd_one_out_answer": ODD_ONE_OUT}, FULL_ONE, honest=True
        ),
        # honest but unusual
        "as_a_class": Student(
            {"is_set_answer": AS_A_CLASS, "odd_one_out_answer": RECURSIVE}, FULL_ONE, honest=True
        ),
        "with_numpy": Student(
            {"is_set_answer": WITH_NUMPY, "odd_one_out_answer": WITH_ITERTOOLS}, FULL_ONE, honest=True
        ),
        "timed": Student({"is_set_answer": TIMED, "odd_one_out_answer": ODD_ONE_OUT}, FULL_ONE, honest=True),
        "warns": Student({"is_set_answer": WARNS, "odd_one_out_answer": ODD_ONE_OUT}, FULL_ONE, honest=True),
        "helper_module": Student(
            {"is_set_answer": HELPER_MODULE, "odd_one_out_answer": ODD_ONE_OUT},
            FULL_ONE,
            files={"magic_helpers.py": HELPER_FILE},
            honest=True,
        ),
    },
    TWO: {
        "solver": Student(points=FULL_TWO, honest=True),
        "card_impostor": Student({"third_card_answer": CARD_IMPOSTOR}),
        "is_set_search": Student({"third_card_answer": IS_SET_SEARCH}, flagged=None),
        "nan_count": Student({"third_card_answer": THIRD_CARD, "count_sets_answer": NAN_COUNT}, THIRD_POINTS),
        "proof_html": Student({"third_card_answer": THIRD_CARD, "proof_answer": PROOF_HTML}, THIRD_POINTS),
        "count_by_dict": Student(
            {"third_card_answer": THIRD_CARD, "count_sets_answer": COUNT_BY_DICT},
            {**THIRD_POINTS, "test_count_sets_visible": 2, "test_count_sets_hidden": 3},
            honest=True,
        ),
    },
}
# Students whose notebook the grader may fail on as a whole: every cell earns 0.
BROKEN = {(a, s) for a, students in STUDENTS.items() for s, st in students.items() if st.broken}


def _hand_in(course: Path, assignment: str, student: str, spec: Student) -> None:
    folder = course / "submitted" / student / assignment
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / NOTEBOOKS[assignment]
    if student == "not_json":
        target.write_text('{"cells": [ {"cell_type": "code", "source": "is_set = lambda *a: True"')
        return
    nb = hand_in(course, assignment, spec.answers, source=student == "solver")
    if spec.edit is not None:
        spec.edit(nb)
    target.write_text(json.dumps(nb, indent=1))
    for name, content in spec.files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if content == "fifo":
            os.mkfifo(path)
        elif isinstance(content, int):
            with open(path, "wb") as sparse:
                sparse.truncate(content)
        else:
            path.write_text(content) if isinstance(content, str) else path.write_bytes(content)


def run_nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess:
    """nbgrader, as a teacher runs it, with secrets in its environment that no student may see."""
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("NBGRADER_EXECUTION", None)
    env.update(SETWIDGETS_GRADER_SECRET=SECRET, JUPYTERHUB_API_TOKEN=HUB_TOKEN)
    return subprocess.run(
        [str(BIN / "nbgrader"), *args], cwd=course, env=env, capture_output=True, text=True, timeout=1800
    )


def _swarm() -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if (entry / "cmdline").read_bytes().split(b"\0")[:1] == [b"/usr/bin/python3"]:
                continue
            if b"314.15" in (entry / "cmdline").read_bytes():
                found.append(entry.name)
        except OSError:
            continue
    return found


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    course = tmp_path_factory.mktemp("red-team")
    shutil.copy(EXERCISES / "nbgrader_config.py", course)
    for assignment in STUDENTS:
        shutil.copytree(EXERCISES / "source" / assignment, course / "source" / assignment)
    # One nbgrader run per step for both exercises ("*" is every exercise in source/): each start
    # of nbgrader costs CPU-seconds of its own, and an autograde's set-up more. The set-up step,
    # generate_assignment, runs in this process as the Formgrader runs it (tests/formgrader_api.py),
    # with the same secrets in the teacher's environment; what is tested here starts at autograde.
    generate_assignment(course, "*", SETWIDGETS_GRADER_SECRET=SECRET, JUPYTERHUB_API_TOKEN=HUB_TOKEN)
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for student in {name for students in STUDENTS.values() for name in students}:
            gb.update_or_create_student(student, first_name=student.title(), last_name="Student")
    for assignment, students in STUDENTS.items():
        for student, spec in students.items():
            _hand_in(course, assignment, student, spec)
    (course / "host_before.txt").write_text(str(shutil.disk_usage(course).free))
    start = time.monotonic()
    result = run_nbgrader(
        course,
        "autograde",
        "*",
        f"--ExecutePreprocessor.timeout={TIMEOUT}",
        f"--GradingExecute.notebook_seconds={NOTEBOOK_SECONDS}",
    )
    seconds = time.monotonic() - start
    (course / "autograde.log").write_text(
        f"returncode {result.returncode}\nseconds {seconds:.1f}\n{result.stdout}\n{result.stderr}"
    )
    time.sleep(1)
    (course / "swarm.txt").write_text(" ".join(_swarm()))
    run_nbgrader(course, "generate_feedback", "*")
    return course


CASES = [(a, s) for a, students in STUDENTS.items() for s in students]


@pytest.mark.parametrize(("assignment", "student"), CASES)
def test_each_student_earns_exactly_its_points(course, assignment, student):
    from nbgrader.api import MissingEntry

    spec = STUDENTS[assignment][student]
    try:
        recorded = grades(course, assignment, student)
    except MissingEntry:  # nbgrader could not grade this notebook at all
        assert spec.broken, f"{student} was not graded"
        recorded = {}
    got = {name: score for name, score in recorded.items() if score}
    if spec.at_most:
        assert all(score <= spec.points.get(name, 0) for name, score in got.items()), got
    else:
        assert got == spec.points


_REPORTS: dict[tuple[Path, str], list] = {}


def flags(course: Path, assignment: str) -> list:
    """The teacher's report of one exercise, made once per course: it reads every student's notebook."""
    if (course, assignment) not in _REPORTS:
        _REPORTS[course, assignment] = report(course, [assignment])
    return _REPORTS[course, assignment]


@pytest.mark.parametrize(("assignment", "student"), [case for case in CASES if case not in BROKEN])
def test_cheats_are_flagged_and_honest_work_is_not(course, assignment, student):
    spec = STUDENTS[assignment][student]
    found = [f for f in flags(course, assignment) if f.student == student]
    if spec.flagged:
        assert found, f"{student} is not flagged"
    elif spec.flagged is not None:
        assert not found, f"{student} is flagged: {found}"


def test_the_honest_students_are_at_least_seven_and_the_cheats_at_least_forty():
    honest = sum(spec.honest for students in STUDENTS.values() for spec in students.values())
    assert honest - len(STUDENTS) >= 7  # the solvers aside
    assert len(CASES) - honest >= 40


def _pages(course: Path) -> list[Path]:
    """Everything a teacher or a student is shown: autograded notebooks and feedback pages."""
    return sorted((course / "autograded").rglob("*.ipynb")) + sorted((course / "feedback").rglob("*.html"))


def test_no_secret_of_the_graders_environment_reaches_a_notebook_or_its_feedback(course):
    assert (course / "feedback" / "environment" / ONE / "magic_rule.html").is_file()
    for path in _pages(course):
        text = path.read_text(errors="replace")
        assert SECRET not in text and HUB_TOKEN not in text, path


def test_no_student_script_or_event_handler_is_left_active(course):
    active = [
        re.compile(rf"<script[^>]*>[^<]*{CANARY}", re.IGNORECASE),
        re.compile(rf"\bon(?:error|load)\s*=\s*[\"'][^\"']*{CANARY}", re.IGNORECASE),
        re.compile(rf"javascript:[^\"'\s)]*{CANARY}", re.IGNORECASE),
    ]
    for path in _pages(course):
        text = path.read_text(errors="replace")
        if path.suffix == ".ipynb":
            nb = nbformat.reads(text, as_version=4)
            for c in nb.cells:
                for output in c.get("outputs", []):
                    kinds = set(output.get("data", {}))
                    assert not kinds & {"application/javascript", "text/markdown"}, (path, kinds)
                    # HTML only as the package's named picture, as the grader writes it anew.
                    html = output.get("data", {}).get("text/html")
                    assert html is None or named_picture(html) == html, (path, html[:200])
                if c.cell_type == "raw":
                    assert "<script" not in c.source.lower(), path  # shown as text, if at all
            continue
        for pattern in active:
            assert not pattern.search(text), (path, pattern.pattern)


def test_the_feedback_shows_no_hidden_test_code_through_the_kernels_history(course):
    page = (course / "feedback" / "history" / ONE / "magic_rule.html").read_text()
    assert "Your function raised RuntimeError" in page
    for code in ("_red_triples", "hidden_tests", "_first_broken", "compute.call"):
        assert code not in page


def test_no_process_of_a_notebook_outlives_grading(course):
    assert (course / "swarm.txt").read_text() == ""


def test_nothing_outside_the_submission_was_written(course):
    root = EXERCISES.parent
    # The thief writes stolen.py in its working folder: in the kernel's copy, never here.
    assert not (root / "stolen.py").exists()
    assert not [path for folder in (root / "tests", course) for path in folder.rglob("stolen.py")]
    assert not (course / "submitted" / "tmp_filler" / ONE / "filler").exists()
    assert not (course / "autograded" / "tmp_filler" / ONE / "filler").exists()


def test_files_named_like_the_package_or_start_up_files_run_nothing(course):
    nb = nbformat.read(course / "autograded" / "shadow_files" / ONE / "magic_rule.ipynb", as_version=4)
    printed = json.dumps([c.get("outputs", []) for c in nb.cells])
    for marker in (
        "shadow package",
        "SITECUSTOMIZE",
        "USERCUSTOMIZE",
        "LAUNCHER",
        "STARTUP RAN",
        "ITERTOOLS",
    ):
        assert marker not in printed


def test_a_big_file_is_left_out_of_the_kernels_folder_and_the_notebook_is_graded(course):
    log = (course / "autograde.log").read_text()
    assert "the kernel works without big.bin" in log


def test_only_the_notebooks_that_cannot_be_graded_fail_and_the_others_are_graded(course):
    """The swarm garbles the kernel's channels: a stopped kernel for that notebook, not a failed run."""
    log = (course / "autograde.log").read_text()
    failed = re.findall(r"error processing assignment '01_magic_rule' for student '(\w+)'", log)
    assert sorted(failed) == sorted(s for a, s in BROKEN if a == ONE)


def test_grading_costs_are_written_down(course):
    """Not a speed test (the machine is shared): the seconds per submission, for the record."""
    log = (course / "autograde.log").read_text()
    seconds = float(re.search(r"seconds ([\d.]+)", log).group(1))
    count = len(CASES)
    print(f"{', '.join(STUDENTS)}: {seconds / count:.1f} s per submission ({count} submissions)")
