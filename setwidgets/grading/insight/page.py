"""The class insight of one assignment: an offline HTML page and a CSV, for the teacher and to project.

:func:`gather` reads the gradebook's scores and the cases kept beside it
(:mod:`setwidgets.grading.insight_cases`), and names each student's misconceptions
(:mod:`setwidgets.grading.insight.catalogue`). :func:`write` then writes, in the folder it is
given (``python3 course.py insight`` gives ``exercises/class_insight/``):

- ``<assignment>_insight.html`` and ``<assignment>_insight.csv``, the teacher's copy: the
  misconceptions ranked by how many students show them, each with its cards drawn, the magic rule's
  sentence, the lesson to revisit and the students who show it; "other" for what no rule names; a
  students-by-tests heatmap and each test's score distribution;
- ``<assignment>_insight_anonymous.html`` and ``..._anonymous.csv``, to project: the same, with no
  student named (the heatmap's rows are numbered, by score) and no answer a student wrote as text.

The page needs no server and no network: pictures are inline (the cards as SVG, the charts as PNG).
Every text that comes from a student (names, ids, what a function returned or raised) is escaped,
then put through the course's HTML allow-list (:func:`setwidgets.grading.sanitize.sanitize_html`).
"""

from __future__ import annotations

import base64
import csv
import datetime
import html
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from setwidgets import _words
from setwidgets.cards import Card
from setwidgets.draw.svg import cards_svg
from setwidgets.grading import compute
from setwidgets.grading import insight_cases as kept
from setwidgets.grading.insight.catalogue import (
    NOT_WRITTEN,
    OTHER,
    Case,
    Misconception,
    default_example,
    diagnose,
    is_missing,
    plain_answer,
    read_test,
)
from setwidgets.grading.insight.exercises import CATALOGUE, LESSONS, ORACLES
from setwidgets.grading.judge import show
from setwidgets.grading.sanitize import safe_svg, sanitize_html

FOLDER = "insight"


@dataclass
class Row:
    """One misconception of the ranking: who shows it, and one case to show."""

    key: str
    title: str
    lesson: str
    students: list[str]
    example: Case | None
    cards: list[Card] = field(default_factory=list)
    sentence: str = ""
    unread: list[tuple[str, str, str]] = field(default_factory=list)
    """"other" only: the failed tests with no case to read, as (student, test, the test's sentence)."""


@dataclass
class Insight:
    """What :func:`gather` found for one assignment."""

    assignment: str
    students: list[str]
    names: dict[str, str]
    tests: list[str]
    scores: dict[str, dict[str, float | None]]
    """Each student's score of each test; None where nothing graded it (see :data:`NOT_GRADED`)."""
    maxima: dict[str, float]
    rows: list[Row]
    other: Row
    problems: list[str]


def _gradebook(root: Path, assignment: str) -> tuple[list[str], dict, dict, dict[str, str]]:
    """Students, their score of each graded test cell, the cells' maxima, and the students' names."""
    from nbgrader.api import Gradebook, MissingEntry

    scores: dict[str, dict[str, float | None]] = {}
    maxima: dict[str, float] = {}
    names: dict[str, str] = {}
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
        try:
            found = gradebook.find_assignment(assignment)
        except MissingEntry:
            raise ValueError(
                f"the gradebook has no assignment {assignment!r} yet: generate, release, collect and "
                "autograde it first (exercises/README.md, sections 3 to 6)"
            ) from None
        answers = {cell.name for notebook in found.notebooks for cell in notebook.solution_cells}
        for notebook in found.notebooks:
            for cell in notebook.grade_cells:
                if cell.cell_type == "code" and cell.name not in answers:
                    maxima[cell.name] = cell.max_score
        for submission in found.submissions:
            student = submission.student
            names[student.id] = (
                " ".join(p for p in (student.first_name, student.last_name) if p) or student.id
            )
            row = scores.setdefault(student.id, {})
            for notebook in submission.notebooks:
                for grade in notebook.grades:
                    if grade.name in maxima:
                        # nbgrader's score is 0 when nothing graded the cell: None says "not graded".
                        graded = grade.auto_score is not None or grade.manual_score is not None
                        row[grade.name] = grade.score if graded else None
        del MissingEntry
    return sorted(scores), scores, maxima, names


def not_full(score: float | None, most: float) -> bool:
    """Whether a test's score in the gradebook is short of full marks: points lost, or no score."""
    return score is None or score < most


def _from_cases(found: kept.ClassCases) -> tuple[list[str], dict, dict, dict[str, str]]:
    scores = {
        student: {test: float(record.passed) for test, record in tests.items()}
        for student, tests in found.students.items()
    }
    maxima = {test: 1.0 for tests in scores.values() for test in tests}
    return sorted(scores), scores, maxima, {student: student for student in scores}


NO_CASES_KEPT = (
    "No kept cases for this notebook: it was graded before the judge kept cases, or its file is gone; "
    "the gradebook says this test lost points."
)
"""Why a test a student lost points on has nothing to read, when no file of kept cases is there."""
CASES_LEFT_OUT = (
    "No kept cases for this notebook: its file of kept cases was left out, as it does not match what "
    "the judge writes (see Files left out); the gradebook says this test lost points."
)
"""Why, when :func:`~setwidgets.grading.insight_cases.read_class` left the student's file out."""
NOT_GRADED = (
    "Not graded: the gradebook holds no score for this test (the notebook's autograde did not finish, "
    "or has not run); autograde it again."
)
"""Why a submitted test with no score and no kept cases has nothing to read: it counts as "other",
so that a crashed or forgotten autograde is seen, not read as a class with nothing wrong."""


def gather(root: Path | str, assignment: str, *, progress: bool = True) -> Insight:
    """The insight of ``assignment`` in the course folder ``root`` (where ``gradebook.db`` is)."""
    root = Path(root)
    if assignment not in CATALOGUE:
        known = ", ".join(CATALOGUE)
        raise ValueError(f"insight knows the assignments {known}; got {assignment!r}")
    found = kept.read_class(root, assignment)
    if (root / "gradebook.db").is_file():
        students, scores, maxima, names = _gradebook(root, assignment)
    else:  # the kept files alone: a test passed is worth 1, a test failed 0
        students, scores, maxima, names = _from_cases(found)
    catalogue = CATALOGUE[assignment]
    shows: dict[str, list[tuple[str, Case]]] = {}
    others: list[tuple[str, Case]] = []
    other_students: list[str] = []
    unread: list[tuple[str, str, str]] = []
    everyone = sorted(set(students) | set(found.students))
    for student in tqdm(everyone, desc=f"insight {assignment}", unit="student", disable=not progress):
        failed: list[Case] = []
        mine: list[tuple[str, str, str]] = []
        for test, record in found.students.get(student, {}).items():
            if record.passed:
                continue
            read = read_test(test, record, ORACLES)
            failed += read
            if all(case.passed for case in read):  # failed with no case to read: its sentence stands
                mine.append((student, test, record.message))
        if student not in found.students:  # points lost in the gradebook, and no case kept to read
            why = CASES_LEFT_OUT if student in found.left_out else NO_CASES_KEPT
            row = scores.get(student, {})
            mine += [
                (student, t, NOT_GRADED if got is None else why)
                for t, got in row.items()
                if not_full(got, maxima[t])
            ]
        diagnosis = diagnose(failed, catalogue)
        for key, explained in diagnosis.named.items():
            shows.setdefault(key, []).append((student, explained[0]))
        if diagnosis.other:
            others.append((student, diagnosis.other[0]))
        if diagnosis.other or mine:
            other_students.append(student)
        unread += mine
    by_key = {rule.key: rule for rule in catalogue}
    rows = [_row(by_key[key], found_in) for key, found_in in shows.items()]
    rows.sort(key=lambda row: (-len(row.students), [r.key for r in catalogue].index(row.key)))
    title = "other: failures no rule names"
    other = Row(OTHER, title, LESSONS[assignment], other_students, None, unread=unread)
    if others:
        other.example = others[0][1]
        other.cards, other.sentence = default_example(other.example)
    tests = sorted(maxima, key=_test_order(root, assignment))
    return Insight(assignment, everyone, names, tests, scores, maxima, rows, other, found.problems)


def _test_order(root: Path, assignment: str) -> Callable[[str], tuple[int, str]]:
    """The sort key of the tests: their place in the source notebook (``source/<assignment>/``),
    as the students met them; by name after those (a test the source does not hold)."""
    import nbformat

    places: dict[str, int] = {}
    for path in sorted((root / "source" / assignment).glob("*.ipynb")):
        try:
            notebook = nbformat.read(path, as_version=4)
        except Exception:  # noqa: BLE001 - an unreadable source only loses the order
            continue
        for cell in notebook.cells:
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if isinstance(grade_id, str):
                places.setdefault(grade_id, len(places))
    return lambda name: (places.get(name, len(places)), name)


def _row(rule: Misconception, found_in: list[tuple[str, Case]]) -> Row:
    students = sorted(student for student, _ in found_in)
    example = found_in[0][1]
    cards, words = rule.shown(example)
    return Row(rule.key, rule.title, rule.lesson, students, example, cards, words)


# -- pictures -------------------------------------------------------------------------------------


def _png(figure: Any) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def labels(insight: Insight, anonymous: bool) -> list[tuple[str, str]]:
    """The heatmap's rows: (student, label), best total first; numbered when ``anonymous``."""

    def total(student: str) -> float:
        return sum(v or 0.0 for v in insight.scores.get(student, {}).values())

    ordered = sorted(insight.students, key=lambda s: (-total(s), s))
    if anonymous:
        return [(student, f"student {n}") for n, student in enumerate(ordered, 1)]
    return [(student, student) for student in ordered]


def heatmap_png(insight: Insight, anonymous: bool) -> str:
    """The students-by-tests picture (share of each test's points), as base64 PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = labels(insight, anonymous)
    tests = insight.tests
    data = [
        [
            (insight.scores.get(s, {}).get(t) or 0.0) / insight.maxima[t] if insight.maxima.get(t) else 0.0
            for t in tests
        ]
        for s, _ in rows
    ]
    height = max(2.5, 0.22 * len(rows) + 1.8)
    figure, axes = plt.subplots(figsize=(max(5.0, 0.5 * len(tests) + 3), height))
    image = axes.imshow(
        data or [[0.0]], aspect="auto", cmap="cividis", vmin=0, vmax=1, interpolation="nearest"
    )
    axes.set_xticks(range(len(tests)), [t.removeprefix("test_") for t in tests], rotation=60, ha="right")
    axes.set_yticks(range(len(rows)), [label for _, label in rows], fontsize=7)
    axes.set_title("Share of each test's points, by student (best first)")
    figure.colorbar(image, ax=axes, fraction=0.03)
    encoded = _png(figure)
    plt.close(figure)
    return encoded


def distribution_png(insight: Insight) -> str:
    """Each test's score distribution (how many students scored each number of points), base64 PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tests = insight.tests or ["(no test)"]
    columns = min(4, len(tests))
    lines = -(-len(tests) // columns)
    figure, grid = plt.subplots(lines, columns, figsize=(3 * columns, 2.2 * lines), squeeze=False)
    for axes, test in zip([a for row in grid for a in row], tests):
        points = [insight.scores.get(s, {}).get(test) or 0.0 for s in insight.students]
        values = sorted(set(points) | {0.0, insight.maxima.get(test, 0.0)})
        axes.bar([f"{v:g}" for v in values], [points.count(v) for v in values], color="#4a7bb7")
        axes.set_title(test.removeprefix("test_"), fontsize=8)
        axes.tick_params(labelsize=7)
    for axes in [a for row in grid for a in row][len(tests) :]:
        axes.axis("off")
    figure.supxlabel("points", fontsize=8)
    figure.supylabel("students", fontsize=8)
    figure.tight_layout()
    encoded = _png(figure)
    plt.close(figure)
    return encoded


# -- the page ---------------------------------------------------------------------------------------


def student_text(text: str) -> str:
    """A student's text as HTML: escaped, then through the course's allow-list (nh3)."""
    return sanitize_html(html.escape(str(text), quote=True))


def _cards_picture(cards: list[Card]) -> str:
    if not cards:
        return ""
    svg = cards_svg(cards, width=min(130 * len(cards), 390))
    return safe_svg(svg) or ""


def _answer(case: Case, anonymous: bool) -> str:
    """What the function did on the example case, as HTML; only plain values when ``anonymous``."""
    if is_missing(case):  # the grader's sentence, written anew from the function's name
        return student_text(compute.missing(case.function))
    args = ", ".join(show(arg, 120) for arg in case.args)
    call = f"{case.function}({args})"
    if case.error is not None:
        did = f"raised {case.error.splitlines()[0][:160]}" if not anonymous else "raised an error"
    elif anonymous and not plain_answer(case.got):
        did = "returned something else"
    else:
        did = f"returned {show(case.got, 160)}"
    wanted = f"; wanted {show(case.want, 160)}" if case.known else ""
    return student_text(f"{call} {did}{wanted}")


_STYLE = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}
h1{font-size:1.5em} h2{margin-top:1.5em;border-bottom:1px solid #ccc}
.row{display:grid;grid-template-columns:3em 1fr 400px;gap:.8em;align-items:start;padding:.7em 0;
  border-bottom:1px solid #eee}
.rank{font-size:1.6em;color:#888;text-align:right}
.count{font-weight:bold} .bar{height:.6em;background:#d9534f;border-radius:.3em;margin:.3em 0}
.sentence{font-style:italic} .lesson{color:#555} .who,.case{font-size:.85em;color:#444}
.other{background:#f6f6f6}
.line{border-top:3px double #999;margin-top:.5em;padding-top:.2em;color:#666;font-size:.85em}
img.chart{max-width:100%}
"""


def render(insight: Insight, anonymous: bool) -> str:
    """The page, as HTML text (see the module's help)."""
    total = len(insight.students)
    copy = "anonymous copy, to project" if anonymous else "teacher's copy: names students, do not project"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Class insight: {html.escape(insight.assignment)}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>Class insight: {html.escape(insight.assignment)}</h1>",
        f"<p>{total} students; {html.escape(copy)}. Made {datetime.date.today().isoformat()}.</p>",
        "<h2>What the class gets wrong</h2>",
    ]
    for rank, row in enumerate(insight.rows, 1):
        parts.append(_row_html(rank, row, total, anonymous, insight.names))
    parts.append('<div class="line">below: what no rule of the catalogue names</div>')
    parts.append(_row_html(None, insight.other, total, anonymous, insight.names))
    parts.append("<h2>Students by tests</h2>")
    parts.append(
        f'<img class="chart" alt="Heatmap of each student\'s share of each test\'s points" '
        f'src="data:image/png;base64,{heatmap_png(insight, anonymous)}">'
    )
    parts.append("<h2>Each test's scores</h2>")
    parts.append(
        f'<img class="chart" alt="Histogram of the points of each test" '
        f'src="data:image/png;base64,{distribution_png(insight)}">'
    )
    if insight.problems and not anonymous:
        parts.append("<h2>Files left out</h2><ul>")
        parts += [f"<li>{student_text(problem)}</li>" for problem in insight.problems]
        parts.append("</ul>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _named(student: str, names: dict[str, str]) -> str:
    """A student as the teacher's copy names them: the id, and the name when the class list has one."""
    name = names.get(student, student)
    return student if name == student else f"{student} ({name})"


def _row_html(rank: int | None, row: Row, total: int, anonymous: bool, names: dict[str, str]) -> str:
    count = len(row.students)
    share = 100 * count / total if total else 0
    who = ""
    if not anonymous and row.students:
        named = ", ".join(_named(student, names) for student in row.students)
        who = f'<div class="who">Students: {student_text(named)}</div>'
    case = f'<div class="case">For example: {_answer(row.example, anonymous)}</div>' if row.example else ""
    case += _unread_html(row.unread, anonymous)
    said = f'<div class="sentence">{html.escape(row.sentence)}</div>' if row.sentence else ""
    return (
        f'<div class="row{" other" if rank is None else ""}" data-key="{html.escape(row.key)}">'
        f'<div class="rank">{rank if rank is not None else ""}</div><div>'
        f"<div><b>{html.escape(row.title)}</b></div>"
        f'<div class="count">{count} of {total} students</div>'
        f'<div class="bar" style="width:{share:.0f}%"></div>'
        f'{said}<div class="lesson">Revisit {html.escape(row.lesson)}</div>{case}{who}</div>'
        f"<div>{_cards_picture(row.cards)}</div></div>"
    )


MAX_UNREAD_SHOWN = 5
"""The most tests failed with no case to read that the "other" row lists (the most common first)."""


def _unread_lines(unread: list[tuple[str, str, str]], anonymous: bool) -> list[str]:
    """The tests failed with no case to read, the most common first, each with how many students:
    with the test's sentence in the teacher's copy; by the test's name alone in the anonymous one
    (a sentence may quote what a student's function returned)."""
    said: dict[tuple[str, str], set[str]] = {}
    for student, test, sentence in unread:
        said.setdefault((test, "" if anonymous else sentence), set()).add(student)
    common = sorted(said.items(), key=lambda item: (-len(item[1]), item[0]))
    return [
        f"{test} ({_words.count(len(who), 'student')})" + (f": {sentence}" if sentence else "")
        for (test, sentence), who in common
    ]


def _unread_html(unread: list[tuple[str, str, str]], anonymous: bool) -> str:
    """:func:`_unread_lines` as the "other" row shows them, at most :data:`MAX_UNREAD_SHOWN`."""
    lines = _unread_lines(unread, anonymous)
    if not lines:
        return ""
    items = [f"<li>{student_text(line)}</li>" for line in lines[:MAX_UNREAD_SHOWN]]
    more = len(lines) - MAX_UNREAD_SHOWN
    if more > 0:
        items.append(f"<li>and {more} more</li>")
    where = " (their sentences are in the teacher's copy)" if anonymous else ""
    return f'<div class="case">Failed with no case kept to read{where}:<ul>{"".join(items)}</ul></div>'


def csv_rows(insight: Insight, anonymous: bool) -> Iterable[list[str]]:
    """The ranking as CSV rows, a header first; the students' column only in the teacher's copy."""
    from setwidgets.grading.export import spreadsheet_text

    header = [
        "rank", "misconception", "key", "students", "share", "lesson", "sentence", "example cards",
        "failed with no case to read",
    ]  # fmt: skip
    yield header if anonymous else [*header, "who"]
    total = len(insight.students)
    for rank, row in [*enumerate(insight.rows, 1), ("", insight.other)]:
        line = [
            str(rank),
            row.title,
            row.key,
            str(len(row.students)),
            f"{len(row.students) / total:.2f}" if total else "0",
            row.lesson,
            row.sentence,
            " ".join(card.code for card in row.cards),
            spreadsheet_text(" | ".join(_unread_lines(row.unread, anonymous))),
        ]
        yield (
            line
            if anonymous
            else [*line, "; ".join(spreadsheet_text(_named(s, insight.names)) for s in row.students)]
        )


def write(insight: Insight, folder: Path | str) -> list[Path]:
    """Write the teacher's and the anonymous page and CSV into ``folder``; their paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for anonymous, suffix in ((False, ""), (True, "_anonymous")):
        page = folder / f"{insight.assignment}_insight{suffix}.html"
        page.write_text(render(insight, anonymous), encoding="utf-8")
        table = folder / f"{insight.assignment}_insight{suffix}.csv"
        with open(table, "w", newline="", encoding="utf-8-sig") as out:
            csv.writer(out).writerows(csv_rows(insight, anonymous))
        written += [page, table]
    return written


__all__ = ["NOT_WRITTEN", "OTHER", "Insight", "gather", "render", "write"]
