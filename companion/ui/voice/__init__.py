"""Microphone features on the Qt side: the listener, the cue card's silence nudge and
the mic check. QtMultimedia is imported only inside these modules, never at start-up.

Importing any of them first silences QtMultimedia's "Using Qt multimedia with FFmpeg
version ..." line, which it prints on stderr at every first audio start: the app's
stderr stays for real problems."""

from PySide6.QtCore import QLoggingCategory

QLoggingCategory.setFilterRules("qt.multimedia.ffmpeg.info=false")
