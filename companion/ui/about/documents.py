"""A document's actions, shared by the one-pager and the story bank: import, history,
export and print (and the one-pager's template)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from companion.core.about.export import export_html, export_markdown, format_for
from companion.core.about.importing import read_import
from companion.core.about.template import fill_template, minimal_template
from companion.core.content.plans import FALLBACK_PITCH
from companion.core.paths import exports_dir, resources_dir
from companion.ui.about.autosaving import AutosaveCycle, Document
from companion.ui.about.dialogs import HistoryDialog
from companion.ui.about.export import export_pdf_markdown, print_document
from companion.ui.widgets.opening import choose_file, open_dialog


def template_text(plan=None) -> str:
    """The starting one-pager for a new user (resources/templates/about-me.md), its pitch
    headings and timings filled from the content pack's ``plan``."""

    plan = plan or FALLBACK_PITCH  # no pack given
    try:
        text = (resources_dir() / "templates" / "about-me.md").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return minimal_template(plan)
    return fill_template(text, plan)


EXPORT_FILTERS = {"PDF (*.pdf)": "pdf", "HTML (*.html)": "html", "Markdown (*.md)": "md"}


class DocumentActions(QObject):
    """Replace, import, restore, export and print one document (the one-pager or the story
    bank) in ``editor``; writes go through the page's autosave ``editing`` cycle."""

    def __init__(
        self,
        page: QWidget,
        ctx,
        document: Document,
        *,
        editor,
        editing: AutosaveCycle,
        render: Callable[[], None],
        notice: Callable[[str], None],
    ):
        super().__init__(page)
        self._page = page  # the dialogs' parent
        self.ctx = ctx
        self._editor = editor
        self._editing = editing
        self._store = document.store
        self.document_name = document.name
        self.export_file = document.export_file
        self._render = render
        self._notice = notice
        self.history_dialog: HistoryDialog | None = None

    def replace_text(self, text: str, reason: str) -> None:
        """Put ``text`` in the editor as one undoable edit, keeping the old text as a
        revision first so nothing is lost."""
        current = self._editor.toPlainText()
        if current.strip():
            self._store.snapshot(self.ctx.db, current, self.ctx.now(), reason)
        self._editor.replace_all(text)
        self._editing.save_now("save")
        self._render()

    def import_file(self, path: Path) -> bool:
        try:
            result = read_import(Path(path))
        except ValueError as exc:
            self._notice(f"Not imported: {exc} Your {self.document_name} is unchanged.")
            return False
        self.replace_text(result.text, "import")
        note = f"Imported {Path(path).name}."
        if result.problems:
            note += " " + " ".join(result.problems)
        self._notice(note + " Undo (Ctrl+Z) or History brings back the previous text.")
        return True

    def import_dialog(self) -> None:
        choose_file(
            self._page,
            f"Import a {self.document_name}",
            Path.home(),
            "Markdown (*.md *.markdown *.txt);;All files (*)",
            lambda path, _filter: self.import_file(path),
            ctx=self.ctx,
        )

    def open_history(self) -> None:
        if self._editing.dirty:
            self._editing.save_now("save")
        self.history_dialog = HistoryDialog(
            self.ctx.db,
            self._page,
            store=self._store,
            title=f"{self.document_name[0].upper()}{self.document_name[1:]} history",
        )
        self.history_dialog.accepted.connect(self._history_chosen)
        self.history_dialog.open()

    def _history_chosen(self) -> None:
        dialog = self.history_dialog
        if dialog is not None and dialog.chosen_text is not None:
            self.replace_text(dialog.chosen_text, "restore")
            self._notice("Restored an earlier version. Undo (Ctrl+Z) returns to the text before.")

    def export_to(self, path: Path, fmt: str, page_size: str = "a4") -> str | None:
        """Export to ``path``; returns a warning (e.g. the PDF runs over one page) or None.
        OSError propagates with the reason."""
        text = self._editor.toPlainText()
        if fmt == "md":
            export_markdown(text, path)
            return None
        if fmt == "html":
            export_html(text, path)
            return None

        return export_pdf_markdown(text, path, page_size, self._editing.renderer).warning()

    def export_dialog(self) -> None:
        folder = exports_dir(self.ctx.data_dir)
        choose_file(
            self._page,
            f"Export the {self.document_name}",
            (folder if folder.is_dir() else Path.home()) / self.export_file,
            ";;".join(EXPORT_FILTERS),
            self.export_chosen,
            save=True,
            ctx=self.ctx,
        )

    def export_chosen(self, path: Path, name_filter: str) -> None:
        """Export to the file picked (a name without a suffix takes the chosen filter's)."""

        fmt = EXPORT_FILTERS.get(name_filter) or "pdf"
        if not path.suffix:
            path = path.with_suffix("." + fmt)
        else:
            try:
                fmt = format_for(path)
            except ValueError:
                pass
        try:
            warning = self.export_to(path, fmt)
        except OSError as exc:
            self._notice(f"Could not export to {path}: {exc.strerror or exc}")
            return
        self._notice(f"Exported to {path}." + (f" Warning: {warning}" if warning else ""))

    def print_dialog(self) -> None:
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        dialog = QPrintDialog(printer, self._page)
        title = f"Print the {self.document_name}"
        dialog.setWindowTitle(title)
        dialog.setAccessibleName(title)
        text = self._editor.toPlainText
        open_dialog(dialog, lambda: print_document(self._editing.renderer.render(text()), printer))
