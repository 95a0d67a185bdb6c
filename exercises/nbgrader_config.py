"""nbgrader configuration for the setwidgets course; run every nbgrader command from this folder.

The course root is this folder, wherever the repository lives: source/, release/,
submitted/, autograded/, feedback/ and the SQLite gradebook gradebook.db all sit
beside this file. See README.md here for the teacher's command sequence.
"""

import os
from pathlib import Path

c = get_config()  # noqa: F821 - provided by nbgrader when it reads this file

COURSE_ROOT = Path(__file__).resolve().parent

c.CourseDirectory.course_id = "setwidgets"
c.CourseDirectory.root = str(COURSE_ROOT)
c.CourseDirectory.db_url = f"sqlite:///{COURSE_ROOT / 'gradebook.db'}"
# Each assignment's graded tests, judged outside the student's kernel, live beside its source
# notebook in hidden_tests.py (setwidgets/grading/judge.py): never released to the students.
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", "hidden_tests.py"]

# Where release_assignment puts the student copies and students submit. On one shared
# machine or JupyterHub, point SETWIDGETS_EXCHANGE at a folder every student can write
# to, for example /usr/local/share/nbgrader/exchange (nbgrader's own default, so the
# students need no configuration). Without it, everything stays inside the course.
COURSE_EXCHANGE = COURSE_ROOT / "exchange"
c.Exchange.root = os.environ.get("SETWIDGETS_EXCHANGE") or str(COURSE_EXCHANGE)

# The Formgrader and the Assignment List only look into the exchange: when the folder is
# missing they say it "does not exist and could not be created" and turn off Release and
# Collect. Only release_assignment creates it, and .gitignore keeps it out of a fresh clone,
# so the course's own exchange is made here. The mode is the one release_assignment gives
# it (0o777; it warns and changes any other), plus the sticky bit, as on /tmp: then only
# an entry's owner may delete or rename it. A shared exchange is left to whoever set it up,
# and a read-only course gets nbgrader's own message.
if c.Exchange.root == str(COURSE_EXCHANGE) and not COURSE_EXCHANGE.is_dir():
    try:
        COURSE_EXCHANGE.mkdir()
        COURSE_EXCHANGE.chmod(0o1777)  # after mkdir, because mkdir's mode goes through the umask
    except OSError:
        pass

# Every exercise cell runs in well under a second; 30 s per cell stops a loop that
# never ends without cutting off a slow but correct answer.
c.ExecutePreprocessor.timeout = 30

# zip_collect: notebooks downloaded from a learning platform, named <student id>_<notebook>,
# for example ana_magic_rule.ipynb, go in downloaded/<assignment>/archive/ (zip files too).
c.FileNameCollectorPlugin.named_regexp = r".*/(?P<student_id>[A-Za-z0-9.-]+)_(?P<file_id>[a-z0-9_]+\.ipynb)$"

# -- grades a teacher can trust (see "Sandbox, report and feedback" in README.md) -------------
# Autograde and validate run each notebook in a sandbox (setwidgets/grading/sandbox.py):
# an allow-list of the machine's files, read-only, with the package as the exercise hands it out
# (its hidden_tests.py says what), no network, source/, the gradebook, the other students and the
# exchange out of sight, limits on memory, CPU time and processes, and nothing left running
# afterwards. A cell that kills the kernel or ignores the interrupt fails on its own: the rest of the notebook
# is graded in a fresh kernel. Without bubblewrap, autograde and validate refuse in one sentence
# (no sandbox, no grade); c.SandboxedKernelManager.sandbox = False grades without it, said in the log.
#
# Fail closed: nbgrader carries on with its defaults (no sandbox, no flags) when a configuration file
# raises, and only logs it. So if the course's grading parts cannot be imported (a missing
# dependency, say), this file does not raise: it sets autograde and validate to refuse, with one
# sentence, and nothing of a notebook runs.
import sys  # noqa: E402


def _refuse_to_grade(error: BaseException) -> None:
    why = (
        f"The course's grading setup (setwidgets.grading) could not be imported ({type(error).__name__}: "
        f"{str(error)[:200]}): nbgrader refuses to grade or validate without it. Set up the course's "
        "environment ('python3 course.py lab', or pip install 'setwidgets[course]') and run this again."
    )
    print(why, file=sys.stderr)

    def refuse(**_):
        raise SystemExit(why)

    c.Autograde.pre_convert_hook = refuse
    # validate (and any other nbgrader command that runs a notebook) asks for a kernel that does not exist.
    c.ExecutePreprocessor.kernel_name = "no-kernel-the-course-grading-setup-could-not-load"
    c.Execute.kernel_name = "no-kernel-the-course-grading-setup-could-not-load"


try:
    from nbconvert.preprocessors import CSSHTMLHeaderPreprocessor
    from nbgrader.converters.autograde import Autograde
    from nbgrader.preprocessors import Execute, GetGrades

    from setwidgets.grading.export import SpreadsheetExport
    from setwidgets.grading.inert import InertLogFormatter
    from setwidgets.grading.mounts import checkout_folders
    from setwidgets.grading.preprocessors import GradingExecute, HideHiddenTests, WrapFeedbackLines
    from setwidgets.grading.report import DropTeacherNotes, FlagSuspiciousCells
    from setwidgets.grading.sandbox import SandboxedKernelManager, preflight
    from setwidgets.grading.sanitize import InertOutputs
    from setwidgets.grading.submissions import RefuseLinks, RestoreMetadata, SafeCollect
except Exception as error:  # noqa: BLE001 - whatever stops the import, nothing is graded without it
    _refuse_to_grade(error)
else:
    # Last, the submission is made inert (setwidgets/grading/sanitize.py): the Formgrader and the feedback
    # show the autograded notebook as HTML, and a student's script must not run in those pages.
    # Submissions are taken as regular files only (setwidgets/grading/submissions.py): nbgrader copies
    # them as you, outside the sandbox, and a symbolic link would hand over what it points to. Then each
    # cell's nbgrader metadata is restored from the gradebook, before nbgrader checks it.
    c.ExchangeFactory.collect = SafeCollect
    # collect believes the exchange, not the names students write: a folder counts for a student only
    # if that student's own account owns it, its time is the exchange's (the latest change time of the
    # folder and the student's files), and a folder it cannot take is skipped with one line. On the
    # course's own exchange (one account plays every part), a folder of yours also counts for a student
    # id that is no account here; on a shared exchange (SETWIDGETS_EXCHANGE) only the student's own does.
    c.SafeCollect.single_user = c.Exchange.root == str(COURSE_EXCHANGE)
    c.Autograde.sanitize_preprocessors = [
        RefuseLinks,
        RestoreMetadata,
        *Autograde.sanitize_preprocessors.default(),
    ]
    c.Autograde.autograde_preprocessors = [
        GradingExecute if step is Execute else step for step in Autograde.autograde_preprocessors.default()
    ] + [FlagSuspiciousCells, InertOutputs]
    # nbgrader validate (yours, and the Validate buttons of the Formgrader and the Assignment List
    # when they read this file) runs nbgrader's own Execute: its kernels get the same sandbox, in a
    # copy of the notebook's folder. A student's own configuration leaves validate as nbgrader has it.
    c.Execute.kernel_manager_class = SandboxedKernelManager
    c.SandboxedKernelManager.sandbox = True
    # Hidden from the kernel: the course (solutions, hidden tests, the gradebook, other students), the
    # exchange, and the project's other folders when the package runs from its checkout (tests and
    # lessons hold right answers).
    c.SandboxedKernelManager.hidden = [str(COURSE_ROOT), c.Exchange.root, *checkout_folders()]
    c.SandboxedKernelManager.memory = 2 * 2**30  # bytes of address space per notebook
    c.SandboxedKernelManager.cpu_seconds = 600  # CPU seconds per kernel
    c.SandboxedKernelManager.processes = 512  # processes and threads
    c.SandboxedKernelManager.memory_total = (
        4 * 2**30
    )  # bytes of all a notebook's processes together (as root)
    c.GradingExecute.notebook_seconds = 300  # for a whole notebook; then its remaining tests score 0
    # Grading as root, kernels run as 'nobody': if nobody cannot start this Python, autograde stops
    # before the first submission and says what to change, instead of a dead kernel per student.
    c.Autograde.pre_convert_hook = preflight

    # Feedback: each hidden test shows whether it passed and its failure message, not its code.
    # Set this to False to hand out the hidden tests' code in the feedback, as nbgrader does.
    HIDE_HIDDEN_TESTS_IN_FEEDBACK = True
    c.GenerateFeedback.preprocessors = [
        InertOutputs,  # for notebooks autograded before it ran in autograde
        GetGrades,
        DropTeacherNotes,  # the flags' note in a comment is the teacher's, not the student's
        HideHiddenTests,
        CSSHTMLHeaderPreprocessor,
        WrapFeedbackLines,
    ]
    c.HideHiddenTests.enabled = HIDE_HIDDEN_TESTS_IN_FEEDBACK

    # Export: nbgrader's grades.csv, and grades_by_student.csv for a spreadsheet (UTF-8 with a byte-order
    # mark, one row per student, each assignment's score, maximum, time and status: pending manual grades
    # and unreadable notebooks are marked, never shown as a plain score). See setwidgets/grading/export.py.
    c.ExportApp.plugin_class = SpreadsheetExport

    # nbgrader's log quotes what students wrote (a file name it skips, an error's message): each line is
    # printed inert, control characters and terminal escapes shown as escapes (setwidgets/grading/report.py).
    c.Application.logging_config = {
        "formatters": {"console": {"class": f"{InertLogFormatter.__module__}.{InertLogFormatter.__name__}"}}
    }
