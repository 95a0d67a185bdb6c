"""The hub's rules without a hub (setwidgets.hub): the roster, the exchange, what a home starts with."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from setwidgets import hub
from setwidgets._inputs import path_text

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
    with pytest.raises(TypeError, match=r"got the single string 'root': write \['root'\]"):
        missing_users("root")


# -- issue 25: the hub's rosters and homes answer bad input well -------------------------------------


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (["teacher,teacher"], r"roster's text; got \['teacher,teacher'\] \(a list\)"),
        (None, r"roster's text; got None \(nothing\)"),
        (b"teacher,teacher", r"roster's text; got b'teacher,teacher' \(bytes, not text\)"),
    ],
)
def test_the_roster_parser_refuses_what_is_not_text(text, said):
    with pytest.raises(TypeError, match=said):
        hub.parse_roster(text)


@pytest.mark.parametrize("mark", [b"", b"\xef\xbb\xbf"])
def test_a_utf8_roster_reads_with_or_without_the_byte_order_mark(tmp_path, mark):
    roster = tmp_path / "class.csv"
    roster.write_bytes(mark + "# Frau Müller's class\r\nt,teacher\r\nana,student\r\n".encode())
    assert list(hub.read_roster(roster)) == ["t", "ana"]  # not '\ufefft'


@pytest.mark.parametrize("encoding", ["latin-1", "cp1252", "utf-16"])
def test_a_roster_in_latin1_windows1252_or_utf16_is_read_as_written(tmp_path, encoding):
    roster = tmp_path / "class.csv"
    roster.write_bytes("# Frau Müller, Ana Muñoz, Zoë\nt,teacher\nana,student\n".encode(encoding))
    assert hub.read_roster(roster) == {"t": "teacher", "ana": "student"}


def test_a_byte_neither_utf8_nor_windows1252_is_refused_with_its_line_and_how_to_save(tmp_path):
    roster = tmp_path / "class.csv"
    roster.write_bytes(b"t,teacher\n# \x81\nana,student\n")
    with pytest.raises(hub.RosterError) as error:
        hub.read_roster(roster)
    assert str(error.value) == (
        f"the roster {path_text(roster)} has the byte 0x81 at line 2, which is neither UTF-8 nor "
        "Windows-1252 (Latin-1): save it as CSV UTF-8"
    )


def test_a_file_that_is_not_text_is_refused_with_how_to_save_it(tmp_path):
    workbook = tmp_path / "class.xlsx"
    workbook.write_bytes(b"PK\x03\x04\x14\x00\x06\x00")
    with pytest.raises(
        hub.RosterError, match="holds a NUL byte at line 1, so it is not text: save it as CSV UTF-8"
    ):
        hub.read_roster(workbook)


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        ("folder", "is a folder: give the path of the class's CSV file in it"),
        ("pipe", "is not a plain file: give the path of the class's CSV file"),
        ("large", "has 1000001 bytes, more than a roster's 1000000"),
    ],
)
def test_a_roster_path_that_is_no_csv_file_is_refused_at_once(tmp_path, kind, said):
    path = tmp_path / "roster"
    if kind == "folder":
        path.mkdir()
    elif kind == "pipe":
        os.mkfifo(path)  # opening it would wait for a writer forever
    else:
        path.write_bytes(b"#" * (hub.rosters.LARGEST_ROSTER + 1))
    with pytest.raises(hub.RosterError, match=said):
        hub.read_roster(path)


@pytest.mark.parametrize(
    ("path", "error", "said"),
    [
        (None, TypeError, r"the roster must be a path, like '/srv/class.csv'; got None \(nothing\)"),
        (b"class.csv", TypeError, "got b'class.csv' \\(bytes, not text\\): write 'class.csv', without the b"),
        ("", hub.RosterError, "not empty and without NUL characters; got ''"),
        ("class\x00.csv", hub.RosterError, r"without NUL characters; got 'class\\x00.csv'"),
    ],
)
def test_a_roster_path_of_the_wrong_kind_or_value_is_refused(path, error, said):
    with pytest.raises(error, match=said):
        hub.read_roster(path)


def test_a_very_long_line_is_refused_not_handed_to_csv():
    with pytest.raises(
        hub.RosterError, match="line 2: expected 'username,role', got a line of 200000 characters"
    ):
        hub.parse_roster("t,teacher\n" + "a" * 200_000)


def test_the_role_is_read_in_any_case():
    assert hub.parse_roster("t,Teacher\nana,STUDENT") == {"t": "teacher", "ana": "student"}


def test_root_is_refused_as_the_teacher():
    with pytest.raises(hub.RosterError, match="line 1: 'root' is a system account, not a person"):
        hub.parse_roster("root,teacher\nana,student")


@pytest.mark.parametrize("account", sorted(hub.ACCOUNTS))
def test_every_fixed_system_account_is_refused(account):
    with pytest.raises(hub.RosterError, match=f"'{account}' is a system account"):
        hub.parse_roster(f"t,teacher\n{account},student")


def test_an_account_of_this_machine_in_the_system_range_is_refused(monkeypatch):
    import pwd

    uids = {"postgres": 101, "ana": 1001, "guest": 65534}

    def getpwnam(name):
        if name not in uids:
            raise KeyError(name)
        return pwd.struct_passwd((name, "x", uids[name], uids[name], "", "/", "/bin/sh"))

    monkeypatch.setattr(pwd, "getpwnam", getpwnam)
    assert hub.parse_roster("t,teacher\nana,student") == {"t": "teacher", "ana": "student"}
    for name in ["postgres", "guest"]:
        with pytest.raises(hub.RosterError, match=f"line 2: '{name}' is a system account, not a person"):
            hub.parse_roster(f"t,teacher\n{name},student")


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("ana\x00", r"'ana\\x00', which holds U\+0000 \(a control character\)"),
        ("\u202eana", r"'\\u202eana', which holds U\+202E \(an invisible formatting character\)"),
        ("an\u200ba", r"which holds U\+200B \(an invisible formatting character\)"),
        ("\x01\x02", r"which holds U\+0001 \(a control character\)"),
        ("\x1b[31m", r"which holds U\+001B \(a control character\)"),
    ],
)
def test_a_name_with_characters_nobody_sees_is_refused_and_the_character_named(name, said):
    with pytest.raises(
        hub.RosterError, match=rf"^the roster, line 2: the user name must be text a reader can see.*{said}"
    ):
        hub.parse_roster(f"t,teacher\n{name},student")


def test_missing_users_takes_a_roster_and_refuses_what_is_not_a_list_of_names():
    assert hub.missing_users({"root": "teacher", "no-such-user-here": "student"}) == ["no-such-user-here"]
    assert hub.missing_users(name for name in ["root"]) == []
    with pytest.raises(TypeError, match=r"got None \(nothing\)"):
        hub.missing_users(None)
    with pytest.raises(TypeError, match=r"like \['ana', 'ben'\]; got b'root' \(bytes, not text\)$"):
        hub.missing_users(b"root")
    with pytest.raises(TypeError, match=r"name 2 is 3 \(a number\)"):
        hub.missing_users(["root", 3])
    with pytest.raises(ValueError, match=r"name 1, 'ana\\x00', is not one"):
        hub.missing_users(["ana\x00"])


def test_missing_users_answers_an_endless_list_at_once():
    import itertools

    with pytest.raises(ValueError, match="at most 100000; got more, starting"):
        hub.missing_users(f"user{n}" for n in itertools.count())


def _tree(root: Path) -> list[tuple]:
    return [
        (str(path.relative_to(root)), path.lstat().st_mode, path.is_file() and path.read_bytes())
        for path in [root, *sorted(root.rglob("*"))]
    ]


@pytest.mark.parametrize(
    ("case", "said"),
    [
        ("no repository", r"the repository '.*no-repo' has no folder lessons/ to copy into"),
        ("no exercises", r"the repository '.*repo' has no folder exercises/ to copy into"),
        ("home is a file", r"the home '.*teacher' is not a folder: give the user's home folder"),
        ("no home", r"the home '.*teacher' does not exist"),
        ("home inside the lessons", r"the home '.*teacher' is inside '.*lessons', which is copied into it"),
        ("owner", r"owner's uid must be at least 0; got -1"),
    ],
)
def test_a_refused_home_leaves_the_folder_tree_as_it_was(tmp_path, case, said):
    repository = _repository(tmp_path)
    home = tmp_path / "teacher"
    home.mkdir(mode=0o755)
    home.chmod(0o755)
    owner = None
    if case == "no repository":
        repository = tmp_path / "no-repo"
    elif case == "no exercises":
        import shutil

        shutil.rmtree(repository / "exercises")
    elif case == "home is a file":
        home.rmdir()
        home.write_text("not a folder")
    elif case == "no home":
        home.rmdir()
    elif case == "home inside the lessons":
        home.rmdir()
        home = repository / "lessons" / "teacher"
        home.mkdir()
    elif case == "owner":
        owner = (-1, -1)
    before = _tree(tmp_path)
    with pytest.raises(ValueError, match=said):
        hub.prepare_home(home, hub.TEACHER, repository, owner=owner)
    assert _tree(tmp_path) == before


def test_a_copy_that_fails_half_way_is_removed_and_the_home_keeps_its_mode(tmp_path, monkeypatch):
    import shutil

    repository = _repository(tmp_path)
    home = tmp_path / "teacher"
    home.mkdir(mode=0o755)
    home.chmod(0o755)
    copy = shutil.copytree

    def fails_on_the_course(source, target, *args, **options):
        copied = copy(source, target, *args, **options)
        if Path(target).name == hub.COURSE_FOLDER:
            raise OSError(28, "No space left on device")
        return copied

    monkeypatch.setattr(shutil, "copytree", fails_on_the_course)
    before = _tree(tmp_path)
    with pytest.raises(
        ValueError, match="could not be prepared, so it is left as it was: No space left on device"
    ):
        hub.prepare_home(home, hub.TEACHER, repository)
    assert _tree(tmp_path) == before


@pytest.mark.parametrize(
    ("owner", "error", "said"),
    [
        ("1000", TypeError, r"owner must be \(uid, gid\), two whole numbers like \(1000, 1000\), or None"),
        ((1000,), ValueError, r"or None; got \(1000,\)"),
        ((1000.0, 1000), TypeError, "owner's uid must be a whole number like 1000; got 1000.0"),
        ((2**32 - 1, 0), ValueError, "below 4294967295"),
    ],
)
def test_an_owner_that_is_no_uid_and_gid_is_refused(tmp_path, owner, error, said):
    home = tmp_path / "ana"
    home.mkdir()
    with pytest.raises(error, match=said):
        hub.prepare_home(home, hub.STUDENT, _repository(tmp_path), owner=owner)
    assert list(home.iterdir()) == []


def test_an_exchange_where_a_file_stands_is_refused_and_nothing_is_made(tmp_path):
    (tmp_path / "x").write_text("")
    for path in [tmp_path / "x", tmp_path / "x" / "srv" / "exchange"]:
        before = _tree(tmp_path)
        with pytest.raises(
            ValueError, match=r"cannot be made: '.*/x' is a file, not a folder; give the path"
        ):
            hub.make_exchange(path)
        assert _tree(tmp_path) == before


def test_an_exchange_that_cannot_be_made_leaves_no_parent_behind(tmp_path, monkeypatch):
    mkdir = Path.mkdir

    def full_disk(self, *args, **options):
        if self.name == "exchange":
            raise OSError(28, "No space left on device")
        return mkdir(self, *args, **options)

    monkeypatch.setattr(Path, "mkdir", full_disk)
    before = _tree(tmp_path)
    with pytest.raises(
        ValueError, match=r"^the exchange '.*/srv/nbgrader/exchange' cannot be made: No space left"
    ):
        hub.make_exchange(tmp_path / "srv" / "nbgrader" / "exchange")
    assert _tree(tmp_path) == before


def test_a_path_with_a_name_longer_than_linux_allows_is_refused(tmp_path):
    with pytest.raises(ValueError, match="each name in it at most 255 bytes long"):
        hub.make_exchange(tmp_path / ("x" * 300))
    with pytest.raises(hub.RosterError, match="each name in it at most 255 bytes long"):
        hub.read_roster(tmp_path / ("x" * 300))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("path", "error"),
    [(None, TypeError), (b"/srv/exchange", TypeError), ("", ValueError), ("/srv\x00", ValueError)],
)
def test_an_exchange_path_of_the_wrong_kind_or_value_is_refused(path, error):
    with pytest.raises(error, match=r"^the exchange must be a path, like '/srv/nbgrader/exchange'"):
        hub.make_exchange(path)


def test_the_runtime_folder_is_in_the_home_and_a_kernels_socket_fits_for_any_username():
    """A kernel's socket file path holds at most 107 bytes: a 32-character name (useradd's longest)
    fits in /home, and a home too long to start a kernel is refused in one sentence."""
    import socket
    import tempfile

    assert hub.runtime_folder("/home/" + "n" * 32) == "/home/" + "n" * 32 + "/.jupyter-run"
    longest = "kernel-00000000-0000-0000-0000-000000000000-ipc-5"  # jupyter_client's longest name
    top = Path(tempfile.mkdtemp(dir="/tmp", prefix="h"))  # short: tmp_path is too long to test with
    try:
        for size in (44, 45):  # the longest home that works, and one byte more
            home = top / ("h" * (size - len(str(top)) - 1))
            assert len(str(home)) == size
            (home / ".jupyter-run").mkdir(parents=True)
            with socket.socket(socket.AF_UNIX) as unix:
                if size == 44:
                    unix.bind(str(Path(hub.runtime_folder(home)) / longest))  # the kernel's socket binds
                    continue
                with pytest.raises(OSError):
                    unix.bind(str(home / ".jupyter-run" / longest))
            with pytest.raises(
                ValueError, match=r"^runtime_folder\(\): the home '/tmp/h.*' is too long .* 44 bytes"
            ):
                hub.runtime_folder(home)
    finally:
        shutil.rmtree(top)
    with pytest.raises(TypeError, match=r"runtime_folder\(\) needs a home folder"):
        hub.runtime_folder(None)


@pytest.mark.nbgrader  # nbgrader's Validator: not installed where the other Pythons run the core's tests
def test_a_students_validate_runs_its_kernel_over_socket_files_in_her_runtime_folder(tmp_path, monkeypatch):
    """nbgrader's Validate (the Assignments tab), configured as on the hub's student servers, starts
    its kernel with setwidgets.hub.kernels: socket files in the private runtime folder, not TCP."""
    import json

    import nbformat
    from jupyter_core.paths import jupyter_config_path
    from nbgrader.apps import NbGrader
    from nbgrader.validator import Validator

    monkeypatch.setenv(
        "JUPYTER_CONFIG_PATH", str(Path(hub.__file__).parents[2] / "deploy" / "jupyter" / "student")
    )
    monkeypatch.setenv("SETWIDGETS_EXCHANGE", str(tmp_path / "exchange"))
    import tempfile

    run = (
        Path(tempfile.mkdtemp(dir="/tmp", prefix="r")) / "run"
    )  # short: a socket's path is at most 107 bytes
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(run))
    monkeypatch.chdir(tmp_path)  # her server's folder: nbgrader also reads a configuration there
    notebook = tmp_path / "answers.ipynb"
    said = tmp_path / "connection.json"
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    code = (
        f"from ipykernel.connect import get_connection_info as info\nopen({str(said)!r}, 'w').write(info())"
    )
    nb.cells.append(nbformat.v4.new_code_cell(code))
    nbformat.write(nb, notebook)
    # The configuration as nbgrader's validate handler reads it (its load_config).
    app = NbGrader()
    app.config_file_paths.append(jupyter_config_path())
    app.load_config_file()

    Validator(config=app.config).validate(str(notebook))

    connection = json.loads(said.read_text())
    assert connection["transport"] == "ipc", connection
    assert Path(connection["ip"]).parent == run, connection
    assert stat.S_IMODE(run.stat().st_mode) == 0o700
    shutil.rmtree(run.parent)
