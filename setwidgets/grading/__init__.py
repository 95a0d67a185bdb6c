"""Grading the course's exercises with nbgrader: a sandbox, sturdy execution, a report, discreet feedback.

This package is for the teacher's side and uses nbgrader and jupyter_client; the core of
setwidgets never imports it. ``exercises/nbgrader_config.py`` puts it to work:

- :mod:`setwidgets.grading.judge` and :mod:`setwidgets.grading.compute`: graded tests judged
  outside the student's kernel, which only computes the answers (each exercise's tests live in
  ``source/<assignment>/hidden_tests.py``);
- :mod:`setwidgets.grading.handout`: the package as a grading kernel sees it, exactly what the
  exercise hands out (an allow-list), with :mod:`setwidgets.grading.stand_ins` for the checks and
  the referee; :mod:`setwidgets.grading.hide`: functions emptied of their code all the same;
- :mod:`setwidgets.grading.route`: the grader's own way into the kernel, a message type no
  notebook name shadows, its replies bounded before they are read;
- :mod:`setwidgets.grading.submissions`: submissions taken as regular files, their nbgrader
  metadata restored from the gradebook;
- :mod:`setwidgets.grading.sanitize`: outputs made inert before a teacher's page shows them;
- :mod:`setwidgets.grading.sandbox`: grading kernels run in a bubblewrap sandbox (what it shows of
  the machine: :mod:`setwidgets.grading.mounts`), and ``autograde`` and ``validate`` refuse when no
  sandbox can be made;
- :mod:`setwidgets.grading.cgroup`: the memory of all a grading kernel's processes together;
- :mod:`setwidgets.grading.preprocessors`: a cell that kills the kernel fails on its own, a
  notebook has a time budget, and the feedback shows whether each hidden test passed and why
  not, without its code;
- :mod:`setwidgets.grading.watch`: the kernel's side of a question autograde asks around each
  test: did any of the student's code run in it?
- :mod:`setwidgets.grading.referee`: the visible tests' referee, which keeps the package's own
  answers out of reach of a student's function while it runs;
- :mod:`setwidgets.grading.report`: the submissions a teacher should look at, cell by cell;
- :mod:`setwidgets.grading.export`: grades for a spreadsheet, one row per student.
"""
