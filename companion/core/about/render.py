"""Markdown to safe HTML for the one-pager's preview and exports.

Python-Markdown with tables and sane lists. Raw HTML in the text is shown as text, never
interpreted; images are replaced by a visible "not loaded" note so that nothing, local or
remote, is ever fetched; links keep only http(s), mailto and in-page targets. Segment
markers such as ``{identity}`` are dropped from headings.
"""

from __future__ import annotations

import html
import re
from typing import Any

from companion.core.about.guard import RenderRefused, prepared

__all__ = ["RenderRefused", "SafeRenderer", "document_title", "html_page", "strip_markers"]

_SAFE_HREF = re.compile(r"^(?:https?:|mailto:|#)", re.IGNORECASE)

# margins in px: Qt's rich text (the preview, the PDF) ignores margins in pt, which left
# the headings tight against the text
PAGE_CSS = """
body { font-family: sans-serif; font-size: 11pt; line-height: 1.35; color: #1b1b1b; }
h1 { font-size: 18pt; margin-top: 0px; margin-bottom: 4px; }
h2 { font-size: 13pt; margin-top: 6px; margin-bottom: 3px; }
h3 { font-size: 11.5pt; margin-top: 4px; margin-bottom: 2px; }
p, li { margin-top: 0px; margin-bottom: 0px; }
table { border-collapse: collapse; margin-top: 3px; margin-bottom: 3px; }
th, td { border: 1px solid #999; padding: 2pt 5pt; }
code { font-family: monospace; }
.blocked-image { color: #8a5a00; }
"""


class SafeRenderer:
    """One reusable Markdown instance (building one costs more than a conversion)."""

    def __init__(self) -> None:
        import markdown
        from markdown.treeprocessors import Treeprocessor

        class _Sanitise(Treeprocessor):
            def run(self, root: Any) -> None:
                _sanitise_tree(root)

        md = markdown.Markdown(extensions=["tables", "sane_lists"], output_format="html")
        # Raw HTML becomes literal text: drop the block and inline HTML handlers.
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.treeprocessors.register(_Sanitise(md), "companion_sanitise", 0)
        self._md = md
        self._cache: dict[str, str] = {}

    def convert(self, text: str) -> str:
        """One whole-text conversion, no caching; :class:`RenderRefused` (one line) for
        text too deep or too long to render in about a second."""
        self._md.reset()
        return self._md.convert(prepared(strip_markers(text)))

    def render(self, text: str) -> str:
        """The HTML body for ``text``. Sections that start at a heading after a blank line
        are converted separately and cached, so after an edit only the edited section is
        converted again. Text with reference-style link definitions (which reach across
        sections) is converted whole."""
        return "\n".join(p for p in self.render_sections(text) if p)

    def render_sections(self, text: str) -> list[str]:
        """The HTML of each section of ``text`` (see :meth:`render`); one item when the
        text cannot be cut safely."""
        if _REFERENCE.search(text):
            return [self.convert(text)]
        chunks = split_sections(text)
        if len(chunks) > 1:  # the guard's totals are for the whole text, not per section
            prepared(strip_markers(text))  # (25,000 headings and paragraphs took 3 s)
        cache = self._cache
        fresh: dict[str, str] = {}
        parts = []
        for chunk in chunks:
            html = cache.get(chunk)
            if html is None:
                html = self.convert(chunk)
            fresh[chunk] = html
            parts.append(html)
        self._cache = fresh  # keep only the sections of the latest text
        return parts


_REFERENCE = re.compile(r"(?m)^ {0,3}\[[^\]\n]+\]:")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


def split_sections(text: str) -> list[str]:
    """``text`` cut before each ATX heading that follows a blank line (or starts the
    text), outside fenced code: places where Markdown starts a new block anyway."""
    lines = text.split("\n")
    chunks: list[str] = []
    start = 0
    in_fence = False
    previous_blank = True
    for number, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and line.startswith("#") and previous_blank and number > start:
            chunks.append("\n".join(lines[start:number]))
            start = number
        previous_blank = not line.strip()
    chunks.append("\n".join(lines[start:]))
    return chunks


def strip_markers(text: str) -> str:
    """Remove ``{segment}`` markers from the ends of heading lines (line by line, so a
    long heading of spaces costs one pass, not a backtracking regex)."""
    if "{" not in text:
        return text
    lines = text.split("\n")
    for n, line in enumerate(lines):
        if line.startswith("#") and "{" in line and _HEADING_START.match(line):
            lines[n] = _without_marker(line)
    return "\n".join(lines)


_HEADING_START = re.compile(r"#{1,6}[ \t]")
_MARKER_TAIL = re.compile(r"\{\s*#?[a-z][a-z-]*\s*\}", re.IGNORECASE)


def _without_marker(line: str) -> str:
    """``line`` without a trailing ``{marker}`` and the blanks around it."""
    body = line.rstrip(" \t")
    if not body.endswith("}"):
        return line
    brace = body.rfind("{")
    if brace < 0 or not _MARKER_TAIL.fullmatch(body, brace):
        return line
    return body[:brace].rstrip(" \t")


def _sanitise_tree(root: Any) -> None:
    for parent in root.iter():
        for index, child in enumerate(list(parent)):
            if child.tag == "img":
                src = child.get("src", "")
                alt = child.get("alt", "") or "image"
                note = child.makeelement("span", {"class": "blocked-image"})
                note.text = f"[image not loaded: {alt}{' — ' + src if src else ''}]"
                note.tail = child.tail
                parent.remove(child)
                parent.insert(index, note)
            elif child.tag == "a":
                href = child.get("href", "")
                if href and not _SAFE_HREF.match(href.strip()):
                    del child.attrib["href"]
                for attr in list(child.attrib):
                    if attr not in ("href", "title"):
                        del child.attrib[attr]


def html_page(body: str, title: str = "About me") -> str:
    """A standalone HTML document around a rendered body (no scripts, no remote links)."""
    return (
        '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">\n"
        f"<title>{html.escape(title)}</title>\n<style>{PAGE_CSS}</style>\n</head>\n"
        f"<body>\n{body}\n</body>\n</html>\n"
    )


def document_title(text: str) -> str:
    """The first level-one heading, for the exported page's title."""
    for line in text.splitlines()[:50]:
        match = _TITLE.match(line)
        if match:
            title = match.group(1).rstrip(" \t#") or match.group(1)[:1]
            return _without_marker(" " + title).strip() or "About me"
    return "About me"


_TITLE = re.compile(r"#[ \t]+(\S.*)$")
