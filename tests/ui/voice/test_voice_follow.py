"""Voice-following on the cue card with the real recognizer: in a running round's opening
minutes the card names the pitch segment being spoken and its budget left, holds on
silence, moves on past a segment left out, takes back/next corrections, shows the
delivery line, and closes the microphone after the opening. First with an espeak-ng
take fed to a real MicListener's read path, then played into a private PulseAudio's
virtual microphone."""

from __future__ import annotations

import datetime as dt
import os
import sys

import pytest
import voice_takes as vt

from companion.core.voice.take import read_wav

pytestmark = [
    pytest.mark.gui,
    pytest.mark.qt_log_ignore("This plugin does not support"),  # offscreen: no hints
    pytest.mark.skipif(vt.missing_tools() is not None, reason=f"{vt.missing_tools()}"),
]
P = vt.PARAGRAPHS
_AUDIT: dict = {"on": False, "events": []}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _audit(event: str, args: tuple) -> None:
    """File writes and network use while armed (one hook for the module; it cannot be
    removed): following the pitch must write nothing and send nothing."""
    if not _AUDIT["on"]:
        return
    if event == "open":
        path, mode, flags = (list(args) + [None, None, None])[:3]
        if (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & _WRITE_FLAGS
        ):
            _AUDIT["events"].append((event, str(path)))
    elif event in ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname"):
        _AUDIT["events"].append((event, repr(args[1:2])))


sys.addaudithook(_audit)
ONE_PAGER = f"""# About me

## Who I am

{P[0]}

## Strongest evidence

{P[1]}

## Why this role

{P[2]}
"""


@pytest.fixture
def card(ctx, bus, day_service, qtbot):
    from companion.core.about.store import save_text
    from companion.ui.cue.window import CueCardWindow

    save_text(ctx.db, ONE_PAGER, dt.datetime(2026, 1, 1, 9, 0))
    window = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(window)
    return window


def _fed_mic_factory(made: list):
    """The real MicListener with its read path fed by the test (no device)."""
    from companion.core.voice.vad import VoiceActivityDetector
    from companion.ui.voice.listener import MicListener

    class FedMic(MicListener):
        fed_open = False

        def start(self) -> bool:
            self.vad = VoiceActivityDetector(16000)
            self.fed_open = True
            return True

        def stop(self) -> None:
            self.fed_open = False

        @property
        def is_open(self) -> bool:
            return self.fed_open

    def factory(parent):
        made.append(FedMic(parent, measure_levels=False))
        return made[-1]

    return factory


def _feed(mic, take, seconds: float | None = None, start: float = 0.0) -> None:
    from companion.core.voice.pcm import resample

    audio = resample(take.samples, take.sample_rate)
    lo = int(start * 16000)
    hi = len(audio) if seconds is None else lo + int(seconds * 16000)
    for i in range(lo, min(hi, len(audio)), 1600):
        mic.feed(audio[i : i + 1600])


@pytest.mark.voice
def test_the_card_follows_a_take_with_a_segment_left_out(card, ctx, tmp_path):
    made: list = []
    strip = card.follow
    strip._factory = _fed_mic_factory(made)
    card.set_round("coding")
    card.show_card()
    assert not strip.isVisible() and not strip.following  # no round runs: no strip
    card.toggle_round()
    assert strip.isVisible() and not strip.following  # the opening: the opt-in shows
    assert strip.toggle.text() == "Follow my pitch: off"
    strip.toggle.click()  # opt in (remembered)
    assert ctx.settings.get("voice.follow_pitch") is True
    card.tick()
    assert strip.following and strip.indicator.isVisible()
    seen: list[str] = []
    strip.segment_changed.connect(seen.append)
    built = vt.build(tmp_path, "skip", 160, [0.5, P[0], 4.0, P[2], 0.5])
    take = read_wav(built.path)
    mic = made[-1]
    _feed(mic, take, seconds=built.truth[0][1] + 1.0)
    assert strip.view.segment_id == "identity"
    assert strip.now.text().startswith("Now: Who I am")
    _feed(mic, take, seconds=2.0, start=built.truth[0][1] + 1.0)  # silence: it holds
    assert strip.view.segment_id == "identity"
    _feed(mic, take, start=built.truth[0][1] + 3.0)
    assert strip.view.segment_id == "why-role"  # "Strongest evidence" was left out
    assert [s for s in seen if s] == ["identity", "why-role"]
    assert strip.now.text().startswith("Now: Why this role \u00b7 ")
    assert "answering" in strip.line.text() or strip.line.text() == "listening"
    outline = _outline_text(card)
    assert "\u25b6 Why this role" in outline and "speaking now" in outline
    assert "\u25b6 Who I am" not in outline
    # back by hand: the step hotkeys' path (card.move_step) corrects the following
    card.move_step(-1)
    assert strip.view.segment_id == "evidence"
    assert strip.now.text().startswith("Now: Strongest evidence \u00b7 30 s left")
    assert "\u25b6 Strongest evidence" in _outline_text(card)
    card.hide()  # the mic never stays open behind a hidden card
    assert not strip.following and not mic.is_open
    assert not strip.indicator.isVisible()


def _outline_text(card) -> str:
    from PySide6.QtWidgets import QLabel

    block = card.pages.current().blocks["@pitch-outline"]
    return "".join(w.text() for w in block.body.findChildren(QLabel))


@pytest.mark.voice
def test_following_stops_after_the_opening_minutes(card, ctx, clock):
    made: list = []
    card.follow._factory = _fed_mic_factory(made)
    card.follow.toggle.click()
    card.set_round("design")
    card.show_card()
    card.toggle_round()
    assert card.follow.following
    clock.advance(minutes=6)
    card.tick()
    assert not card.follow.following and not made[-1].is_open
    assert not card.follow.isVisible()  # past the opening the card is as it was


def test_off_by_default_and_nothing_opens(card):
    card.set_round("coding")
    card.show_card()
    card.toggle_round()
    assert not card.follow.toggle.isChecked() and not card.follow.following


def test_no_pitch_says_so(ctx, bus, day_service, qtbot):
    from companion.ui.cue.window import CueCardWindow

    window = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(window)
    window.follow._factory = _fed_mic_factory([])
    window.follow.toggle.click()
    window.set_round("coding")
    window.show_card()
    window.toggle_round()
    assert not window.follow.following
    assert "nothing to follow" in window.follow.message.text()
    # what happens, under the opt-in as the user left it (it read "Pitch following off"
    # beside "Follow my pitch: on")
    assert window.follow.message.text().startswith("Not following your pitch: ")
    assert window.follow.toggle.text() == "Follow my pitch: on"


@pytest.fixture
def pulse_server(session_server, monkeypatch):
    """The session's PulseAudio (tests/ui/conftest.py): Qt's audio backend keeps its
    first connection for the life of the process."""
    monkeypatch.setenv("PULSE_SERVER", f"unix:{session_server.runtime}/pulse/native")
    yield session_server
    session_server.stop_players()


@pytest.mark.voice
@pytest.mark.slow
def test_the_card_follows_a_pitch_played_into_the_virtual_microphone(
    card, qtbot, pulse_server, tmp_path
):
    built = vt.build(tmp_path, "live", 160, [0.5, P[0], 0.8, P[1], 0.8, P[2], 0.5])
    card.follow.toggle.click()
    card.set_round("coding")
    card.show_card()
    _AUDIT.update(on=True, events=[])  # from the round's opening: recognizer loaded, mic open
    try:
        card.toggle_round()
        assert card.follow.following and card.follow.indicator.isVisible()
        qtbot.waitUntil(lambda: len(pulse_server.source_outputs()) >= 1, timeout=10000)
        seen: list[str] = []
        card.follow.segment_changed.connect(seen.append)
        pulse_server.play(built.path)
        qtbot.waitUntil(lambda: card.follow.view.segment_id == "why-role", timeout=60000)
    finally:
        _AUDIT["on"] = False
    # the round's own journal row, and the test's player (paplay's output to /dev/null)
    writes = [e for e in _AUDIT["events"] if "journal" not in e[1] and e[1] != "/dev/null"]
    assert writes == [], writes
    assert [s for s in seen if s] == ["identity", "evidence", "why-role"]
    assert "\u25b6 Why this role" in _outline_text(card)
    card.day.end_round(card.view.current.id)  # End (the press asks first this early)
    assert not card.follow.following
    qtbot.waitUntil(lambda: pulse_server.source_outputs() == [], timeout=5000)
    qtbot.wait(300)
    assert "\u25b6" not in _outline_text(card)  # the walk: still "speaking now" after End


@pytest.mark.voice
def test_a_glance_keeps_the_following_line_only_while_it_follows(card, ctx):
    made: list = []
    card.follow._factory = _fed_mic_factory(made)
    card.set_round("design")
    card.show_card()
    card.toggle_round()  # the opening minutes: the opt-in button shows
    assert card.follow.isVisible() and not card.follow.following
    card.set_glance(True)
    assert not card.follow.isVisible(), "the opt-in button has no place in a glance"
    card.tick()
    assert not card.follow.isVisible(), "nor after the next tick"
    card.set_glance(False)
    assert card.follow.isVisible()
    card.follow.toggle.click()
    card.tick()
    assert card.follow.following
    card.set_glance(True)
    card.tick()
    assert card.follow.isVisible() and card.follow.following, "following shows in a glance"


@pytest.mark.voice
def test_no_page_keeps_speaking_now_after_end_with_a_next_round_and_the_capture(
    ctx, bus, db, clock, qtbot, tmp_path
):
    # the walk: at End the card passed through the next round's page while following
    # stopped, and the ended round's page kept "\u25b6 Hand back \u00b7 speaking now"
    from PySide6.QtWidgets import QLabel

    from companion.core.about.store import save_text
    from companion.core.day import loops
    from companion.ui.session import Session

    save_text(ctx.db, ONE_PAGER, dt.datetime(2026, 1, 1, 9, 0))
    loop = loops.create_loop(db, "Acme", starts_on=clock.now().date().isoformat())
    now = clock.now()
    first = loops.add_round(db, loop, "coding", scheduled_at=now + dt.timedelta(minutes=5))
    loops.add_round(db, loop, "design", scheduled_at=now + dt.timedelta(minutes=65))
    session = Session(ctx, bus)
    try:
        session.day.refresh()
        card = session.show_cue_card("")
        qtbot.addWidget(card)
        made: list = []
        card.follow._factory = _fed_mic_factory(made)
        card.follow.toggle.click()
        card.toggle_round()  # Start: the coding round, the day's next
        card.tick()
        assert card.follow.following
        built = vt.build(tmp_path, "one", 160, [0.5, P[0], 1.0])
        _feed(made[-1], read_wav(built.path))
        assert "\u25b6 Who I am" in _outline_text(card)
        session.day.end_round(first)  # End from Today: the capture opens
        qtbot.wait(100)
        card.tick()
        assert not card.follow.following and session.captures.open_one() is not None
        for page in card.pages.pages():
            block = page.blocks.get("@pitch-outline")
            if block is not None:
                text = "".join(w.text() for w in block.body.findChildren(QLabel))
                assert "\u25b6" not in text and "speaking now" not in text, page
    finally:
        session.captures.close_all()
        session.shutdown()


def test_the_marked_segment_stays_in_sight_when_the_page_shrinks(card, qtbot):
    # the outline did not scroll to the marked segment once a nudge banner pushed it down
    from PySide6.QtWidgets import QLabel

    from companion.ui.cue import voice as voice_line

    card.set_round("coding")
    card.show_card()
    card.toggle_round()
    page = card.pages.current()
    body = next(
        w
        for w in page.blocks["@pitch-outline"].body.findChildren(QLabel)
        if "Why this role" in w.text()
    )
    scroll = page.scroll

    def marked_in_sight() -> bool:
        top = body.mapTo(scroll.widget(), body.rect().topLeft()).y()
        y = top + body.height() * 2.5 / 3  # "Why this role": the last of three lines
        value = scroll.verticalScrollBar().value()
        return value <= y <= value + scroll.viewport().height()

    voice_line.highlight(card.pages, "Why this role", "speaking now")
    card.resize(card.width(), 260)  # less room below: what a banner above does
    qtbot.waitUntil(lambda: scroll.viewport().height() < body.height() * 4, timeout=3000)
    qtbot.waitUntil(marked_in_sight, timeout=3000)
    assert scroll.verticalScrollBar().value() > 0
