"""Class insight: what a class gets wrong, named in SET's own words.

After ``nbgrader autograde``, ``python3 course.py insight ASSIGNMENT`` reads the cases each
student's functions got wrong (kept by the judge beside the gradebook:
:mod:`setwidgets.grading.insight_cases`), names the misconception behind each (a catalogue of rules
per exercise: :mod:`.catalogue`, :mod:`.exercises`, :mod:`.unit1`), and writes one HTML page and a
CSV (:mod:`.page`): the misconceptions ranked by how many students show them, each with its cards
drawn, the magic rule's sentence and the lesson to revisit; a students-by-tests heatmap and each
test's score distribution. The teacher's copy names the students; the anonymous copy, to project,
names none. :mod:`.widget` shows the same page in a notebook; :mod:`.progress` autogrades with a
progress bar.

The grader, while it grades, writes the kept cases through :mod:`setwidgets.grading.insight_cases`,
outside this package, which imports the page's parts (the sanitiser, matplotlib) that grading
does not need.
"""
