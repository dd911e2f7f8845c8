"""Remake companion/core/voice/background.txt: the commonest words of the pocketsphinx
wheel's general en-us language model (en-us.lm.bin) with their unigram log10
probabilities, kept only when the wheel's dictionary can say them.

Usage: ``python benchmarks/make_background.py [--words N]`` (default 1000: 3000 heard the
same paraphrases and no segment of another text either, at 5 MiB more and a third more
CPU following; benchmarks/voice_paraphrase.py). The model is written out as ARPA text
into a temporary folder once (about 60 MB, a second)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "companion" / "core" / "voice" / "background.txt"
HEADER = (
    "# The {n:,} commonest words of the pocketsphinx wheel's general en-us language model "
    "(en-us.lm.bin),\n"
    "# with their unigram log10 probability: the background the script's model is mixed "
    "with.\n# Made by benchmarks/make_background.py.\n"
)

WRITE = """
import os, sys, pocketsphinx
root, out = sys.argv[1:]
decoder = pocketsphinx.Decoder(hmm=os.path.join(root, "en-us"), lm=None, dict=None, loglevel="FATAL")
model = pocketsphinx.NGramModel(decoder.config, decoder.logmath, os.path.join(root, "en-us.lm.bin"))
model.write(out, 1)  # 1: ARPA text
"""


def unigrams(arpa: Path):
    inside = False
    with open(arpa, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if line.startswith("\\1-grams:"):
                inside = True
            elif line.startswith("\\2-grams:"):
                return
            elif inside and (parts := line.split()) and len(parts) >= 2:
                yield parts[1], float(parts[0])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--words", type=int, default=1000)
    args = parser.parse_args()
    import pocketsphinx

    root = os.path.join(pocketsphinx.get_model_path(), "en-us")
    with open(os.path.join(root, "cmudict-en-us.dict"), encoding="utf-8") as handle:
        known = {line.split(" ", 1)[0].split("(", 1)[0] for line in handle}
    with tempfile.TemporaryDirectory() as tmp:
        arpa = Path(tmp) / "general.arpa"
        # in a child: pocketsphinx 5.1.1 crashes after writing the model out
        subprocess.run([sys.executable, "-c", WRITE, root, str(arpa)], check=False)
        if not arpa.exists() or arpa.stat().st_size == 0:
            print("make_background: the general model could not be written out", file=sys.stderr)
            return 1
        words = sorted(
            ((w, p) for w, p in unigrams(arpa) if w in known and w.replace("'", "").isalpha()),
            key=lambda item: -item[1],
        )[: args.words]
    OUT.write_text(
        HEADER.format(n=len(words)) + "".join(f"{w} {p:.4f}\n" for w, p in words),
        encoding="utf-8",
    )
    print(f"{OUT}: {len(words)} words")
    return 0


if __name__ == "__main__":
    sys.exit(main())
