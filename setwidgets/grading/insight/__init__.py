"""Class insight: what a class gets wrong, named in SET's own words.

After ``nbgrader autograde``, ``python3 course.py insight ASSIGNMENT`` reads the cases each student's
functions got wrong (kept by the judge beside the gradebook: :mod:`.cases`), names the misconception
behind each (a catalogue of rules per exercise: :mod:`.catalogue`), and writes one HTML page and a
CSV (:mod:`.page`): the misconceptions ranked by how many students show them, each with its cards
drawn, the magic rule's sentence and the lesson to revisit; a students-by-tests heatmap and each
test's score distribution. The teacher's copy names the students; the anonymous copy, to project,
names none.

This package's own modules import what they need; importing it costs nothing (the grader imports
:mod:`.cases` while it grades).
"""
