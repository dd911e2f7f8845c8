"""The story bank: STAR stories beside the one-pager, the pack's common questions mapped to
them, their use on the card, the topics expected per round and the debrief after it."""

import sqlite3

#: what a read or write of the story tables can raise (a locked, read-only or older
#: journal); the UI catches this name instead of importing sqlite3 itself
DatabaseError = sqlite3.Error
