"""When the day's two early phases begin: the night-before list opens in the evening
before a loop's first round, the morning-of list in its morning.

The day model's rules (:class:`companion.core.day.view_types.DayRules`) and the review
deadline (:mod:`companion.core.review.deadline`, a review lands no later than these) both
read them here, below both: the review package sits under storage, whose first review
migration replays old reviews through it, and storage sits under the day.
"""

from __future__ import annotations

import datetime as dt

EVENING_FROM = dt.time(17, 0)
MORNING_FROM = dt.time(5, 0)
