"""The take's WAV reader: what it refuses says the file's real format and the sox line
that converts it; an empty or cut-off file is refused in one line with its reason
(issue 39: "unknown format: 65534", an empty "()", "48443 words per minute")."""

from __future__ import annotations

import shutil
import subprocess
import wave

import pytest

from companion.core.voice.take import WavError, read_wav

SOX = "sox in.wav -b 16 -r 16000 -c 1 out.wav"
needs_sox = pytest.mark.skipif(shutil.which("sox") is None, reason="sox not installed")


def _sox(path, *args):
    subprocess.run(["sox", "-R", "-n", *args, str(path), "synth", "1", "sine", "440"], check=True)
    return path


def _refusal(path) -> str:
    with pytest.raises(WavError) as caught:
        read_wav(path)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"{path}: ")
    return message


def _pcm16(path, seconds=3.0, rate=16000):
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(b"\x10\x00" * int(seconds * rate))
    return path


@needs_sox
@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["-r", "44100", "-b", "24", "-c", "2"], "24-bit PCM WAV (44100 Hz, 2 channels)"),
        (["-r", "16000", "-e", "floating-point", "-b", "32", "-c", "1"], "32-bit float WAV"),
        (["-r", "8000", "-e", "u-law", "-c", "1"], "mu-law WAV (8000 Hz, mono)"),
        (["-r", "8000", "-b", "8", "-c", "1"], "8-bit PCM WAV"),
    ],
)
def test_a_wav_in_another_format_is_named_with_the_sox_line(tmp_path, args, named):
    message = _refusal(_sox(tmp_path / "in.wav", *args))
    assert named in message and SOX in message
    assert "unknown format" not in message


def test_a_text_file_is_not_a_wav_and_says_what_it_starts_with(tmp_path):
    path = tmp_path / "notes.wav"
    path.write_text("hello world, not audio\n")
    message = _refusal(path)
    assert "not a WAV file" in message and "'hello world," in message and SOX in message


def test_an_empty_file_and_a_wav_without_sound_each_say_so(tmp_path):
    empty = tmp_path / "empty.wav"
    empty.write_bytes(b"")
    assert "empty (0 bytes)" in _refusal(empty)
    silent = _pcm16(tmp_path / "none.wav", seconds=0)
    assert "holds no sound" in _refusal(silent)
    cut = tmp_path / "cut.wav"
    cut.write_bytes(_pcm16(tmp_path / "whole.wav").read_bytes()[:30])
    assert "cut off in its header" in _refusal(cut)


def test_a_truncated_wav_is_refused_with_what_it_promised_and_holds(tmp_path):
    whole = _pcm16(tmp_path / "whole.wav", seconds=3.0)
    cut = tmp_path / "cut.wav"
    cut.write_bytes(whole.read_bytes()[:20044])  # 44-byte header + 0.625 s of sound
    message = _refusal(cut)
    assert "truncated" in message and "3.0 s" in message and "0.6 s" in message


@pytest.mark.parametrize("tag", [b"LIST", b"fmt "])
def test_a_chunk_that_declares_4_gib_is_refused_with_its_sizes(tmp_path, tag):
    """A LIST or fmt chunk of 0xFFFFFFFF bytes in a small file: the reason names the chunk
    and both sizes (it was an empty reason)."""
    whole = _pcm16(tmp_path / "whole.wav", seconds=1.0).read_bytes()
    if tag == b"LIST":  # an INFO list before the data, as many editors write it
        info = b"LIST" + (0xFFFFFFFF).to_bytes(4, "little") + b"INFOISFT\x04\x00\x00\x00sox\x00"
        data = whole[:36] + info + whole[36:]
    else:
        data = whole[:16] + (0xFFFFFFFF).to_bytes(4, "little") + whole[20:]
    path = tmp_path / "huge.wav"
    path.write_bytes(data)
    message = _refusal(path)
    assert f"'{tag.decode().strip()}' chunk" in message and "4,294,967,295 bytes" in message
    assert f"only {len(data) - (36 if tag == b'LIST' else 12) - 8:,} follow" in message


def test_a_streamed_wav_without_its_length_is_read(tmp_path):
    data = bytearray(_pcm16(tmp_path / "whole.wav", seconds=1.0).read_bytes())
    data[40:44] = (0xFFFFFFFF).to_bytes(4, "little")  # as a writer to a pipe leaves it
    path = tmp_path / "streamed.wav"
    path.write_bytes(bytes(data))
    assert read_wav(path).seconds == pytest.approx(1.0)


def test_the_sound_after_other_chunks_is_read_where_it_starts(tmp_path):
    """The samples are read in place from the data chunk (not copied out by wave first):
    a LIST chunk of odd length before it, and a stereo take, give the first channel."""
    import struct

    frames = [(n * 7 - 300, -n) for n in range(800)]
    data = b"".join(struct.pack("<hh", left, right) for left, right in frames)
    fmt = struct.pack("<HHIIHH", 1, 2, 16000, 16000 * 4, 4, 16)
    info = b"INFOISFT\x05\x00\x00\x00sox\x00\x00"  # 15 bytes: padded to 16
    chunks = b"fmt " + struct.pack("<I", len(fmt)) + fmt
    chunks += b"LIST" + struct.pack("<I", len(info)) + info + b"\0"
    chunks += b"data" + struct.pack("<I", len(data)) + data
    path = tmp_path / "listed.wav"
    path.write_bytes(b"RIFF" + struct.pack("<I", 4 + len(chunks)) + b"WAVE" + chunks)
    take = read_wav(path)
    assert take.sample_rate == 16000
    assert list(take.samples) == [left for left, _ in frames]
