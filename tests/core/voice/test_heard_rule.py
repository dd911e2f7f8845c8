"""When a segment counts as heard: its own key words, not everyday words any speech
makes (issue 39: another text came back with segments "heard")."""

from __future__ import annotations

from companion.core.voice.align import Aligner
from companion.core.voice.heard import summarise
from companion.core.voice.recognizer import HeardWord, common_words
from companion.core.voice.script import pitch_script

PAGE = """# About me

## Who I am

I am a nurse and I want it to be my main job to care for people.

## Why this role

Your hospital runs the largest children's ward in the region.
"""


def heard(text: str, start: float = 0.0) -> list[HeardWord]:
    return [
        HeardWord(w, start + 0.3 * n, start + 0.3 * n + 0.25) for n, w in enumerate(text.split())
    ]


def test_everyday_words_of_a_segment_do_not_make_it_heard():
    script = pitch_script(PAGE)
    aligner = Aligner(script)
    words = heard("i am a and i want it to be my")  # all common, in the script's order
    aligner.feed(words)
    assert len(aligner.state.matches) >= 3  # the aligner did match them
    result = summarise(aligner, words)
    assert result.skipped == ["identity", "why-role"]


def test_three_key_words_make_a_segment_heard():
    script = pitch_script(PAGE)
    aligner = Aligner(script)
    words = heard("i am a nurse and i want it to be my main job to care for people")
    aligner.feed(words)
    assert summarise(aligner, words).skipped == ["why-role"]


def test_the_common_words_are_everyday_english_in_frequency_order():
    common = common_words(200)
    assert {"the", "i", "my", "want", "it"} <= common
    assert "nurse" not in common and "hospital" not in common
    assert common_words(10) < common


def test_a_segment_starts_at_a_lone_short_word_just_before_it():
    # the clean take's "At my last company" came back as a lone "i" (0.09 s, silence on
    # each side: set aside as a possible filler) 0.26 s before "was company ...": the
    # segment's sound starts at the "i", not 0.33 s later
    import voice_takes as vt

    script = pitch_script(vt.pitch_page(vt.PITCH[:2]))
    words = heard(vt.PITCH[0][2].lower().replace(",", "").replace(".", ""))
    lone_at = words[-1].end + 1.0
    words.append(HeardWord("i", lone_at, lone_at + 0.09, 1.0, 0.26))
    rest = "was company we served forty thousand requests per second and hit a wall"
    words += heard(rest, lone_at + 0.35)
    aligner = Aligner(script)
    aligner.feed(words)
    result = summarise(aligner, words)
    evidence = {s.id: s for s in result.segments}["evidence"]
    assert result.skipped == [] and evidence.start == lone_at
    assert evidence.words_heard == len(rest.split())  # the "i" is not counted as a word


def _key_words(segment) -> list[str]:
    """The segment's own key words, in the script's order (none of the common ones)."""
    common = common_words(200)
    return list(dict.fromkeys(w for w in segment.words if w not in common))


def test_fewer_than_three_key_words_of_a_long_segment_do_not_make_it_heard():
    """The heard threshold (MIN_HEARD = 3): two of a segment's own words are a chance
    match, not the segment said; the third makes it heard."""
    script = pitch_script(PAGE)
    keys = _key_words(script[0])
    assert len(keys) > 3  # the rule's "all of them" case is the next test's
    for count, skipped in ((1, True), (2, True), (3, False)):
        # the segment's own words up to its count-th key word, in order
        said = list(script[0].words[: script[0].words.index(keys[count - 1]) + 1])
        aligner = Aligner(script)
        words = heard(" ".join(said))
        aligner.feed(words)
        assert ("identity" in summarise(aligner, words).skipped) is skipped, said


def test_a_segment_with_fewer_key_words_than_the_threshold_needs_all_of_them():
    page = "# About me\n\n## Who I am\n\nI am a nurse, a good one.\n\n## Why\n\nThe ward.\n"
    script = pitch_script(page)
    keys = _key_words(script[0])
    assert 0 < len(keys) < 3
    said = list(script[0].words)
    for count, skipped in ((1, True), (2, False)):  # both of its two key words: heard
        cut = said[: said.index(keys[count - 1]) + 1]
        aligner = Aligner(script)
        words = heard(" ".join(cut))
        aligner.feed(words)
        assert ("identity" in summarise(aligner, words).skipped) is skipped, cut


def test_a_take_mostly_off_the_script_gives_no_rate():
    # a real voice read against a script it did not say came back +26 to +29 % (words the
    # recognizer does not know come out as several): no rate rather than a wrong one
    script = pitch_script(PAGE)
    words = heard("the weather was nice and we went out for a walk by the river today")
    aligner = Aligner(script)
    aligner.feed(words)
    result = summarise(aligner, words)
    assert result.off_script_share == 1.0 and not result.rate_judged


def test_a_take_on_the_script_gives_a_rate():
    script = pitch_script(PAGE)
    words = heard("i am a nurse and i want it to be my main job to care for people")
    aligner = Aligner(script)
    aligner.feed(words)
    result = summarise(aligner, words)
    assert result.words_said == len(words)
    assert result.off_script_share == 0.0 and result.rate_judged


def test_an_um_inside_speech_counts_as_a_word_said_one_before_a_pause_does_not():
    # at 10 dB the recognizer put "um" where a paraphrase's words were lost in the noise
    # (-11.4 % take wpm); a real voice's word tails before a pause came back as "um" too
    script = pitch_script(PAGE)
    words = heard("i am a nurse and i want it to be my main job to care for people")
    inside = HeardWord("um", words[3].end, words[3].end + 0.2)
    words.insert(4, inside)  # no silence either side: a word not made out
    last = words[-1]
    tail = HeardWord("um", last.end, last.end + 0.3, 0.0, 0.5)  # then half a second of silence
    words.append(tail)
    aligner = Aligner(script)
    aligner.feed(words)
    result = summarise(aligner, words)
    assert result.words_said == 17 + 1  # the script's 17, the "um" inside
    assert result.fillers == 0
