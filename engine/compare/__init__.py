"""Comparison of two configurations as a decision procedure, and whether an eval can tell.

``load`` reads graded runs (through the reader ``referee report`` uses); ``rubric``
scores each run from the rules, ``blind`` hides which side is which, ``pairs``
pairs and decides them (``winner``), ``signtest`` decides across evals, and
``documents`` writes it all (``procedure`` runs the whole, ``holistic`` is the
contract with a model). ``analysis`` explains the result from ``facts``,
``patterns`` and the skill's text (``skilltext``); ``validity`` asks whether each
eval can tell; ``regress`` and ``diffing`` find regressions between two graded
states; ``reasons`` brings all of it into ``aggregate``'s release decision.
"""
