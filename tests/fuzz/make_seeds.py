"""Writes the seed corpus ``corpus/<target>/``: small real-shaped inputs for each door.
Run once when a door changes shape (`python tests/fuzz/make_seeds.py`); the files are
committed, and the fuzzer's own finds stay in ``.work/``."""

from __future__ import annotations

import io
import json
import math
import wave
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus"


def journal() -> dict[str, bytes]:
    loop = {
        "company": "Acme",
        "role": "SRE",
        "starts_on": "2026-12-01",
        "ends_on": "2026-12-02",
        "status": "active",
        "notes": "bring ID",
        "created_at": "2026-11-20T10:00:00+00:00",
        "rounds": [
            {
                "ref": 1,
                "type": "coding",
                "interviewer_role": "peer",
                "interviewer_name": "Sam",
                "scheduled_at": "2026-12-01T10:00:00+00:00",
                "started_at": "2026-12-01T10:02:00+00:00",
                "ended_at": "2026-12-01T10:47:00+00:00",
                "notes": "graphs",
            },
            {"ref": 2, "type": "design", "scheduled_at": "2026-12-01T13:00:00+01:00"},
        ],
        "asked": [
            {
                "round": 1,
                "question": "LRU cache",
                "topic": "caching",
                "created_at": "2026-12-01T10:10:00+00:00",
            }
        ],
        "flubs": [
            {
                "round": 1,
                "topic": "heaps",
                "detail": "forgot sift-down",
                "severity": 2,
                "created_at": "2026-12-01T10:20:00+00:00",
                "studied_at": None,
            }
        ],
        "went_well": [{"round": None, "text": "clear plan", "created_at": "2026-12-01T11:00:00Z"}],
        "weak_topics": [
            {"round": 2, "topic": "sharding", "note": "", "created_at": None, "studied_at": None}
        ],
        "asked_them": [
            {
                "round": 1,
                "text": "What does on-call look like?",
                "audience": "peer",
                "asked_at": "2026-12-01T10:45:00+00:00",
            }
        ],
        "thank_you": {"to_whom": "Sam", "draft": "Thanks!", "sent_at": None},
    }
    doc = {
        "format": "interview-companion-journal",
        "version": 1,
        "exported_at": "2026-12-01T12:00:00+00:00",
        "loops": [loop],
        "unfiled": {
            "rounds": [],
            "asked": [],
            "flubs": [],
            "went_well": [],
            "weak_topics": [],
            "asked_them": [],
        },
        "study_marks": [
            {
                "topic_key": "heaps",
                "topic": "Heaps",
                "source": "flub",
                "studied_at": "2026-12-01T20:00:00+00:00",
            }
        ],
    }
    empty = {"format": "interview-companion-journal", "version": 1, "loops": []}
    return {
        "full.json": json.dumps(doc, indent=1).encode(),
        "compact.json": json.dumps(doc, separators=(",", ":")).encode(),
        "empty.json": json.dumps(empty).encode(),
        "wrong-version.json": b'{"format": "interview-companion-journal", "version": 2}',
        "not-object.json": b"[1, 2, 3]",
    }


ICS = """BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//Example//Recruiting//EN\r
BEGIN:VTIMEZONE\r
TZID:Europe/Berlin\r
BEGIN:STANDARD\r
DTSTART:19701025T030000\r
TZOFFSETFROM:+0200\r
TZOFFSETTO:+0100\r
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r
END:STANDARD\r
END:VTIMEZONE\r
BEGIN:VEVENT\r
UID:1@example.com\r
DTSTART;TZID=Europe/Berlin:20261201T100000\r
DTEND;TZID=Europe/Berlin:20261201T104500\r
SUMMARY:Acme - Coding interview with Sam (Engineer)\r
LOCATION:https://meet.example.com/abc\r
DESCRIPTION:Bring a laptop.\\nSecond line\r
END:VEVENT\r
BEGIN:VEVENT\r
UID:2@example.com\r
DTSTART:20261201T130000Z\r
DURATION:PT1H\r
SUMMARY:Acme - System design\r
URL:https://zoom.example.com/j/1\r
END:VEVENT\r
END:VCALENDAR\r
"""
ICS_ALLDAY = """BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:20261201
SUMMARY:Acme onsite\nEND:VEVENT\nBEGIN:VEVENT\nDTSTART;TZID="W. Europe Standard Time":2026
1202T090000\nDTEND:20261202T100000\nSUMMARY:Acme hiring manager\nEND:VEVENT\nEND:VCALENDAR\n"""

ONE_PAGER = """# About me

## Who I am {identity}
Infra engineer, 8 years running production systems, lately focused on *GPU scheduling*.

## Strongest evidence {evidence}
At 40,000 requests/s we hit cache stampedes; I owned the fix; p99 went from 900 ms to 120 ms.

- cut cost by 30%
- [design doc](https://example.com/doc)

> a quote

## Current depth {depth}
Lately:

1. queueing
2. admission control

## Why this role {why-role}
Your mandate fits.

## Hand back {hand-back}
What would success look like in six months?

| metric | before | after |
|---|---|---|
| p99 | 900 ms | 120 ms |

```
code block
```
"""

STORIES = """# My stories

## Story: The cache stampede
Tags: impact, ownership

### Situation
Traffic doubled before a launch.

### Task
Keep p99 under 200 ms.

**Action:** I added request coalescing and a jittered TTL.

Result: p99 fell from 900 ms to 120 ms, 30% fewer servers.

Differently: load-test earlier.

## Story: A disagreement about the schema
- Tags: conflict, influence
- Situation: two teams wanted different keys.
- Action: I wrote both up and we measured.
- Result: we shipped in 2 weeks.

## Story:
Tags: Bad Tag!!
"""


def _wav(seconds: float, rate: int, channels: int = 1, tone: bool = True) -> bytes:
    buf = io.BytesIO()
    with wave.open(buf, "wb") as wav:
        wav.setnchannels(channels)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        frames = bytearray()
        for n in range(int(seconds * rate)):
            speaking = tone and (n // (rate // 4)) % 3 != 2
            value = int(8000 * math.sin(n * 2 * math.pi * 220 / rate)) if speaking else 0
            frames += value.to_bytes(2, "little", signed=True) * channels
        wav.writeframes(bytes(frames))
    return buf.getvalue()


CONTENT = {
    "checklist.md": """---
id: my-night
kind: checklist
title: My night before
phase: night-before
order: 15
---
- Charge the laptop
- Print the schedule
  see: pitch
""",
    "rounds.md": """---
id: my-rounds
kind: rounds
title: My round types
order: 85
minutes: 50
---
- Bar raiser
  id: bar-raiser
  key: 7
  minutes: 60
  audience: leadership
""",
    "pitch.md": """---
id: my-pitch
kind: pitch
title: Short pitch
order: 21
target: 30-45
---
For {target} seconds.

- Who
  id: who
  seconds: 10
- What
  id: what
  seconds: 25
""",
    "quiz.md": """---
id: my-quiz
kind: quiz
title: Quick quiz
order: 61
---
- What is p99?
  answer: the 99th percentile latency
""",
    "broken.md": "---\nid: Bad Id\nkind: nope\n---\n- x\n",
}

PREFS = {
    "full.json": json.dumps(
        {
            "main.page": "today",
            "about.wpm": 150,
            "dnd.adapter": "dunst",
            "dnd.macos_on_shortcut": "Focus on",
            "dnd.macos_off_shortcut": "Focus off",
            "hotkeys": {"enabled": True, "bindings": {"next": "ctrl+alt+Right", "previous": ""}},
            "window.geometry": "AdnQywADAAAAAAA=",
            "journal.followed_loop": 3,
        },
        indent=1,
    ).encode(),
    "empty-object.json": b"{}",
    "hotkeys-off.json": b'{"hotkeys": {"enabled": false, "bindings": {"x": 1}}}',
    "damaged.json": b'{"main.page": "today",',
}

DND = {
    "gnome.json": json.dumps(
        {
            "adapter": "gnome",
            "prior": {"show_banners": True},
            "since": "2026-12-01T09:55:00+01:00",
            "holder": "app",
            "pid": 4242,
            "round_id": 3,
        }
    ).encode(),
    "mako.json": json.dumps(
        {
            "adapter": "mako",
            "prior": {"modes": ["default"]},
            "since": "2026-12-01T09:55:00",
            "holder": "cli",
        }
    ).encode(),
    "dunst.json": json.dumps(
        {"adapter": "dunst", "prior": {"paused": False}, "restores_itself": False, "holder": "app"}
    ).encode(),
    "portal.json": json.dumps({"adapter": "freedesktop", "restores_itself": True}).encode(),
    "damaged.json": b'{"adapter": "gnome", "prior": ',
}

HOTKEYS = {
    "next.txt": b"next\nctrl+alt+Right",
    "previous.txt": b"previous\nControl+ALT+pgup",
    "f-key.txt": b"toggle\nF13",
    "super.txt": b"\nsuper+shift+BracketLeft",
    "unbind.txt": b"next\n",
    "bad.txt": b"next\nctrl+ctrl+x",
}

DATES = {
    "iso.txt": b"2026-12-01T09:50\n2026-12-01T09:50:00+05:30\n2026-12-01\n",
    "words.txt": b"3 March\nMar 3 2026\n3/3/2026\ntomorrow 2pm\nnoon\n3rd of March at 14:30\n",
    "numbers.txt": b"45\n60-90\n2-3\n1.5\n0\n",
    "odd.txt": b"0001-01-01T00:00\n9999-12-31T23:59:59-23:59\n31 Feb\n14:\n9:15:00\n",
    # integer options at and past what SQLite holds (2**63 was an OverflowError)
    "integers.txt": b"9223372036854775807\n9223372036854775808\n-1\n0\n1e400\n 42 \n1_000\n"
    + b"9" * 60
    + b"\n",
}


# what a stranger's file can do to a terminal: set its title, clear it, write the
# clipboard (OSC 52), a C1 CSI, a bidi override, in every text a command prints
NOON = "2026-12-01T12:00:00+00:00"
ESC = "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;ZWNobyBoaQ==\x07\x9b31m\u202e"


def escapes() -> dict[str, dict[str, bytes]]:
    """One seed a target with :data:`ESC` where the text is printed."""
    doc = json.loads(journal()["full.json"])
    loop = doc["loops"][0]
    loop["company"] += ESC
    loop["rounds"][0]["interviewer_name"] += ESC
    doc["stories"] = {"document": f"## Story: Outage{ESC}\nResult: 3x faster\n", "rounds": []}
    doc["review"] = {
        "cards": [
            {"kind": "topic", "id": "heaps", "title": f"Heaps{ESC}", "created_at": NOON},
        ],
        "log": [],
    }
    summary = "SUMMARY:Acme - Coding interview with Sam (Engineer)"
    return {
        "journal": {"escapes.json": json.dumps(doc, ensure_ascii=False).encode()},
        "ics": {"escapes.ics": ICS.replace(summary, summary + ESC, 1).encode()},
        "stories": {"escapes.md": f"## Story: Outage{ESC}\nResult: 3x{ESC}\n".encode()},
    }


def main() -> None:
    seeds = {
        "journal": journal(),
        "ics": {
            "invite.ics": ICS.encode(),
            "allday.ics": ICS_ALLDAY.encode(),
            "empty.ics": b"BEGIN:VCALENDAR\nEND:VCALENDAR\n",
            # dates at the calendar's ends beside a zone (a whole file was lost to them)
            "calendar-ends.ics": ICS.replace("20261201T104500", "99991231T235959")
            .replace("20261201T130000Z", "00010101T000000")
            .encode(),
        },
        "onepager": {
            "about-me.md": ONE_PAGER.encode(),
            "bom.md": b"\xef\xbb\xbf# Hi\n",
            "latin1.md": "## Who I am\nJos\xe9\n".encode("latin-1"),
        },
        "onepager_pdf": {"about-me.md": ONE_PAGER.encode(), "nested.md": b"> > - a\n>     - b\n"},
        "stories": {"stories.md": STORIES.encode(), "fenced.md": b"```\n## Story: no\n```\n"},
        "wav": {
            "mono-8k.wav": _wav(0.4, 8000),
            "stereo-16k.wav": _wav(0.1, 16000, 2),
            "silent.wav": _wav(0.2, 8000, tone=False),
            "8bit.wav": _wav(0.0, 8000)[:34] + b"\x08\x00" + _wav(0.0, 8000)[36:],
        },
        "content": {name: text.encode() for name, text in CONTENT.items()},
        "prefs": PREFS,
        "dnd": DND,
        "hotkeys": HOTKEYS,
        "dates": DATES,
    }
    for target, files in escapes().items():
        seeds[target].update(files)
    for target, files in seeds.items():
        folder = CORPUS / target
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (folder / name).write_bytes(data)


if __name__ == "__main__":
    main()
