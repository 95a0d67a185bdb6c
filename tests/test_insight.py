"""Class insight without nbgrader: the judge's kept cases, the catalogue's rules, the page and the CSV.

A small seeded class (one student of each kind of tests/insight_class.py) is graded here by the
exercise's own judged tests, run in this process on each student's functions (as ``try_here``
does), its kept cases written in a course folder without a gradebook; the real nbgrader grades the
class of 40 in tests/test_insight_nbgrader.py.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from insight_class import ASSIGNMENT, SMALL, expected_counts, seeded_class

from setwidgets import FEATURES, Card, full_deck
from setwidgets.grading import compute, judge
from setwidgets.grading import insight_cases as cases
from setwidgets.grading.insight.catalogue import OTHER, Case, diagnose
from setwidgets.grading.insight.exercises import CATALOGUE
from setwidgets.grading.insight.page import (
    CASES_LEFT_OUT,
    NO_CASES_KEPT,
    NOT_GRADED,
    gather,
    not_full,
    render,
    write,
)
from setwidgets.rules import find_sets as compute_sets

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "exercises" / "source"
BLANK = """
def is_set(a, b, c):
    raise NotImplementedError()


def odd_one_out(a, b, c):
    raise NotImplementedError()
"""


def grade_here(root: Path, students: dict) -> None:
    """Judge each student's functions with the exercise's tests, in this process; keep the cases."""
    tests = judge.load(SOURCE / ASSIGNMENT)
    for student, (answers, _) in students.items():
        namespace: dict = {"FEATURES": FEATURES, "Card": Card, "full_deck": full_deck}
        for source in answers.values() or [BLANK]:
            exec(source, namespace)  # noqa: S102 - the seeded class's own answers
        verdicts = {
            grade_id: judge.judge(test, lambda request, ns=namespace: compute.call(request, ns), seed=39)
            for grade_id, test in tests.items()
        }
        cases.write(root, student, ASSIGNMENT, "magic_rule", verdicts)


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> tuple[Path, dict]:
    root = tmp_path_factory.mktemp("course")
    students = seeded_class(plan=SMALL)
    grade_here(root, students)
    return root, students


def found_counts(insight) -> Counter:
    counts = Counter({row.key: len(row.students) for row in insight.rows})
    if insight.other.students:
        counts[OTHER] = len(insight.other.students)
    return counts


def test_the_insight_names_each_seeded_misconception_with_its_count_and_nothing_else(graded):
    root, students = graded
    insight = gather(root, ASSIGNMENT, progress=False)
    assert found_counts(insight) == expected_counts(students)
    for row in insight.rows:
        want = sorted(s for s, (_, shown) in students.items() if row.key in shown)
        assert row.students == want, row.key


def test_the_ranking_goes_from_the_most_students_down(graded):
    insight = gather(graded[0], ASSIGNMENT, progress=False)
    counts = [len(row.students) for row in insight.rows]
    assert counts == sorted(counts, reverse=True)
    assert insight.rows[0].key == "not_written"  # a tie of one each: the catalogue's order


def test_each_misconception_shows_cards_and_the_core_sentence_about_them(graded):
    insight = gather(graded[0], ASSIGNMENT, progress=False)
    by_key = {row.key: row for row in insight.rows}
    shading = by_key["ignores_shading"]
    assert len(shading.cards) == 3
    # The core's sentence names the shadings of the broken feature: "two are solid and one is open".
    assert shading.sentence.startswith("Not a SET: two are ")
    assert sum(word in shading.sentence for word in ("solid", "striped", "open")) == 2
    assert by_key["same_card_thrice"].sentence.startswith("Not a SET: the same card")
    assert by_key["all_different_refused"].sentence.startswith("A SET: ")
    assert all(row.lesson == "lessons/02_the_magic_rule.ipynb" for row in insight.rows)


def test_the_judge_keeps_failed_cases_as_plain_bounded_data_and_the_student_message_is_unchanged(graded):
    root, students = graded
    shading = next(s for s, (_, shown) in students.items() if "ignores_shading" in shown)
    data = json.loads(cases.path_of(root, shading, ASSIGNMENT, "magic_rule").read_text())
    hidden = data["tests"]["test_is_set_hidden"]
    assert not hidden["passed"]
    failed = [c for c in hidden["cases"] if not c.get("passed")]
    assert len(failed) == judge.MAX_KEPT
    assert failed[0]["function"] == "is_set" and failed[0]["got"] is True and failed[0]["want"] is False
    assert all(set(arg) == {"card"} for arg in failed[0]["args"])
    assert hidden["message"].startswith("is_set(") and "should be False" in hidden["message"]
    assert 0 < sum(1 for c in hidden["cases"] if c.get("passed")) <= judge.MAX_PASSED_KEPT
    honest = next(s for s, (answers, shown) in students.items() if answers and not shown)
    data = json.loads(cases.path_of(root, honest, ASSIGNMENT, "magic_rule").read_text())
    passed = {"passed": True, "message": "is_set passed the visible tests.", "cases": []}
    assert data["tests"]["test_is_set_visible"] == passed


def test_a_kept_value_is_bounded_whatever_the_function_returned():
    huge = list(range(10_000))
    kept = judge.kept_value(huge)
    assert set(kept) == {"object"} and len(json.dumps(kept)) < 400
    assert judge.kept_value("x" * 5000) == "x" * 300
    assert judge.kept_value(judge.Opaque("Evil", "<script>")) == {"object": ["Evil", "<script>"]}


def test_a_guessing_function_is_other_not_two_misconceptions_at_once():
    """Too generous on some triples and too strict on others: no side of the catalogue explains it."""
    a, b, c, d = (Card.parse(code) for code in ("1RSO", "2RSO", "3RSO", "3PSO"))
    generous = Case("t", "is_set", (a, b, d), True, None, False, True, "")
    strict = Case("t", "is_set", (a, b, c), False, None, True, True, "")
    found = diagnose([generous, strict], CATALOGUE[ASSIGNMENT])
    assert not found.named and found.other == [generous, strict]


def test_a_case_answered_right_refutes_a_model_that_answers_otherwise():
    a, b, d = (Card.parse(code) for code in ("1RSO", "2RSS", "3PSO"))  # two alike in color and shape
    e, f, g = (Card.parse(code) for code in ("1RSO", "1RSS", "1RTD"))  # two alike in shading only
    generous = Case("t", "is_set", (a, b, d), True, None, False, True, "")
    refuses = Case("t", "is_set", (e, f, g), False, None, False, True, "", passed=True)
    assert diagnose([generous], CATALOGUE[ASSIGNMENT]).named.keys() == {"two_alike_taken"}
    found = diagnose([generous, refuses], CATALOGUE[ASSIGNMENT])
    assert "two_alike_taken" not in found.named


def test_a_file_of_kept_cases_that_does_not_match_the_schema_is_left_out_and_named(tmp_path):
    path = cases.path_of(tmp_path, "mallory", ASSIGNMENT, "magic_rule")
    path.parent.mkdir(parents=True)
    path.write_text(
        json.dumps(
            {
                "student": "mallory",
                "assignment": ASSIGNMENT,
                "notebook": "x",
                "tests": {"t": {"passed": "yes"}},
            }
        )
    )
    found = cases.read_class(tmp_path, ASSIGNMENT)
    assert not found.students and "mallory" in found.problems[0]
    with pytest.raises(ValueError, match="one folder name"):
        cases.path_of(tmp_path, "..", ASSIGNMENT, "magic_rule")


def test_the_anonymous_copy_names_no_student_and_shows_no_text_a_student_wrote(graded, tmp_path):
    root, students = graded
    insight = gather(root, ASSIGNMENT, progress=False)
    # A student whose id and name look like markup, and whose function returned text.
    insight.students.append("<b>eve</b>")
    insight.other.students.append("<b>eve</b>")
    written = write(insight, tmp_path)
    anonymous = [p for p in written if "anonymous" in p.name]
    teacher = [p for p in written if "anonymous" not in p.name]
    for path in anonymous:
        # The charts are pictures, their labels numbered (labels()); base64 may hold any short text.
        text = re.sub(r"base64,[A-Za-z0-9+/=]+", "base64,", path.read_text(encoding="utf-8-sig"))
        for student in insight.students:
            assert student not in text and student.replace("<", "&lt;") not in text, (path.name, student)
    page = teacher[0].read_text()
    assert "s01" in page and "<b>eve</b>" not in page and "&lt;b&gt;eve&lt;/b&gt;" in page
    rows = list(csv.reader(teacher[1].open(encoding="utf-8-sig")))
    assert rows[0][-1] == "who" and rows[1][2] == insight.rows[0].key and rows[-1][2] == OTHER


def test_the_page_is_one_offline_file(graded):
    page = render(gather(graded[0], ASSIGNMENT, progress=False), anonymous=True)
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "<script" not in page and page.count('src="data:image/png;base64,') == 2
    insight = gather(graded[0], ASSIGNMENT, progress=False)
    drawn = [row for row in [*insight.rows, insight.other] if row.cards]
    assert {row.key for row in insight.rows} - {row.key for row in drawn} == {"not_written"}
    assert page.count("<svg") == len(drawn)


def test_the_widget_shows_the_page_of_the_assignment_picked_in_a_sandboxed_frame(graded):
    from setwidgets.grading.insight.widget import ANONYMOUS, insight_view

    root, students = graded
    view = insight_view(root)
    (picker, copy), page = view.children[0].children, view.children[1]
    assert list(picker.options) == [ASSIGNMENT] and picker.value == ASSIGNMENT
    assert page.value.startswith('<iframe sandbox=""') and "Class insight: 01_magic_rule" in page.value
    assert all(student in page.value for student, (_, shown) in students.items() if shown)
    shown = []
    page.observe(lambda change: shown.append(change["new"]), names="value")
    copy.value = ANONYMOUS
    # The teacher's copy goes first, before the anonymous one is drawn (seconds), not after.
    assert len(shown) == 2 and shown[0] == "<p>Making the anonymous copy (to project) of 01_magic_rule...</p>"
    text = re.sub(r"base64,[A-Za-z0-9+/=]+", "", page.value)
    assert "anonymous copy" in text and not [s for s in students if s in text]


def test_a_case_whose_answer_the_judge_cut_is_read_by_no_rule_and_set_aside():
    """1,080 SETs are kept as a short text: the small table's case names the mistake alone."""
    from setwidgets.grading.judge import Opaque

    table = list(full_deck()[:9])
    sets = compute_sets(table)
    twice = [t for a, b, c in sets for t in ((a, b, c), (a, b, c))]
    small = Case("t", "all_sets", (table,), twice, None, sets, True, "")
    big = Case(
        "t", "all_sets", (list(full_deck()),), Opaque("list", "[(1RSO, 1RTO, 1ROO), ..."), None, [], True, ""
    )
    found = diagnose([small, big], CATALOGUE["03_finding_sets"])
    assert set(found.named) == {"each_set_twice"} and found.other == []
    alone = diagnose([big], CATALOGUE["03_finding_sets"])
    assert not alone.named and alone.other == [big]


def test_rules_that_together_explain_some_cases_are_named_only_when_each_adds_one():
    """No combination explains every case: the broad rule names both it explains, the narrow one
    (which explains only one of those) is not named, and the third case is "other"."""
    from setwidgets.grading.insight.catalogue import Misconception

    narrow = Misconception("narrow", "x", ("f",), "narrow", "lessons/x", lambda case: case.got == 1)
    broad = Misconception("broad", "x", ("f",), "broad", "lessons/x", lambda case: case.got in (1, 2))
    one, two, three = (Case("t", "f", (), got, None, 0, True, "") for got in (1, 2, 3))
    found = diagnose([one, two, three], [narrow, broad])
    assert found.named == {"broad": [one, two]} and found.other == [three]


def counted(insight) -> set[str]:
    """The students the page counts: those of the named rows and of "other"."""
    return {s for row in [*insight.rows, insight.other] for s in row.students}


def failing(root: Path, assignment: str) -> set[str]:
    """The students with a failed test, as the kept files say."""
    found = cases.read_class(root, assignment)
    return {s for s, tests in found.students.items() if any(not t.passed for t in tests.values())}


def lost(insight) -> set[str]:
    """The students who lost points or were not graded, as the gradebook says (or the kept files,
    with no gradebook)."""
    return {
        s
        for s, row in insight.scores.items()
        if any(not_full(got, insight.maxima[t]) for t, got in row.items())
    }


@pytest.fixture(scope="module")
def unwritten(tmp_path_factory) -> Path:
    """A class that wrote little: ana and ben have no function at all (stubs deleted, or cells never
    run), cai left the release copy's stubs, dee's kernel gave no readable answer (a failed test
    with no case, for another reason than a missing function). Judged by the exercise's tests."""
    root = tmp_path_factory.mktemp("unwritten")
    tests = judge.load(SOURCE / ASSIGNMENT)
    for student in ("ana", "ben", "cai", "dee"):
        namespace: dict = {"FEATURES": FEATURES, "Card": Card, "full_deck": full_deck}
        if student == "cai":
            exec(BLANK, namespace)  # noqa: S102 - the release copy's stubs

        def ask(request, ns=namespace, student=student):
            return "{not json" if student == "dee" else compute.call(request, ns)

        verdicts = {grade_id: judge.judge(test, ask, seed=39) for grade_id, test in tests.items()}
        cases.write(root, student, ASSIGNMENT, "magic_rule", verdicts)
    return root


def test_the_sentence_of_a_missing_function_has_one_home_that_reads_it_back(unwritten):
    found = cases.read_class(unwritten, ASSIGNMENT)
    said = {record.message for record in found.students["ana"].values()}
    assert said == {compute.missing("is_set"), compute.missing("odd_one_out")}
    assert {compute.missing_function(sentence) for sentence in said} == {"is_set", "odd_one_out"}
    assert compute.missing_function("is_set returned True") is None
    assert compute.missing_function(compute.missing("a b")) is None


def test_a_student_with_no_function_is_not_written_like_one_who_left_the_stubs(unwritten):
    insight = gather(unwritten, ASSIGNMENT, progress=False)
    assert [(row.key, row.students) for row in insight.rows] == [("not_written", ["ana", "ben", "cai"])]
    page = render(insight, anonymous=False)
    assert "3 of 4 students" in page and "there is no function is_set in the notebook" in page


def test_a_failed_test_with_no_case_to_read_is_other_with_its_sentence(unwritten, tmp_path):
    insight = gather(unwritten, ASSIGNMENT, progress=False)
    assert insight.other.students == ["dee"] and insight.other.example is None
    sentence = "The grader got no answer from your notebook: the kernel's answer is not readable"
    assert {(s, test) for s, test, _ in insight.other.unread} == {
        ("dee", test) for test in judge.load(SOURCE / ASSIGNMENT)
    }
    assert all(said.startswith(sentence) for _, _, said in insight.other.unread)
    teacher, anonymous = render(insight, anonymous=False), render(insight, anonymous=True)
    other = teacher[teacher.index('data-key="other"') :]
    assert "1 of 4 students" in other and sentence in other and "dee" in other
    other = anonymous[anonymous.index('data-key="other"') :]
    assert "1 of 4 students" in other and "test_is_set_hidden" in other and sentence not in other
    text = re.sub(r"base64,[A-Za-z0-9+/=]+", "", anonymous)
    assert not [s for s in ("ana", "ben", "cai", "dee") if s in text]
    rows = list(csv.reader(write(insight, tmp_path)[1].open(encoding="utf-8-sig")))
    assert [(row[2], row[3]) for row in rows[1:]] == [("not_written", "3"), (OTHER, "1")]


UNGRADED = "una-ungraded"
"""The booked class's student who submitted and was never graded."""


@pytest.fixture(scope="module")
def booked(tmp_path_factory, graded) -> tuple[Path, str, str]:
    """The seeded class with a gradebook (a test's point if its kept case passed), after which one
    failing student's kept file was removed and another's replaced by one that does not match
    (it names someone else, which must not reach a sentence): (root, removed, left out). One more
    student, UNGRADED, submitted and was never graded (no score, no kept file)."""
    import nbgrader.api
    from nbgrader.api import Gradebook

    root = tmp_path_factory.mktemp("booked")
    shutil.copytree(graded[0] / cases.FOLDER, root / cases.FOLDER)
    found = cases.read_class(root, ASSIGNMENT)
    removed, left_out = [s for s in sorted(found.students) if s in failing(root, ASSIGNMENT)][:2]
    with pytest.MonkeyPatch.context() as patch:  # alembic's version, asked in a process of its own
        patch.setattr(nbgrader.api, "get_alembic_version", lambda: "e43177bfe90b")
        with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
            gradebook.add_assignment(ASSIGNMENT)
            gradebook.add_notebook("magic_rule", ASSIGNMENT)
            for test in judge.load(SOURCE / ASSIGNMENT):
                gradebook.add_grade_cell(test, "magic_rule", ASSIGNMENT, max_score=1, cell_type="code")
            for student, tests in found.students.items():
                gradebook.add_student(student, first_name="Noor" if student == removed else "Ilse")
                gradebook.add_submission(ASSIGNMENT, student)
                for grade in gradebook.find_submission_notebook("magic_rule", ASSIGNMENT, student).grades:
                    grade.auto_score = float(tests[grade.name].passed)
            gradebook.add_student(UNGRADED, first_name="Una")
            gradebook.add_submission(ASSIGNMENT, UNGRADED)
            gradebook.db.commit()
    cases.path_of(root, removed, ASSIGNMENT, "magic_rule").unlink()
    file = cases.path_of(root, left_out, ASSIGNMENT, "magic_rule")
    file.write_text(json.dumps({**json.loads(file.read_text()), "student": "Zed Quux"}))
    return root, removed, left_out


@pytest.mark.nbgrader
def test_a_student_who_lost_points_with_no_kept_cases_is_other_saying_why(booked):
    root, removed, left_out = booked
    insight = gather(root, ASSIGNMENT, progress=False)
    assert "Zed Quux" in insight.problems[0] and {removed, left_out} <= set(insight.other.students)
    assert not [row.key for row in insight.rows if {removed, left_out} & set(row.students)]
    said = {(s, test, why) for s, test, why in insight.other.unread if s in (removed, left_out)}
    lost_tests = {s: {t for t, got in insight.scores[s].items() if got < 1} for s in (removed, left_out)}
    assert said == {(removed, t, NO_CASES_KEPT) for t in lost_tests[removed]} | {
        (left_out, t, CASES_LEFT_OUT) for t in lost_tests[left_out]
    }
    teacher, anonymous = render(insight, anonymous=False), render(insight, anonymous=True)
    other = teacher[teacher.index('data-key="other"') :].split("<h2>")[0]
    assert NO_CASES_KEPT in other and CASES_LEFT_OUT in other and "Zed Quux" not in other
    assert f"{removed} (Noor)" in other and f"{left_out} (Ilse)" in other
    other = anonymous[anonymous.index('data-key="other"') :].split("<h2>")[0]
    assert min(lost_tests[removed]) in other and "(their sentences are in the teacher" in other
    text = re.sub(r"base64,[A-Za-z0-9+/=]+", "", anonymous)
    assert not [w for w in (removed, left_out, "Noor", "Ilse", "Zed Quux", "No kept cases") if w in text]


@pytest.mark.nbgrader
def test_an_assignment_the_gradebook_does_not_hold_says_what_to_do_first(tmp_path):
    import nbgrader.api
    from nbgrader.api import Gradebook

    with pytest.MonkeyPatch.context() as patch:  # alembic's version, asked in a process of its own
        patch.setattr(nbgrader.api, "get_alembic_version", lambda: "e43177bfe90b")
        Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}").close()
    with pytest.raises(ValueError) as refused:
        gather(tmp_path, ASSIGNMENT, progress=False)
    assert str(refused.value) == (
        f"the gradebook has no assignment {ASSIGNMENT!r} yet: generate, release, collect and autograde it "
        "first (exercises/README.md, sections 3 to 6)"
    )


@pytest.mark.nbgrader
def test_a_student_submitted_and_never_graded_is_other_saying_so(booked):
    # An autograde that crashed or never ran leaves scores of None and no kept cases: the page
    # says so, as it would of points lost, instead of reading that student as nothing wrong.
    insight = gather(booked[0], ASSIGNMENT, progress=False)
    tests = set(insight.maxima)
    assert set(insight.scores[UNGRADED].values()) == {None} and UNGRADED in insight.other.students
    said = {(test, why) for s, test, why in insight.other.unread if s == UNGRADED}
    assert said == {(test, NOT_GRADED) for test in tests} and tests
    teacher = render(insight, anonymous=False)
    assert NOT_GRADED in teacher and f"{UNGRADED} (Una)" in teacher


@pytest.mark.nbgrader
def test_the_csv_says_what_other_failed_with_no_case_to_read(booked, tmp_path):
    # The sentences in the teacher's copy, the tests' names alone in the anonymous one, as the page.
    insight = gather(booked[0], ASSIGNMENT, progress=False)
    written = write(insight, tmp_path)
    teacher, anonymous = (list(csv.reader(written[i].open(encoding="utf-8-sig"))) for i in (1, 3))
    column = teacher[0].index("failed with no case to read")
    assert anonymous[0][column] == teacher[0][column]
    assert [row[column] for row in teacher[1:-1]] == [""] * len(insight.rows)  # "other"'s alone
    said, unsaid = teacher[-1][column], anonymous[-1][column]
    assert all(why in said for why in (NOT_GRADED, NO_CASES_KEPT, CASES_LEFT_OUT)), said
    tests = {test for _, test, _ in insight.other.unread}
    assert tests and all(f"{test} (" in said and f"{test} (" in unsaid for test in tests), (said, unsaid)
    assert not [w for w in ("Not graded", "No kept cases", "Zed Quux", UNGRADED) if w in unsaid], unsaid


@pytest.mark.parametrize(
    "course", ["unwritten", "graded", pytest.param("booked", marks=pytest.mark.nbgrader)]
)
def test_every_student_with_a_failed_test_is_counted_by_a_named_row_or_other(course, request):
    root = request.getfixturevalue(course)
    root = root if isinstance(root, Path) else root[0]
    insight = gather(root, ASSIGNMENT, progress=False)
    assert failing(root, ASSIGNMENT) | lost(insight) == counted(insight) != set()


def test_autograde_moves_its_bar_when_a_notebook_is_done_and_prints_nbgraders_errors(
    tmp_path, monkeypatch, capsys
):
    """The bar counts notebooks graded (one is done when the next starts, or nbgrader ends), not
    notebooks started, and those graded before and skipped; an error line shows above it, made
    inert; warnings are only counted."""
    import subprocess
    import sys

    from setwidgets.grading.insight import progress

    for student in ("ana", "ben", "cai", "dee"):
        folder = tmp_path / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        (folder / "magic_rule.ipynb").write_text("{}")
    log = [
        f"[AutogradeApp | INFO] Skipping existing assignment: {tmp_path}/autograded/dee/01_magic_rule",
        "[AutogradeApp | INFO] Autograding autograded/ana/01_magic_rule/magic_rule.ipynb",
        "[AutogradeApp | WARNING] Attribute 'checksum' for cell test_is_set_hidden has changed!",
        "[AutogradeApp | INFO] Autograding autograded/ben/01_magic_rule/magic_rule.ipynb",
        "[AutogradeApp | ERROR] ben's notebook: \x1b[2J cleared",
        "[AutogradeApp | INFO] Autograding autograded/cai/01_magic_rule/magic_rule.ipynb",
    ]
    script = f"import sys; sys.stdout.write({chr(10).join(log) + chr(10)!r})"
    real = subprocess.Popen
    monkeypatch.setattr(
        progress.subprocess, "Popen", lambda command, **kw: real([sys.executable, "-c", script], **kw)
    )
    counts = []

    class Recorded(progress.tqdm):
        def update(self, n=1):
            super().update(n)
            counts.append(self.n)

    monkeypatch.setattr(progress, "tqdm", Recorded)
    assert progress.autograde(tmp_path, ASSIGNMENT) == 0
    assert counts == [1, 1, 2, 3, 4]  # dee was graded before; ana is done when ben starts, cai at the end
    err = capsys.readouterr().err
    assert (
        "4/4" in err
        and "1 submission graded before, skipped" in err
        and "ben's notebook: \\x1b[2J cleared" in err
        and "\x1b[2J" not in err
    )
    assert "checksum" not in err and "1 warning (nbgrader's)" in err
    assert (tmp_path / "class_insight" / f"autograde_{ASSIGNMENT}.log").read_text().count("Autograding") == 3


@pytest.mark.parametrize("command", ["autograde", "insight"])
def test_course_py_autograde_and_insight_without_an_assignment_say_so(command, capsys, monkeypatch):
    """In course.py's words (its module's usage would name a COURSE argument the teacher never gives)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("course_cli", ROOT / "course.py")
    course = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course)
    monkeypatch.setattr(course, "ensure_venv", lambda *extras: None)  # no install from a test
    assert course.COMMANDS[command]([]) == 2
    assert capsys.readouterr().err == f"course.py {command}: name the assignment, e.g. 01_magic_rule\n"
