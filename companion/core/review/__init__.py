"""Spaced review with FSRS (py-fsrs): every quiz question and every study-list topic is a
card; no interval runs past the next loop's first round.

``cards`` stores cards and their review log (the card is a function of its log),
``deadline`` caps intervals at the loop, ``topics`` turns flubs, weak topics and study
marks into reviews, ``queue`` lists what to review, ``transfer`` carries it in the
journal's JSON export. py-fsrs is imported only when a card is scheduled.
"""
