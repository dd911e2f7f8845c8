"""Local speech recognition of what the candidate says, fed 16 kHz int16 PCM.

pocketsphinx (its wheel carries the en-us acoustic model and CMUdict) decodes against a
language model built from the script itself (``pocketsphinx.lm.ArpaBoLM``) with the
dictionary cut to the script's words plus the fillers: small, fast, and right far more
often than the generic model. pocketsphinx is imported when a recognizer is made, never
at start-up. Nothing is written: the language model reaches the decoder through an
in-memory file (``memfd``) where the platform has one, else a private temporary file
removed at once.

Audio reaches the decoder only while the voice-activity detector hears speech (with a
quarter second before it): silence costs almost nothing, and each stretch of speech is
one utterance whose words come back with their times in the whole stream.
"""

from __future__ import annotations

import functools
import io
import os
import tempfile
from array import array
from collections import deque
from dataclasses import dataclass

from companion.core.voice.script import FILLERS
from companion.core.voice.vad import VoiceActivityDetector

SAMPLE_RATE = 16000
PREROLL = 0.25  # seconds of audio before the detector's speech start, for the first phone
FRAMES_PER_SECOND = 100  # pocketsphinx's frame rate
FILLER_WEIGHT = 3  # each filler is this many one-word sentences in the model's corpus
# the background's share of the unigram mass: off-script speech comes out as everyday
# words (benchmarks/voice_hearing.py: another text hears no segment), not as script words
BACKGROUND_SHARE = 0.2
BACKGROUND = os.path.join(os.path.dirname(__file__), "background.txt")
# live: no phone lookahead (7% -> 5% of a core while speaking). Every frame is scored:
# scoring every other one (4%) made the tentative words so poor beside everyday English
# that the card named a segment 3.1 s after its first sound, and a paraphrase not at all
# (benchmarks/voice_hearing.py, voice_corpus.follow_wrong). The script's words weigh more
# (lw 8, was the default 6.5) and a longer word less penalised (pip 3, was 1): after a swap
# the tentative words had "off might off" for "at my last" until "company" was said, 1.1 s
# in; now "my last" 0.7 s in (lw 10 alone: the card named a script segment for 5.3 s in
# talk off the script, benchmarks/voice_corpus.py follow_wrong)
_LIVE = {"pl_window": 0, "lw": 8.0, "pip": 3.0}
_WARM = "warm-up"
_SOUNDS = frozenset({"[SPEECH]"})  # the acoustic model's own filler: a speech sound that is no word
_NOT_WORDS = {"<s>", "</s>", "<sil>", "[NOISE]"} | _SOUNDS


class RecognizerError(RuntimeError):
    """The recognizer could not be made (no pocketsphinx, no model); one line."""


@dataclass(frozen=True)
class HeardWord:
    text: str
    start: float  # seconds into the stream
    end: float
    gap_before: float = 0.0  # silence the decoder put just before it, seconds
    gap_after: float = 0.0
    # a sound the decoder heard as speech but no word (its filler dictionary's [SPEECH],
    # outside the language model): where a run-in "uh" goes; text "uh", so a filler
    sound: bool = False

    @property
    def filler(self) -> bool:
        return self.text in FILLERS


def _pronunciations(words: set[str], dictionary: str) -> dict[str, str]:
    """CMUdict entries (alternates included, as ``word(2)``) for ``words``, found by
    bisecting the sorted file's text (scanning its 135,000 lines took 0.4 s)."""
    with open(dictionary, encoding="utf-8") as handle:
        data = handle.read()
    out: dict[str, str] = {}
    for word in sorted(words):
        lo, hi = 0, len(data)  # line starts: before lo, keys < word; from hi on, >= word
        while lo < hi:
            start = data.rfind("\n", 0, (lo + hi) // 2) + 1
            start = max(start, lo)
            end = data.find("\n", start)
            end = len(data) if end < 0 else end
            if _key(data, start, end) < word:
                lo = end + 1
            else:
                hi = start
        while lo < len(data):
            end = data.find("\n", lo)
            end = len(data) if end < 0 else end
            if _key(data, lo, end) != word:
                break
            entry, _, phones = data[lo:end].partition(" ")
            out[entry] = phones.strip()
            lo = end + 1
    return out


def _key(data: str, start: int, end: int) -> str:
    return data[start:end].split(" ", 1)[0].split("(", 1)[0]


@functools.cache
def common_words(count: int) -> frozenset[str]:
    """The ``count`` commonest everyday words (background.txt is in frequency order)."""
    return frozenset(list(_background())[:count])


@functools.cache
def _read_background() -> tuple[tuple[str, float], ...]:
    out = []
    try:
        with open(BACKGROUND, encoding="utf-8") as handle:
            for line in handle:
                if not line.startswith("#"):
                    word, _, logp = line.partition(" ")
                    out.append((word, 10 ** float(logp)))
    except (OSError, ValueError):
        return ()  # the script alone, as before
    return tuple(out)


def _background() -> dict[str, float]:
    """Everyday words and their probabilities (background.txt: ``word log10p`` lines)."""
    return dict(_read_background())


def _mix(model, everyday: dict[str, float], share: float) -> None:
    """Add ``everyday`` words to ``model``'s unigram counts so they hold ``share`` of the
    mass (in proportion to their own probabilities); they have no n-grams of their own,
    so a script phrase still outweighs them where it fits."""
    if not everyday or not 0 < share < 1:
        return
    script = sum(c for w, c in model.grams_1.items() if w not in ("<s>", "</s>"))
    total = sum(everyday.values())
    scale = script * share / (1 - share) / total
    for word, p in everyday.items():
        model.grams_1[word] += p * scale


def _model_path(text: str, keep: list) -> str:
    """A path the decoder can read ``text`` from, without a file on disk where possible."""
    data = text.encode("utf-8")
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("companion-lm")
        os.write(fd, data)
        keep.append(fd)
        return f"/proc/self/fd/{fd}"
    handle = tempfile.NamedTemporaryFile(suffix=".lm", delete=False)  # noqa: SIM115
    handle.write(data)
    handle.close()
    keep.append(handle.name)
    return handle.name


def _release(keep: list) -> None:
    for item in keep:
        if isinstance(item, int):
            os.close(item)
        else:
            try:
                os.unlink(item)
            except OSError:
                pass
    keep.clear()


class ScriptRecognizer:
    """Recognize speech against the sentences the candidate will say."""

    def __init__(
        self,
        sentences: list[list[str]] | list[tuple[str, ...]],
        *,
        live: bool = False,
        background: float = BACKGROUND_SHARE,
    ):
        """``live``: skip the decoder's second (flat-lexicon) pass at each pause (a third
        of the CPU) and decode lighter (``_LIVE``); a recorded take keeps the full search.
        ``background``: the share of the model's unigram mass given to everyday English
        (background.txt), so words off the script have words of their own to become."""
        try:
            import pocketsphinx
            import pocketsphinx.lm
        except ImportError:
            raise RecognizerError(
                "speech recognition is not installed (pocketsphinx); add it with: "
                "pip install 'interview-companion[voice]'"
            ) from None
        root = os.path.join(pocketsphinx.get_model_path(), "en-us")
        everyday = _background() if background > 0 else {}
        vocabulary = {w for s in sentences for w in s} | set(FILLERS) | set(everyday)
        try:
            prons = _pronunciations(vocabulary, os.path.join(root, "cmudict-en-us.dict"))
        except OSError as exc:
            raise RecognizerError(f"the recognizer's dictionary is missing ({exc})") from None
        known = {e.split("(", 1)[0] for e in prons}
        self.unknown = sorted(vocabulary - known)  # words the recognizer cannot hear
        corpus = [" ".join(w for w in s if w in known) for s in sentences]
        corpus = [line for line in corpus if line]
        corpus += [f for f in FILLERS if f in known] * FILLER_WEIGHT
        if not corpus:
            raise RecognizerError("there is nothing to listen for: the script has no words")
        model = pocketsphinx.lm.ArpaBoLM(text="\n".join(corpus), add_start=True)
        _mix(model, {w: p for w, p in everyday.items() if w in known}, background)
        model.compute()
        arpa = io.StringIO()
        model.write(arpa)
        keep: list = []
        try:
            self._decoder = pocketsphinx.Decoder(
                hmm=os.path.join(root, "en-us"),
                lm=None,
                dict=None,
                samprate=SAMPLE_RATE,
                loglevel="FATAL",
                fwdflat=not live,
                **(_LIVE if live else {}),
            )
            for entry, phones in prons.items():
                self._decoder.add_word(entry, phones, False)
            lm = pocketsphinx.NGramModel(
                self._decoder.config, self._decoder.logmath, _model_path(arpa.getvalue(), keep)
            )
            self._decoder.add_lm("script", lm)
            self._decoder.activate_search("script")
            # the warm-up's search (warm_up): one word, so learning the voice costs the
            # front end and little else
            self._decoder.add_keyphrase(_WARM, FILLERS[0])
        except (RuntimeError, ValueError) as exc:
            raise RecognizerError(f"the recognizer would not start ({exc})") from None
        finally:
            _release(keep)
        self._vad = VoiceActivityDetector(SAMPLE_RATE)
        self._preroll: deque[array] = deque()
        self._preroll_len = 0
        self._fed = 0  # samples seen so far (the stream's clock)
        self._utt_start: int | None = None  # sample where the open utterance starts
        self.words: list[HeardWord] = []  # final words, in order

    @property
    def now(self) -> float:
        return self._fed / SAMPLE_RATE

    @property
    def in_utterance(self) -> bool:
        return self._utt_start is not None

    def feed(self, samples: array) -> list[HeardWord]:
        """Analyse 16 kHz int16 samples; returns the words made final by this chunk."""
        if not samples:
            return []
        final: list[HeardWord] = []
        events = self._vad.feed(samples)
        chunk_start = self._fed
        self._fed += len(samples)
        if self._utt_start is None:
            starts = [e for e in events if e.kind == "start"]
            if starts or self._vad.speaking:
                self._open(chunk_start)
                self._decoder.process_raw(samples.tobytes(), False, False)
            else:
                self._remember(samples)
        else:
            self._decoder.process_raw(samples.tobytes(), False, False)
        if self._utt_start is not None and not self._vad.speaking:
            final = self._close()
        return final

    def warm_up(self, audio: array, chunk: int) -> None:
        """Learn the voice and the room (the decoder's cepstral mean) from ``audio`` fed as
        the stream would be, through a one-word search instead of the script's (the mean
        comes from the front end whatever is searched: a full decode of a take's first
        6 s cost a tenth of the take's CPU), then :meth:`restart`."""
        self._decoder.activate_search(_WARM)
        for i in range(0, len(audio), chunk):
            self.feed(audio[i : i + chunk])
        self.finish()
        self._decoder.activate_search("script")
        self.restart()

    def restart(self) -> None:
        """Back to the stream's start, keeping what the decoder learnt of the voice and the
        room (its cepstral mean): a recorded take decoded after a warm-up on its first
        seconds is heard from its first word as well as from its last."""
        if self._utt_start is not None:
            self._decoder.end_utt()
        cmn = self._decoder.get_cmn(False)
        self._decoder.set_cmn(cmn)
        self._vad = VoiceActivityDetector(SAMPLE_RATE)
        self._preroll.clear()
        self._preroll_len = 0
        self._fed = 0
        self._utt_start = None
        self.words = []

    def partial(self) -> list[HeardWord]:
        """The open utterance's words as the decoder sees them now (they may change)."""
        if self._utt_start is None:
            return []
        return self._segments()

    def finish(self) -> list[HeardWord]:
        """End of the stream: the open utterance's words made final."""
        return self._close() if self._utt_start is not None else []

    def _remember(self, samples: array) -> None:
        self._preroll.append(samples)
        self._preroll_len += len(samples)
        limit = int(PREROLL * SAMPLE_RATE)
        while self._preroll and self._preroll_len - len(self._preroll[0]) >= limit:
            self._preroll_len -= len(self._preroll.popleft())

    def _open(self, chunk_start: int) -> None:
        self._decoder.start_utt()
        self._utt_start = chunk_start - self._preroll_len
        for part in self._preroll:
            self._decoder.process_raw(part.tobytes(), False, False)
        self._preroll.clear()
        self._preroll_len = 0

    def _close(self) -> list[HeardWord]:
        self._decoder.end_utt()
        words = self._segments()
        self._utt_start = None
        self.words.extend(words)
        return words

    def _segments(self) -> list[HeardWord]:
        offset = (self._utt_start or 0) / SAMPLE_RATE
        segments = self._decoder.seg() or ()  # None before the first hypothesis
        raw = [(s.word.split("(", 1)[0], s.start_frame, s.end_frame + 1) for s in segments]
        said = [token[0] for token in raw if token[0] not in _NOT_WORDS]
        # a sound counts among words only (a cough or a breath on its own is no speech)
        spoke = bool(said)
        # an um or uh said on its own has the detector's silence on both sides, however
        # short the decoder's <s> and </s> beside it (0.03 s: an isolated "uh" went uncounted)
        alone = len(said) == 1 and said[0] in FILLERS and not _SOUNDS & {t[0] for t in raw}
        out = []
        for i, (word, start, end) in enumerate(raw):
            before = raw[i - 1] if i and not alone else None
            after = raw[i + 1] if i + 1 < len(raw) and not alone else None
            if word in _NOT_WORDS and not (spoke and word in _SOUNDS):
                continue
            out.append(
                HeardWord(
                    FILLERS[1] if word in _SOUNDS else word,
                    offset + start / FRAMES_PER_SECOND,
                    offset + end / FRAMES_PER_SECOND,
                    _gap(before),
                    _gap(after),
                    sound=word in _SOUNDS,
                )
            )
        return out


def _gap(neighbour) -> float:
    """Silence length of a neighbouring decoder token (the utterance's edge counts as long)."""
    if neighbour is None:
        return 1.0
    word, start, end = neighbour
    return (end - start) / FRAMES_PER_SECOND if word in _NOT_WORDS else 0.0
