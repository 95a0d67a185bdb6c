"""The hub's rules without a hub (setwidgets.hub): the roster, the exchange, what a home starts with."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from setwidgets import hub

ROOT = Path(__file__).resolve().parents[1]


def test_a_roster_maps_each_user_to_a_role_in_order_and_skips_comments_and_blank_lines():
    text = "# the class\n\nmsmith,teacher\n ana , student\nben,student\n"
    assert list(hub.parse_roster(text).items()) == [
        ("msmith", "teacher"),
        ("ana", "student"),
        ("ben", "student"),
    ]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("t,teacher\nana\n", "line 2: expected 'username,role', got 'ana'"),
        ("t,teacher\nana,student,extra\n", "line 2: expected 'username,role'"),
        ("t,teacher\nAna,student\n", "line 2: 'Ana' is not a Linux user name"),
        ("t,teacher\n1ana,student\n", "'1ana' is not a Linux user name"),
        ("t,teacher\nana,pupil\n", "line 2: the role 'pupil' is neither 'teacher' nor 'student'"),
        ("t,teacher\nana,student\nana,student\n", "line 3: 'ana' is listed twice"),
        ("ana,student\n", "names 0 teachers (none): expected exactly one"),
        ("t,teacher\nu,teacher\n", "names 2 teachers (t, u): expected exactly one"),
    ],
)
def test_a_wrong_roster_is_refused_with_the_line_and_what_is_expected(text, said):
    with pytest.raises(hub.RosterError) as error:
        hub.parse_roster(text, where="class.csv")
    assert str(error.value).startswith("class.csv")
    assert said in str(error.value)
    assert isinstance(error.value, ValueError)


def test_a_long_wrong_line_is_quoted_in_short():
    with pytest.raises(hub.RosterError) as error:
        hub.parse_roster("t,teacher\n" + "x" * 500 + "\n")
    assert len(str(error.value)) < 200


def test_the_example_roster_in_deploy_is_valid():
    roles = hub.read_roster(ROOT / "deploy" / "roster.csv")
    assert list(roles.values()).count(hub.TEACHER) == 1 and hub.STUDENT in roles.values()


def test_a_missing_roster_file_says_which_file(tmp_path):
    with pytest.raises(hub.RosterError, match="cannot read the roster .*nowhere.csv"):
        hub.read_roster(tmp_path / "nowhere.csv")


def test_missing_users_are_those_this_machine_does_not_have():
    assert hub.missing_users(["root", "no-such-user-here"]) == ["no-such-user-here"]


def test_the_exchange_is_made_open_to_all_with_the_sticky_bit_and_an_existing_one_is_kept(tmp_path):
    made = hub.make_exchange(tmp_path / "srv" / "exchange")
    assert stat.S_IMODE(made.stat().st_mode) == 0o1777
    kept = tmp_path / "kept"
    kept.mkdir()
    kept.chmod(0o777)
    hub.make_exchange(kept)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o777


def test_an_existing_exchange_closed_to_students_is_refused_with_the_mend(tmp_path):
    closed = tmp_path / "closed"
    closed.mkdir()
    closed.chmod(0o755)
    with pytest.raises(ValueError, match=r"has mode 755, so students could not fetch or submit.*chmod 1777"):
        hub.make_exchange(closed)
    assert stat.S_IMODE(closed.stat().st_mode) == 0o755


def _repository(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "lessons").mkdir(parents=True)
    (repo / "lessons" / "00_start_here.ipynb").write_text("{}")
    course = repo / "exercises"
    for folder in [
        "source/01",
        "release/01",
        "submitted/ana/01",
        "autograded/ana/01",
        "feedback/ana/01",
        "exchange",
    ]:
        (course / folder).mkdir(parents=True)
    (course / "nbgrader_config.py").write_text("c = get_config()\n")
    (course / "gradebook.db").write_bytes(b"grades")
    return repo


def test_a_student_home_gets_the_lessons_and_is_made_private(tmp_path):
    home = tmp_path / "ana"
    home.mkdir(mode=0o755)
    copied = hub.prepare_home(home, hub.STUDENT, _repository(tmp_path))
    assert copied == [home / hub.LESSONS_FOLDER]
    assert (home / hub.LESSONS_FOLDER / "00_start_here.ipynb").is_file()
    assert not (home / hub.COURSE_FOLDER).exists()
    assert stat.S_IMODE(home.stat().st_mode) == 0o700


def test_the_teacher_gets_the_course_without_any_student_work(tmp_path):
    home = tmp_path / "teacher"
    home.mkdir()
    hub.prepare_home(home, hub.TEACHER, _repository(tmp_path))
    course = home / hub.COURSE_FOLDER
    assert sorted(p.name for p in course.iterdir()) == ["nbgrader_config.py", "release", "source"]


def test_what_a_user_already_has_is_never_overwritten(tmp_path):
    home = tmp_path / "teacher"
    (home / hub.COURSE_FOLDER).mkdir(parents=True)
    (home / hub.COURSE_FOLDER / "gradebook.db").write_bytes(b"this term's grades")
    repository = _repository(tmp_path)
    copied = hub.prepare_home(home, hub.TEACHER, repository)
    assert copied == [home / hub.LESSONS_FOLDER]
    assert (home / hub.COURSE_FOLDER / "gradebook.db").read_bytes() == b"this term's grades"
    assert hub.prepare_home(home, hub.TEACHER, repository) == []


def test_an_unknown_role_is_refused_before_anything_changes(tmp_path):
    home = tmp_path / "x"
    home.mkdir(mode=0o755)
    home.chmod(0o755)
    with pytest.raises(ValueError, match="the role 'admin' is neither"):
        hub.prepare_home(home, "admin", _repository(tmp_path))
    assert stat.S_IMODE(home.stat().st_mode) == 0o755 and list(home.iterdir()) == []


def test_a_roster_file_is_read_and_its_errors_name_the_file(tmp_path):
    roster = tmp_path / "class.csv"
    roster.write_text("# Klasse 5ä, Frau Müller\nmuller,teacher\nana,student\n", encoding="utf-8")
    assert hub.read_roster(roster) == {"muller": "teacher", "ana": "student"}
    roster.write_text("muller,teacher\nana,pupil\n")
    with pytest.raises(hub.RosterError, match=rf"^{roster}, line 2: the role 'pupil'"):
        hub.read_roster(roster)


def test_indented_comments_and_lines_of_empty_fields_are_skipped():
    assert hub.parse_roster("  # the class\n,\n , \nt,teacher\n# ana left\nben,student\n") == {
        "t": "teacher",
        "ben": "student",
    }


def test_without_a_file_name_the_messages_say_the_roster():
    with pytest.raises(hub.RosterError, match="^the roster, line 1: 'X' is not"):
        hub.parse_roster("X,pupil")


def test_compiled_python_in_the_lessons_is_not_copied(tmp_path):
    repository = _repository(tmp_path)
    (repository / "lessons" / "__pycache__").mkdir()
    (repository / "lessons" / "__pycache__" / "x.pyc").write_bytes(b"")
    home = tmp_path / "ana"
    home.mkdir()
    hub.prepare_home(home, hub.STUDENT, repository)
    assert sorted(p.name for p in (home / hub.LESSONS_FOLDER).iterdir()) == ["00_start_here.ipynb"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving files away needs root")
def test_as_root_the_copies_belong_to_the_user_and_nothing_else_changes_owner(tmp_path):
    repository = _repository(tmp_path)
    home = tmp_path / "teacher"
    home.mkdir()
    (home / "notes.txt").write_text("mine")
    user = (65534, 65533)  # nobody, and a group of no one's
    hub.prepare_home(home, hub.TEACHER, repository, owner=user)
    for copy in [home / hub.LESSONS_FOLDER, home / hub.COURSE_FOLDER]:
        for path in [copy, *copy.rglob("*")]:
            assert (path.stat().st_uid, path.stat().st_gid) == user, path
    assert (home / "notes.txt").stat().st_uid == os.geteuid()
    assert (repository / "lessons").stat().st_uid == os.geteuid()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving files away needs root")
def test_a_link_in_the_copies_is_given_away_itself_not_what_it_points_to(tmp_path):
    repository = _repository(tmp_path)
    outside = tmp_path / "outside.txt"
    outside.write_text("root's")
    (repository / "lessons" / "link").symlink_to(outside)
    home = tmp_path / "ana"
    home.mkdir()
    hub.prepare_home(home, hub.STUDENT, repository, owner=(65534, 65534))
    link = home / hub.LESSONS_FOLDER / "link"
    assert link.is_symlink() and link.lstat().st_uid == 65534
    assert outside.stat().st_uid == os.geteuid()


def test_a_teacher_who_kept_the_lessons_still_gets_the_course(tmp_path):
    home = tmp_path / "teacher"
    (home / hub.LESSONS_FOLDER).mkdir(parents=True)
    assert hub.prepare_home(home, hub.TEACHER, _repository(tmp_path)) == [home / hub.COURSE_FOLDER]


def test_a_roster_saved_by_a_spreadsheet_reads_as_written(tmp_path):
    """Excel's "CSV UTF-8" starts with a byte-order mark; older spreadsheets save Windows-1252."""
    from setwidgets.hub import read_roster

    bom = tmp_path / "bom.csv"
    bom.write_bytes("\ufeffteacher,teacher\nana,student\n".encode("utf-8"))
    windows = tmp_path / "windows.csv"
    text = "# Ana Muñoz, Łukasz\nteacher,teacher\nana,student\n"
    windows.write_bytes(text.encode("cp1252", errors="replace"))
    for path in (bom, windows):
        assert read_roster(path) == {"teacher": "teacher", "ana": "student"}


@pytest.mark.parametrize("account", ["root", "nobody", "daemon"])
def test_system_accounts_are_refused_as_teacher_or_student(account):
    from setwidgets.hub import RosterError, parse_roster

    with pytest.raises(RosterError, match=f"line 2: '{account}' is a system account"):
        parse_roster(f"teacher,teacher\n{account},student")


def test_the_rosters_functions_refuse_what_is_not_a_roster():
    from setwidgets.hub import missing_users, parse_roster

    with pytest.raises(TypeError, match=r"roster's text; got b'teacher,teacher' \(bytes, not text\)"):
        parse_roster(b"teacher,teacher")
    with pytest.raises(TypeError, match="needs a list of user names; got the single string 'root'"):
        missing_users("root")
