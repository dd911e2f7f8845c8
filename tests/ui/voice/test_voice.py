"""The cue card's silence nudge against a real audio server: a private PulseAudio whose
default source ``vmic`` hears a WAV played into the null sink in real time. The card's
QAudioSource opens on it, the nudge shows after the content's 20 s of silence (measured
on the audio's own clock) and clears on speech; the mic closes when the round ends."""

from __future__ import annotations

import os
import sys

import fed_mic
import pulse
import pytest
import voice_takes as vt

from companion.core.voice import nudge as rules

pytestmark = pytest.mark.gui


_AUDIT: dict = {"on": False, "events": []}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _audit(event: str, args: tuple) -> None:
    """Python-level file writes and network use while ``_AUDIT["on"]`` (audit hooks cannot
    be removed, so one hook serves every test and a flag arms it)."""
    if not _AUDIT["on"]:
        return
    if event == "open":
        path, mode, flags = (list(args) + [None, None, None])[:3]
        writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & _WRITE_FLAGS
        )
        if writing:
            _AUDIT["events"].append((event, str(path)))
    elif event in ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname"):
        _AUDIT["events"].append((event, repr(args[1:2])))


sys.addaudithook(_audit)


def test_the_limit_comes_from_the_content(content):
    assert rules.silence_limit(content) == 20.0  # `silence_seconds: 20` in recovery
    assert rules.silence_limit(object()) == rules.DEFAULT_SILENCE_SECONDS


def test_opt_in_is_per_round_type_and_remembered(ctx):
    assert not rules.opted_in(ctx.settings, "coding")
    assert rules.set_opted_in(ctx.settings, "coding", True) is None
    from companion.core.context import AppContext

    again = AppContext(ctx.data_dir)  # the next start reads it from the journal
    assert rules.opted_in(again.settings, "coding") and not rules.opted_in(again.settings, "design")
    rules.set_opted_in(again.settings, "coding", False)
    assert not rules.opted_in(ctx.settings, "coding")
    again.close()


@pytest.fixture
def card(ctx, bus, day_service, qtbot):
    from companion.ui.cue.window import CueCardWindow

    window = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(window)
    return window


def test_the_toggle_follows_the_shown_round_type(card, ctx):
    card.set_round("coding")
    assert not card.voice.toggle.isChecked()
    assert card.voice.toggle.text() == "Silence nudge: off"
    card.voice.toggle.click()
    assert rules.opted_in(ctx.settings, "coding")
    assert card.voice.toggle.text() == "Silence nudge: on"
    card.set_round("design")
    assert not card.voice.toggle.isChecked()
    assert "suggested" in card.voice.toggle.toolTip()
    card.set_round("coding")
    assert card.voice.toggle.isChecked()
    assert not card.voice.mic_open  # no round runs: the mic stays closed


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: no stacking, no hints
def test_no_audio_server_is_a_message_on_the_card_and_the_round_goes_on(
    card, ctx, qtbot, monkeypatch, tmp_path
):
    monkeypatch.setenv("PULSE_SERVER", f"unix:{tmp_path}/no-server-here")
    monkeypatch.setattr(
        "companion.ui.voice.listener._find_device", lambda name: None
    )  # what Qt answers with no server; the real lookup is covered below
    rules.set_opted_in(ctx.settings, "coding", True)
    card.set_round("coding")
    card.show_card()
    card.toggle_round()
    assert card.running
    assert card.voice.message.isVisible()
    try:
        import PySide6.QtMultimedia  # noqa: F401
    except ImportError:  # no libpulse0 (Debian): the card says so, not "not installed"
        assert "could not load" in card.voice.message.text(), card.voice.message.text()
    else:  # not "plug in a microphone": no sound server to list one
        assert "no sound server is running" in card.voice.message.text()
    assert not card.voice.indicator.isVisible()
    assert card.voice.toggle.text() == "Silence nudge: no mic"  # not "on" beside "off: ..."
    card.tick()  # not retried every second
    assert card.voice.message.isVisible() and not card.voice.mic_open
    card.voice.toggle.click()  # off: the failure's line went with it (it stayed, walk)
    assert card.voice.toggle.text() == "Silence nudge: off"
    assert not card.voice.message.isVisible()
    card.voice.toggle.click()  # on again: the next second tries again, and says so again
    card.tick()
    assert card.voice.message.isVisible() and not card.voice.mic_open
    assert card.voice.toggle.text() == "Silence nudge: no mic"
    card.day.end_round(card.view.current.id)  # End (the press asks first this early)
    assert not card.running
    card.tick()
    assert card.voice.toggle.text() == "Silence nudge: on"  # still opted in, for the next


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: no stacking, no hints
def test_the_mic_follows_the_days_running_round_and_the_card_being_shown(card, ctx):
    import math
    from array import array

    made: list = []
    card.voice._factory = fed_mic.factory(made, measure_levels=False)  # the strip's seam
    rules.set_opted_in(ctx.settings, "coding", True)
    card.set_round("coding")
    card.show_card()
    assert not card.running and not card.voice.mic_open
    # the round starts elsewhere (the Today page, a notification): the card learns it
    # from the day and opens the mic
    card.day.start_round(round_type="coding")
    assert card.running and card.voice.mic_open and card.voice.indicator.isVisible()
    mic = made[-1]
    mic.feed(array("h", [0] * 16000 * 21))  # 21 s of silence on the audio clock
    assert card.voice.nudge.isVisible()
    assert card.voice.nudge.text() == "Narrate: say what you are checking"
    # pure zeros from the start: a muted microphone, said beside the nudge
    assert card.voice.message.isVisible() and "is muted" in card.voice.message.text()
    tone = [int(8000 * math.sin(2 * math.pi * 220 * i / 16000)) for i in range(8000)]
    mic.feed(array("h", tone))  # speech clears it
    assert not card.voice.nudge.isVisible()
    assert not card.voice.message.isVisible()
    card.hide()  # the mic never stays open behind a hidden card
    assert not card.voice.mic_open and not mic.is_open
    card.day.refresh()  # the day moves on while the card is hidden: still closed
    assert not card.voice.mic_open
    card.show_card()  # shown again while the round runs: listening again
    assert card.voice.mic_open and len(made) == 2
    card.day.end_round(card.running_round().id)  # ended elsewhere: the mic closes
    assert not card.running and not card.voice.mic_open
    assert not card.voice.indicator.isVisible()
    card.set_round("design")  # not opted in: the toggle says so
    assert card.voice.toggle.text() == "Silence nudge: off"


@pytest.mark.qt_log_ignore("This plugin does not support")
@pytest.mark.skipif(vt.missing_tools() is not None, reason=f"{vt.missing_tools()}")
def test_the_nudge_shows_twenty_seconds_after_the_last_word_and_speech_clears_it(
    card, ctx, tmp_path
):
    """The take of the real-time test below, fed on its own clock: exact, whatever the
    load (a real-time player that falls behind moves the words on the audio clock)."""
    p = vt.PARAGRAPHS
    take = vt.build(tmp_path, "round", 160, [p[2], 23.0, p[0]], snr_db=None)
    samples, rate = fed_mic.wav_samples(take.path)
    made: list = []
    card.voice._factory = fed_mic.factory(made, rate=rate, measure_levels=False)
    rules.set_opted_in(ctx.settings, "coding", True)
    card.set_round("coding")
    card.show_card()
    card.toggle_round()
    assert card.voice.mic_open
    mic = made[-1]
    shown: list[tuple[bool, float]] = []
    card.voice.nudge_changed.connect(lambda on: shown.append((on, mic.seconds)))
    mic.feed_to(samples, take.truth[0][1] + 19.0)
    assert shown == [] and not card.voice.nudge.isVisible()  # 19 s of quiet: not yet
    mic.feed_to(samples, take.truth[0][1] + 21.0)
    assert card.voice.nudge.isVisible()
    assert card.voice.nudge.text() == "Narrate: say what you are checking"
    mic.feed_to(samples, take.seconds)
    assert [on for on, _ in shown] == [True, False]  # shown once, then cleared by speech
    assert shown[0][1] - take.truth[0][1] == pytest.approx(20.0, abs=0.5)
    assert shown[1][1] == pytest.approx(take.truth[1][0], abs=0.5)
    card.day.end_round(card.view.current.id)
    assert not card.voice.mic_open and not mic.is_open


@pytest.fixture
def server(session_server, monkeypatch):
    monkeypatch.setenv("PULSE_SERVER", f"unix:{session_server.runtime}/pulse/native")
    yield session_server
    session_server.stop_players()  # the next test starts from silence


@pytest.mark.slow
@pytest.mark.qt_log_ignore("This plugin does not support")
@pytest.mark.skipif(vt.missing_tools() is not None, reason=f"{vt.missing_tools()}")
def test_nudge_after_twenty_seconds_of_silence_and_cleared_by_speech(
    card, ctx, qtbot, server, tmp_path
):
    p = vt.PARAGRAPHS
    take = vt.build(tmp_path, "round", 160, [p[2], 23.0, p[0]], snr_db=None)
    rules.set_opted_in(ctx.settings, "coding", True)
    card.set_round("coding")
    card.show_card()
    shown: list[tuple[bool, float]] = []
    card.voice.nudge_changed.connect(lambda on: shown.append((on, card.voice.listener.seconds)))
    card.toggle_round()
    assert card.voice.mic_open and card.voice.indicator.isVisible()
    qtbot.waitUntil(lambda: len(server.source_outputs()) == 1, timeout=10000)
    heard: list[float] = []
    ended: list[float] = []
    card.voice.listener.speech_started.connect(heard.append)
    card.voice.listener.speech_ended.connect(ended.append)
    server.play(take.path)
    _AUDIT.update(on=True, events=[])  # privacy: listening writes no file and sends nothing
    try:
        qtbot.waitUntil(lambda: bool(heard), timeout=15000)
        assert not card.voice.nudge.isVisible()
        qtbot.waitUntil(lambda: card.voice.nudge.isVisible(), timeout=40000)
        qtbot.waitUntil(lambda: not card.voice.nudge.isVisible(), timeout=15000)
    finally:
        _AUDIT["on"] = False
    assert _AUDIT["events"] == []
    on_at = shown[0][1]
    # 20 s after the last word heard, on the audio clock: measured from what the mic
    # heard, not from the file (a player starved of CPU delays its words; the exact
    # timing against the file is the fed test above)
    words_end = max(t for t in ended if t < on_at)
    assert on_at - words_end == pytest.approx(20.0, abs=0.5)
    assert card.voice.nudge.text() == "Narrate: say what you are checking"
    assert [on for on, _ in shown] == [True, False]  # shown once, then cleared by speech
    card.day.end_round(card.view.current.id)  # the round ends: the mic closes
    assert not card.voice.mic_open and not card.voice.indicator.isVisible()
    qtbot.waitUntil(lambda: server.source_outputs() == [], timeout=5000)


@pytest.mark.slow
@pytest.mark.qt_log_ignore("This plugin does not support")
def test_a_microphone_unplugged_mid_round_is_a_message_and_the_round_goes_on(
    card, ctx, qtbot, server
):
    rules.set_opted_in(ctx.settings, "design", True)
    card.set_round("design")
    card.show_card()
    card.toggle_round()
    assert card.voice.mic_open
    qtbot.waitUntil(lambda: card.voice.listener.seconds > 0.5, timeout=10000)
    try:
        pulse.unplug(server)
        qtbot.waitUntil(lambda: card.voice.message.isVisible(), timeout=10000)
    finally:
        pulse.plug_in(server)
    assert "unplugged" in card.voice.message.text() or "stopped" in card.voice.message.text()
    assert not card.voice.mic_open and not card.voice.indicator.isVisible()
    assert card.running
    card.tick()
    assert card.clock.isVisible()  # the round's timer goes on
    card.day.end_round(card.view.current.id)  # End (the press asks first this early)
    assert not card.running
    assert server.source_outputs() == []


# -- the mic and camera check dialog ------------------------------------------------


@pytest.mark.qt_log_ignore("This plugin does not support")
def test_check_dialog_without_a_device_says_so(qtbot, monkeypatch):
    import companion.ui.voice.listener as listener_module
    from companion.ui.voice.check_dialog import MicCheckDialog

    monkeypatch.setattr(listener_module, "_find_device", lambda name: None)
    import companion.ui.voice.check_dialog as check_module

    monkeypatch.setattr(check_module, "input_devices", lambda: [])
    dialog = MicCheckDialog(camera=False)
    qtbot.addWidget(dialog)
    assert dialog.devices.currentText() == "No input device found"
    passed = []
    dialog.passed.connect(lambda: passed.append(True))
    dialog.check_button.click()
    assert dialog.result.verdict == "no input device"
    assert "No input device" in dialog.verdict.text()
    assert not passed and dialog.listener is None


@pytest.mark.slow
@pytest.mark.qt_log_ignore("This plugin does not support")
@pytest.mark.skipif(vt.missing_tools() is not None, reason=f"{vt.missing_tools()}")
def test_check_dialog_hears_a_sentence_and_passes(qtbot, server, tmp_path):
    from companion.ui.voice.check_dialog import MicCheckDialog

    take = vt.build(tmp_path, "sentence", 160, [0.3, vt.PARAGRAPHS[0]], snr_db=None)
    dialog = MicCheckDialog(seconds=3.0)
    qtbot.addWidget(dialog)
    assert "vmic" in dialog.devices.currentText()
    # this machine has no camera: the dialog says so rather than failing
    assert dialog.camera_label.text().startswith(("No camera found", "Camera: "))
    passed = []
    dialog.passed.connect(lambda: passed.append(True))
    server.play(take.path)
    with qtbot.waitSignal(dialog.finished_check, timeout=20000):
        dialog.check_button.click()
        assert len(server.source_outputs()) <= 1
    assert dialog.result.verdict == "heard speech"
    assert dialog.meter.value() > 0
    assert dialog.verdict.text().startswith("\u2713 Heard speech")
    # "video and mic" passes only with a camera: this machine has none, and says so
    assert passed == ([True] if dialog.camera_ok else [])
    if not dialog.camera_ok:
        assert "camera was not checked" in dialog.verdict.text()
    dialog.close()
    qtbot.waitUntil(lambda: server.source_outputs() == [], timeout=5000)


@pytest.mark.slow
@pytest.mark.qt_log_ignore("This plugin does not support")
@pytest.mark.skipif(vt.missing_tools() is not None, reason=f"{vt.missing_tools()}")
def test_the_level_meter_moves_before_any_check(qtbot, server, tmp_path):
    from companion.ui.voice.check_dialog import MicCheckDialog

    take = vt.build(tmp_path, "sentence", 160, [0.3, vt.PARAGRAPHS[0]], snr_db=None)
    dialog = MicCheckDialog(camera=False)
    qtbot.addWidget(dialog)
    dialog.show()
    assert len(server.source_outputs()) == 1  # the meter's stream, and only that one
    server.play(take.path)
    qtbot.waitUntil(lambda: dialog.meter.value() > 0, timeout=15000)
    assert dialog.result is None  # nothing judged, nothing pressed
    dialog.close()
    qtbot.waitUntil(lambda: server.source_outputs() == [], timeout=5000)


@pytest.mark.slow
@pytest.mark.qt_log_ignore("This plugin does not support")
def test_check_dialog_reports_silence_and_closes_the_mic(qtbot, server):
    from companion.ui.voice.check_dialog import MicCheckDialog

    dialog = MicCheckDialog(seconds=1.5, camera=False)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.finished_check, timeout=20000) as done:
        dialog.check_button.click()
    assert done.args[0].verdict == "muted"  # the virtual mic, fed nothing, sends zeros
    dialog.close()
    qtbot.waitUntil(lambda: server.source_outputs() == [], timeout=5000)


@pytest.mark.slow
@pytest.mark.qt_log_ignore("This plugin does not support")
@pytest.mark.skipif(vt.missing_tools() is not None, reason=f"{vt.missing_tools()}")
def test_video_and_mic_is_ticked_only_when_the_camera_was_checked(
    day_service, qtbot, ctx, bus, server, tmp_path
):
    from PySide6.QtWidgets import QApplication

    from companion.core.day import checklist as cl
    from companion.ui.checklist.page import ChecklistPage
    from companion.ui.voice.check_dialog import MicCheckDialog

    page = ChecklistPage(ctx, bus, day=day_service)
    qtbot.addWidget(page)
    page.show()
    qtbot.waitUntil(lambda: page._built)
    night = page.groups["night-before"]
    item = next(i for i in night.phase_list.items if i.link == "mic-check")
    assert "video and mic" in item.text
    night.link_buttons[item.key].click()
    dialogs = [w for w in QApplication.topLevelWidgets() if isinstance(w, MicCheckDialog)]
    assert len(dialogs) == 1
    dialog = dialogs[0]
    take = vt.build(tmp_path, "sentence", 160, [0.3, vt.PARAGRAPHS[0]], snr_db=None)
    server.play(take.path)
    with qtbot.waitSignal(dialog.finished_check, timeout=25000):
        dialog.check_button.click()
    assert dialog.result.passed
    QApplication.sendPostedEvents()  # the page's answer to the check, if it was queued
    QApplication.processEvents()
    ticked = item.key in cl.checked_keys(ctx.db, night.scope)
    assert night.boxes[item.key].isChecked() == ticked == dialog.camera_ok
    dialog.close()
    qtbot.waitUntil(lambda: server.source_outputs() == [], timeout=5000)


# -- rehearsal from your own voice --------------------------------------------------


def _about_page(qtbot, ctx, bus):
    """About me, shown, with a saved one-pager of two segments (voice_takes.PARAGRAPHS)."""
    from companion.core.about import store as about_store
    from companion.ui.about.page import AboutPage

    p = vt.PARAGRAPHS
    text = f"# About me\n\n## Who I am\n\n{p[0]}\n\n## Strongest evidence\n\n{p[1]}\n"
    about_store.save_text(ctx.db, text, ctx.now(), reason="save")
    page = AboutPage(ctx, bus)
    qtbot.addWidget(page)
    page.resize(1100, 700)
    page.show()
    return page


@pytest.mark.voice
@pytest.mark.slow
@pytest.mark.qt_log_ignore("This plugin does not support")
@pytest.mark.skipif(vt.missing_tools() is not None, reason=f"{vt.missing_tools()}")
def test_rehearse_records_the_take_and_times_each_segment(qtbot, ctx, bus, server, tmp_path):
    from companion.core.about import store as about_store
    from companion.core.about.spoken import count_words

    p = vt.PARAGRAPHS
    page = _about_page(qtbot, ctx, bus)
    recorder = page.take_recorder
    assert not recorder.record_box.isChecked()
    recorder.record_box.click()  # opt in (remembered)
    assert ctx.settings.get("voice.record_rehearsal") is True
    # a second of room first, as an open mic hears before the first word (the detector
    # learns the noise floor from it)
    take = vt.build(tmp_path, "pitch", 160, [1.0, p[0], 3.0, p[1], 0.5], snr_db=None)
    # the take fed on its own clock (tests/ui/fed_mic.py): Next is pressed at a known
    # audio time however loaded the machine (played in real time, a starved player
    # moved the words against the presses and the speaking times missed by over 0.3 s)
    samples, rate = fed_mic.wav_samples(take.path)
    made: list = []
    recorder._factory = fed_mic.factory(made, rate=rate, keep_samples=True)

    page.rehearsal.start()
    assert recorder.listener is made[-1] and recorder.indicator.isVisible()
    mic = made[-1]
    mic.feed_to(samples, (take.truth[0][1] + take.truth[1][0]) / 2)  # the gap's middle
    page.rehearse_bar.next_segment()
    mic.feed_to(samples, take.truth[1][1] + 0.4)
    with qtbot.waitSignals([recorder.analysed, recorder.heard], timeout=60000):
        page.rehearse_bar.next_segment()  # Finish; the recognizer runs off the GUI thread
    assert recorder.listener is None and not recorder.indicator.isVisible()
    assert not mic.is_open

    who, evidence = recorder.segments
    assert (who.id, evidence.id) == ("identity", "evidence")
    for seg, (start, end), para in zip((who, evidence), take.truth, p):
        assert seg.words == count_words(para)
        assert seg.speaking_seconds == pytest.approx(end - start, abs=0.3)
        assert seg.wpm == pytest.approx(seg.words * 60 / (end - start), rel=0.15)
        assert seg.pauses == ()
    assert "Who I am:" in recorder.report.text() and "wpm" in recorder.report.text()
    assert "under 60-90 s" in recorder.report.text()
    # what the take said, segment by segment, beside the timing
    said = recorder.said.text()
    assert "Who I am: heard" in said and "Strongest evidence: heard" in said
    assert "settlement" in recorder.take_heard.transcript.split()
    # nothing written until asked; then its figures, never its audio (#44)
    from companion.core.about.takes import list_takes

    assert list_takes(ctx.db) == []
    before = {p for p in ctx.data_dir.rglob("*") if p.is_file()}
    recorder.keep_button.click()
    assert not (ctx.data_dir / "takes").exists()
    written = {p for p in ctx.data_dir.rglob("*") if p.is_file()} - before
    audio = (".wav", ".ogg", ".flac", ".raw", ".pcm", ".txt")
    assert not [p for p in written if p.suffix in audio], written
    # its figures, for the About me trend of kept takes
    (figures,) = list_takes(ctx.db)
    assert figures["seconds"] == pytest.approx(recorder.analysis.answer_seconds)
    assert figures["fillers"] == recorder.take_heard.fillers
    assert figures["segments_heard"] == 2 and figures["measured_wpm"] > 0
    assert not page.panel.takes.isHidden()
    # the measured rate becomes the speaking rate
    recorder.rate_button.click()
    assert about_store.words_per_minute(ctx.db) == pytest.approx(recorder.measured_rate(), abs=1)
    # and the take plays back
    recorder.play_button.click()
    assert recorder.playing and recorder.play_button.text() == "Stop playing"
    recorder.play_button.click()
    assert not recorder.playing
    page.shutdown()


@pytest.mark.voice
@pytest.mark.slow
@pytest.mark.qt_log_ignore("This plugin does not support")
@pytest.mark.skipif(vt.missing_tools() is not None, reason=f"{vt.missing_tools()}")
def test_a_take_stopped_without_next_offers_the_rate_it_heard(qtbot, ctx, bus, server, tmp_path):
    """Stopped (Esc) without pressing Next, every second of the take went to the first
    segment and the page offered "Use 27 wpm as my rate" for a take said at 160 (the
    walk): once the recognizer has heard the take, the rate is its words over the
    speaking time, as `about rehearse` gives it."""
    from companion.core.about import store as about_store

    p = vt.PARAGRAPHS
    page = _about_page(qtbot, ctx, bus)
    recorder = page.take_recorder
    recorder.record_box.click()
    take = vt.build(tmp_path, "pitch", 160, [1.0, p[0], 1.0, p[1], 0.5], snr_db=None)
    samples, rate = fed_mic.wav_samples(take.path)
    made: list = []
    recorder._factory = fed_mic.factory(made, rate=rate, keep_samples=True)
    page.rehearsal.start()
    made[-1].feed_to(samples, take.seconds)
    with qtbot.waitSignals([recorder.analysed, recorder.heard], timeout=60000):
        page.rehearse_bar.stop()  # Esc: no Next pressed
    who = recorder.segments[0]
    marked = who.words * 60 / who.speaking_seconds  # the first segment's words, all the time
    delivered = take.delivered_wpm
    assert marked < 0.75 * delivered  # the marks alone say far too slow
    assert recorder.take_heard.rate_judged
    assert recorder.measured_rate() == pytest.approx(delivered, rel=0.15)
    assert recorder.rate_button.text() == f"Use {recorder.measured_rate():.0f} wpm as my rate"
    recorder.rate_button.click()
    assert about_store.words_per_minute(ctx.db) == pytest.approx(recorder.measured_rate(), abs=1)
    page.shutdown()


def test_the_audit_hook_sees_a_written_file(tmp_path):
    """The privacy check above must be able to fail."""
    _AUDIT.update(on=True, events=[])
    try:
        (tmp_path / "take.wav").write_bytes(b"")
    finally:
        _AUDIT["on"] = False
    assert _AUDIT["events"] == [("open", str(tmp_path / "take.wav"))]


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: no stacking, no hints
def test_the_nudge_listens_in_a_custom_rounds_type_too(card, ctx):
    """An imported 'Inference deep dive' round shows a page of its own (the generic one):
    the toggle there saved that page, and the mic never opened for the running round."""
    from companion.core.day import loops

    made: list = []
    card.voice._factory = fed_mic.factory(made, measure_levels=False)
    loop_id = loops.create_loop(ctx.db, "Acme", starts_on=ctx.now().date().isoformat())
    rid = loops.add_round(ctx.db, loop_id, "inference-deep-dive")
    loops.update_round(ctx.db, rid, type_label="Inference deep dive")
    card.day.choose_loop(loop_id)
    card.show_card()
    card.day.start_round(round_id=rid)
    assert card.running and not card.voice.mic_open
    card.voice.toggle.click()  # on the round's own page
    assert card.voice.toggle.text() == "Silence nudge: on"
    card.tick()
    assert card.voice.mic_open and len(made) == 1
    card.day.end_round(rid)
    assert not card.voice.mic_open
