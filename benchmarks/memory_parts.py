"""Where a process's resident memory is, by part: /proc/self/smaps' resident KiB summed
over each mapping's file name, grouped into the parts that pitch following adds to the
card (benchmarks/bench_voice.py's memory row says which part grew by how much).

Linux only; elsewhere every part reads 0.
"""

from __future__ import annotations

import os
from collections import Counter

# (part, what its mappings' names start with); the first part that matches wins
PARTS = (
    (
        # the FFmpeg plugin and what it links: QtQuick and QML, the FFmpeg libraries and,
        # through FFmpeg's stubs, OpenSSL and VA-API
        "FFmpeg media backend",
        ("libffmpegmediaplugin", "libav", "libsw", "libQt6FFmpegStub", "libQt6Quick",
         "libQt6Qml", "libQt6OpenGL", "libssl", "libcrypto", "libva", "libdrm", "libEGL",
         "libGL", "libX"),
    ),
    (
        "QtMultimedia's import",
        ("libQt6Multimedia", "QtMultimedia.", "libQt6Network", "QtNetwork.", "libkrb5",
         "libk5crypto", "libgssapi", "libpipewire"),
    ),
    (
        # the client library, its sound-file dependencies and the stream's shared memory
        "PulseAudio",
        ("libpulse", "memfd:pulseaudio", "libsndfile", "libFLAC", "libvorbis", "libogg",
         "libopus", "libmp3lame", "libmpg123", "libasyncns"),
    ),
    (
        "recognizer's library and model files",
        ("_pocketsphinx", "mdef", "sendump", "means", "variances", "transition_matrices"),
    ),
    ("heap and anonymous memory", ("[heap]", "[anon]")),
)  # fmt: skip
OTHER = "other"


def part_of(name: str) -> str:
    for part, prefixes in PARTS:
        if name.startswith(prefixes):
            return part
    return OTHER


def parse(text: str) -> dict[str, int]:
    """Resident KiB by part, from the text of a /proc/<pid>/smaps."""
    out: Counter[str] = Counter()
    part = OTHER
    for line in text.splitlines():
        fields = line.split()
        if not fields:
            continue
        if fields[0].endswith(":"):
            if fields[0] == "Rss:":
                out[part] += int(fields[1])
            continue
        # a mapping's header: address perms offset dev inode [name]
        name = os.path.basename(fields[5]) if len(fields) > 5 else "[anon]"
        part = part_of(name)
    return dict(out)


def resident() -> dict[str, int]:
    """This process's resident KiB by part now."""
    try:
        with open("/proc/self/smaps", encoding="utf-8", errors="replace") as smaps:
            return parse(smaps.read())
    except OSError:
        return {}


def growth(before: dict[str, int], after: dict[str, int]) -> dict[str, float]:
    """MiB each part grew by (negative: shrank)."""
    return {p: (after.get(p, 0) - before.get(p, 0)) / 1024 for p in {*before, *after}}


def added(on: dict[str, float], base: dict[str, float]) -> str:
    """What ``on``'s growth adds to ``base``'s, largest part first, as one line."""
    rows = sorted(((on.get(p, 0.0) - base.get(p, 0.0), p) for p in {*on, *base}), reverse=True)
    return ", ".join(f"{part} {mib:+.1f}" for mib, part in rows if abs(mib) >= 0.05)
