"""Real recognizer, an espeak-ng take: an "uh" run into the words on both sides is heard
as a filler (the decoder takes it as a speech sound that is no word, its [SPEECH])."""

from __future__ import annotations

import pytest
import voice_hearing as vh
import voice_takes as vt

from companion.core.voice.heard import hear
from companion.core.voice.script import pitch_script
from companion.core.voice.take import read_wav

pytestmark = [
    pytest.mark.voice,
    pytest.mark.skipif(
        vt.missing_tools() is not None, reason=f"espeak-ng/sox: {vt.missing_tools()}"
    ),
]


def test_an_uh_run_into_the_words_is_counted(tmp_path):
    first, second = vh.FILLER_LAYOUT[1][0], vh.FILLER_LAYOUT[1][2]
    take = vt.build(tmp_path, "uh", 160, [0.5, (first,), ("uh",), (second,), 0.5])
    wav = read_wav(take.path)
    result = hear(wav.samples, wav.sample_rate, pitch_script(vt.pitch_page()))
    start, end = take.truth[1]
    assert [round(t, 1) for t in result.filler_times if start - 0.3 <= t <= end + 0.3] != []
    assert result.fillers == 1
