"""Stand-ins for parts of the package while a notebook is graded (:mod:`setwidgets.grading.handout`).

The files here are the source that a grading kernel runs in place of a module of the package:
``checks.py`` for :mod:`setwidgets.checks`, ``referee.py`` for :mod:`setwidgets.grading.referee`.
They are not meant to be imported from here.
"""
