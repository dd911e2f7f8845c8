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

_MARKER = re.compile(r"[ \t]*\{\s*#?[a-z][a-z-]*\s*\}[ \t]*$", re.IGNORECASE)
_SAFE_HREF = re.compile(r"^(?:https?:|mailto:|#)", re.IGNORECASE)

PAGE_CSS = """
body { font-family: sans-serif; font-size: 11pt; line-height: 1.35; color: #1b1b1b; }
h1 { font-size: 18pt; margin: 0 0 6pt 0; }
h2 { font-size: 13pt; margin: 10pt 0 3pt 0; }
h3 { font-size: 11.5pt; margin: 8pt 0 2pt 0; }
p, li { margin: 0 0 4pt 0; }
table { border-collapse: collapse; margin: 4pt 0; }
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

    def render(self, text: str) -> str:
        """The HTML body for ``text``."""
        self._md.reset()
        return self._md.convert(strip_markers(text))


def strip_markers(text: str) -> str:
    """Remove ``{segment}`` markers from the ends of heading lines."""
    if "{" not in text:
        return text
    return re.sub(r"(?m)^(#{1,6}[ \t].*?)" + _MARKER.pattern, r"\1", text)


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
        match = re.match(r"^#[ \t]+(.+?)[ \t#]*$", line)
        if match:
            return _MARKER.sub("", match.group(1)).strip() or "About me"
    return "About me"
