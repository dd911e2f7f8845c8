"""Real recognizer, an espeak-ng take: the warm-up on a take's first seconds learns the
voice (the decoder's cepstral mean) through a one-word search, then hears the script."""

from __future__ import annotations

import pytest
import voice_hearing as vh
import voice_takes as vt

from companion.core.voice.heard import WARM_SECONDS
from companion.core.voice.pcm import resample
from companion.core.voice.recognizer import SAMPLE_RATE, ScriptRecognizer
from companion.core.voice.script import pitch_script
from companion.core.voice.take import read_wav

pytestmark = [
    pytest.mark.voice,
    pytest.mark.skipif(
        vt.missing_tools() is not None, reason=f"espeak-ng/sox: {vt.missing_tools()}"
    ),
]


def test_the_warm_up_learns_the_voice_and_hands_back_the_script_search(tmp_path):
    take = vt.build(tmp_path, "pitch", 160, vh.layout(vt.PITCH[:2]), snr_db=20.0)
    wav = read_wav(take.path)
    audio = resample(wav.samples, wav.sample_rate, SAMPLE_RATE)
    script = pitch_script(vt.pitch_page())
    recognizer = ScriptRecognizer([s for seg in script for s in seg.sentences])
    before = recognizer._decoder.get_cmn(False)
    recognizer.warm_up(audio[: int(WARM_SECONDS * SAMPLE_RATE)], SAMPLE_RATE // 10)
    assert recognizer._decoder.get_cmn(False) != before  # the voice was learnt
    assert recognizer.words == [] and recognizer.now == 0.0  # back at the stream's start
    for i in range(0, len(audio), SAMPLE_RATE // 10):
        recognizer.feed(audio[i : i + SAMPLE_RATE // 10])
    heard = [w.text for w in recognizer.words + recognizer.finish()]
    # the script's search, not the warm-up's one word
    assert {"infrastructure", "engineer", "scheduler", "rewrite"} <= set(heard)
