"""The cue card's text always fits: the glance text for every step and nudge of every
round, and the title, at the default and a larger text size, at 100% and (in a child
process with QT_SCALE_FACTOR=2) at 200%. Fitting means the text drawn at the size the
label picks lies inside the label: never clipped at the top or bottom."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

from companion.core.cue import rounds as cue_rounds
from companion.core.cue import timebox

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support")]

READABLE_PT = 8.0  # the glance text never shrinks below this at the card's default size


def _texts(card) -> list[tuple[str, str]]:
    """(where, text) for every glance text a day can show."""
    content = card.ctx.content
    found = []
    for info in card.infos:
        minutes = card.state.round_minutes(info)
        nudges = timebox.timebox_nudges(
            content.section(info.nudges) if info.nudges else None,
            minutes,
            content.round_defaults(),
        )
        for at in sorted({n.at for n in nudges}):
            text = "\n".join(n.text for n in nudges if n.at == at)
            found.append((f"{info.id} nudge at {at}", text))
        page = card._page(info)
        section = cue_rounds.stepper_section(page.sections)
        for n, line in enumerate(section.lines if section else []):
            found.append((f"{info.id} step {n + 1}", line.text))
        found.append((f"{info.id} title", info.title))
    return found


@pytest.fixture
def card(ctx, bus, qtbot):
    from companion.ui.cue.window import CueCardWindow

    window = CueCardWindow(ctx, bus)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.close()


@pytest.mark.parametrize("font_pt", [11, 16])
def test_every_glance_text_fits(card, font_pt):
    card.change_font(font_pt - card.state.font_pt)
    card.set_glance(True)
    QApplication.processEvents()
    label = card.glance_text
    assert label.contentsRect().height() > 0
    problems = []
    texts = _texts(card)
    assert len(texts) > 20, "the shipped content has rounds, steps and nudges"
    for where, text in texts:
        label.setText(text)
        font, fits = label.fitted_font()
        rect = label.contentsRect()
        drawn = QFontMetrics(font).boundingRect(rect, label._flags(), text)
        if not fits or not rect.contains(drawn):
            problems.append(f"{where}: {text[:50]!r} does not fit {rect.size().toTuple()}")
        elif font_pt == 11 and font.pointSizeF() < READABLE_PT:
            problems.append(f"{where}: shrunk to {font.pointSizeF()} pt")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("font_pt", [11, 16, 22])
def test_the_title_is_never_cut_mid_word(card, font_pt):
    card.change_font(font_pt - card.state.font_pt)
    QApplication.processEvents()
    for info in card.infos:
        card.set_round(info.id)
        QApplication.processEvents()
        font, fits = card.title.fitted_font()
        shown = card.title.text() if fits else card.title.elided(font, card.title.contentsRect())
        assert shown == info.short or (shown.endswith("…") and card.title.toolTip() == info.title)


@pytest.mark.slow
def test_it_all_fits_at_200_percent(tmp_path):
    env = {**os.environ, "QT_SCALE_FACTOR": "2", "QT_QPA_PLATFORM": "offscreen"}
    # the child runs the other tests of this file ("not 200"), never this one again
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "not 200",
         str(Path(__file__))],
        env=env, capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
