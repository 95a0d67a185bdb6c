"""Grading the course's exercises with nbgrader: a sandbox, sturdy execution, a report, discreet feedback.

This package is for the teacher's side and uses nbgrader and jupyter_client; the core of
setwidgets never imports it. ``exercises/nbgrader_config.py`` puts it to work:

- :mod:`setwidgets.grading.judge` and :mod:`setwidgets.grading.compute`: graded tests judged
  outside the student's kernel, which only computes the answers (each exercise's tests live in
  ``source/<assignment>/hidden_tests.py``);
- :mod:`setwidgets.grading.hide`: the package's own answers to an exercise, absent from its
  grading kernel;
- :mod:`setwidgets.grading.submissions`: submissions taken as regular files, their nbgrader
  metadata restored from the gradebook;
- :mod:`setwidgets.grading.sanitize`: outputs made inert before a teacher's page shows them;
- :mod:`setwidgets.grading.sandbox`: grading kernels run in a bubblewrap sandbox, and
  ``autograde`` stops at once when no kernel could start there;
- :mod:`setwidgets.grading.cgroup`: the memory of all a grading kernel's processes together;
- :mod:`setwidgets.grading.preprocessors`: a cell that kills the kernel fails on its own, a
  notebook has a time budget, and the feedback shows whether each hidden test passed and why
  not, without its code;
- :mod:`setwidgets.grading.watch`: the kernel's side of a question autograde asks around each
  test: did any of the student's code run in it?
- :mod:`setwidgets.grading.referee`: the visible tests' referee, which keeps the package's own
  answers out of reach of a student's function while it runs;
- :mod:`setwidgets.grading.report`: the submissions a teacher should look at, cell by cell.
"""
