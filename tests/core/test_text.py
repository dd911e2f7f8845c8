"""The field rule (companion.core.text) in its two forms, over every code point: what
clean_field strips or refuses, a JSON file can only spell in bytes json_plain sees."""

from __future__ import annotations

import json

import pytest

from companion.core.text import (
    CONTROL_CHARS,
    LONE_SURROGATE,
    FieldTextError,
    clean_field,
    json_may_hold_lone_surrogate,
    json_plain,
    topic_key,
)


def _spellings(char: str) -> list[bytes]:
    """Every way a strict JSON file (UTF-8) can hold ``char`` as a string."""
    code = ord(char)
    out = [b'"\\u%04x"' % code, b'"\\u%04X"' % code] if code < 0x10000 else []
    out.append(json.dumps(char).encode("ascii"))  # \\b, \\f, \\n ... or a surrogate pair
    try:
        out.append(b'"%s"' % char.encode("utf-8"))  # raw
    except UnicodeEncodeError:
        pass  # a lone surrogate has no UTF-8 form
    readable = []
    for raw in out:
        try:
            if json.loads(raw.decode("utf-8")) == char:  # strict: no raw C0 control
                readable.append(raw)
        except ValueError:
            pass
    return readable


@pytest.mark.parametrize("plane", [0, 1, 14, 16])
def test_every_character_the_rule_touches_makes_its_file_not_plain(plane):
    seen = 0
    for code in range(plane << 16, (plane + 1) << 16, 1 if plane == 0 else 97):
        char = chr(code)
        touched = bool(CONTROL_CHARS.search(char) or LONE_SURROGATE.search(char))
        spellings = _spellings(char)
        assert spellings, f"U+{code:04X} has no spelling"
        for raw in spellings:
            doc = b'{"a": %s}' % raw
            if touched:
                assert not json_plain(doc), f"U+{code:04X} as {raw!r}"
                seen += 1
            if LONE_SURROGATE.search(char):
                assert json_may_hold_lone_surrogate(doc), f"U+{code:04X} as {raw!r}"
        if not touched:  # kept by the rule, and its raw spelling is plain when legal
            assert clean_field(char) == (char, 0)
            raw = [r for r in spellings if b"\\" not in r]
            assert all(json_plain(b'{"a": %s}' % r) for r in raw)
    assert seen or plane  # the BMP holds both kinds


def test_the_rule_strips_c0_and_del_keeps_tab_newline_return_and_refuses_surrogates():
    assert clean_field("a\tb\nc\rd") == ("a\tb\nc\rd", 0)
    assert clean_field("A\x00c\x1bm\x7fe\x9b\ufeff") == ("Acme\x9b\ufeff", 3)
    with pytest.raises(FieldTextError, match=r"lone surrogate \(U\+DC01\) at position 2"):
        clean_field("ab\udc01")


def test_an_escaped_surrogate_pair_is_seen_and_plain_text_is_not():
    assert json_may_hold_lone_surrogate(json.dumps("\U0001f600").encode())
    assert not json_may_hold_lone_surrogate(json.dumps("caf\u00e9", ensure_ascii=False).encode())


def test_count_of_says_one_round_and_four_rounds():
    from companion.core.text import count_of

    assert count_of(1, "round") == "1 round"
    assert count_of(4, "round") == "4 rounds"
    assert count_of(0, "story", "stories") == "0 stories"


def test_no_message_of_the_app_counts_with_a_bracketed_plural():
    """'Wrote 1 loop(s)', '0 entr(ies)': every count the app says goes through count_of
    (the walk read 'Added 20 loop(s)' after the import's own wording was fixed)."""
    import ast
    import re
    from pathlib import Path

    import companion

    bracketed = re.compile(r"[a-z]\((s|es|ies)\)")
    found = []
    for path in sorted(Path(companion.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value.replace("http(s)", "")
                if bracketed.search(text) and "\n" not in text.strip():  # not a docstring
                    found.append(f"{path.name}:{node.lineno}: {text[:60]!r}")
    assert not found, found


# --- for_terminal ------------------------------------------------------------------------


def test_for_terminal_shows_every_control_but_tab_and_newline():
    from companion.core.text import for_terminal

    for code in [*range(0x20), *range(0x7F, 0xA0)]:
        char = chr(code)
        shown = for_terminal(f"a{char}b")
        if char in "\t\n":
            assert shown == f"a{char}b"
        else:
            assert shown == f"a\\u{code:04x}b"


def test_for_terminal_escapes_parse_back_in_json():
    import json

    from companion.core.text import for_terminal

    text = "\x1b]52;c;eA==\x07 \u202e caf\u00e9 \u2014 \U0001f600 \udc80"
    dumped = json.dumps({"t": text}, ensure_ascii=False)
    for encoding in ("utf-8", "ascii", "latin-1"):
        shown = for_terminal(dumped, encoding, data=True)
        shown.encode(encoding)
        assert json.loads(shown)["t"] == text


def test_for_terminal_gives_plain_forms_to_a_narrow_terminal():
    from companion.core.text import for_terminal

    assert for_terminal("Acme \u2014 caf\u00e9 \u2026 \u4e2d", "ascii") == "Acme - caf? ... ?"
    assert for_terminal("Acme \u2014 caf\u00e9", "latin-1") == "Acme - caf\u00e9"
    assert for_terminal("x", "no-such-codec") == "x"


def test_topic_key_ignores_case_accents_and_punctuation():
    assert topic_key("  Consistent-Hashing! ") == topic_key("consistent hashing")
    assert topic_key("Café") == topic_key("cafe")
