"""The PDF's look: headings have room above and below (Qt takes the style sheet's margins)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.gui


def test_pdf_headings_have_space_above_and_below(qapp):
    from companion.core.about.render import SafeRenderer
    from companion.ui.about.export import build_document

    body = SafeRenderer().render(
        "# Ada Lovelace\n\nIntro.\n\n## Who I am\n\nText.\n\n### A project\n\nMore text."
    )
    doc, _layout = build_document(body)
    margins = {}
    block = doc.begin()
    while block.isValid():
        level = block.blockFormat().headingLevel()
        if level:
            margins[level] = (block.blockFormat().topMargin(), block.blockFormat().bottomMargin())
        block = block.next()
    assert margins[1][1] >= 4
    for level in (2, 3):
        above, below = margins[level]
        assert above >= 4 and below >= 2 and above > below, (level, above, below)


def test_the_template_fits_one_page_in_a4_and_letter(qtbot, ctx, bus):
    from companion.ui.about.export import build_document, page_count
    from companion.ui.about.page import AboutPage

    page = AboutPage(ctx, bus)  # a first start: the template, filled from the pack
    qtbot.addWidget(page)
    body = page.editing.renderer.render(page.editor.toPlainText())
    for size in ("a4", "letter"):
        doc, layout = build_document(body, size)
        assert page_count(doc, layout) == 1, size
    page.shutdown()
