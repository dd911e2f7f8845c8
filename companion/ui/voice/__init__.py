"""Microphone features on the Qt side: the listener, the cue card's silence nudge and
the mic check. QtMultimedia is imported only inside these modules, never at start-up.

Importing any of them first silences QtMultimedia's "Using Qt multimedia with FFmpeg
version ..." line, which it prints on stderr at every first audio start, and keeps Qt's
own PulseAudio lines ("PulseAudioService: pa_context_connect() failed") off stderr for
every feature that opens a microphone, not only `companion mic` (the card's silence
nudge printed it): the app's stderr stays for real problems."""

from PySide6.QtCore import QLoggingCategory

from companion.ui.voice.listener import quiet_pulse_messages

QLoggingCategory.setFilterRules("qt.multimedia.ffmpeg.info=false")
quiet_pulse_messages()
