"""The About page's document actions: the template, import, history, export and print."""

from __future__ import annotations

from pathlib import Path

from companion.core.about.export import export_html, export_markdown, format_for
from companion.core.about.importing import read_import
from companion.core.about.template import fill_template, minimal_template
from companion.core.content.plans import FALLBACK_PITCH
from companion.core.paths import exports_dir, resources_dir
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


class AboutDocuments:
    """Replace, import, restore, export and print the one-pager; mixed into the About page
    (and the Stories tab, which names its own document)."""

    document_name = "one-pager"
    export_file = "about-me.pdf"

    def replace_text(self, text: str, reason: str) -> None:
        """Put ``text`` in the editor as one undoable edit, keeping the old text as a
        revision first so nothing is lost."""
        current = self.editor.toPlainText()
        if current.strip():
            self._store.snapshot(self.ctx.db, current, self.ctx.now(), reason)
        self.editor.replace_all(text)
        self.save_now("save")
        self.refresh()

    def use_template(self) -> None:
        self.replace_text(template_text(self.ctx.content.pitch_plan()), "template")
        self.show_notice(
            "Started from the template. Undo (Ctrl+Z) or History brings back your text."
        )

    def import_file(self, path: Path) -> bool:
        try:
            result = read_import(Path(path))
        except ValueError as exc:
            self.show_notice(f"Not imported: {exc} Your {self.document_name} is unchanged.")
            return False
        self.replace_text(result.text, "import")
        note = f"Imported {Path(path).name}."
        if result.problems:
            note += " " + " ".join(result.problems)
        self.show_notice(note + " Undo (Ctrl+Z) or History brings back the previous text.")
        return True

    def import_dialog(self) -> None:
        choose_file(
            self,
            f"Import a {self.document_name}",
            Path.home(),
            "Markdown (*.md *.markdown *.txt);;All files (*)",
            lambda path, _filter: self.import_file(path),
            ctx=self.ctx,
        )

    def open_history(self) -> None:
        if self.autosaver.dirty:
            self.save_now("save")
        self.history_dialog = HistoryDialog(
            self.ctx.db,
            self,
            store=self._store,
            title=f"{self.document_name[0].upper()}{self.document_name[1:]} history",
        )
        self.history_dialog.accepted.connect(self._history_chosen)
        self.history_dialog.open()

    def _history_chosen(self) -> None:
        dialog = self.history_dialog
        if dialog is not None and dialog.chosen_text is not None:
            self.replace_text(dialog.chosen_text, "restore")
            self.show_notice(
                "Restored an earlier version. Undo (Ctrl+Z) returns to the text before."
            )

    def export_to(self, path: Path, fmt: str, page_size: str = "a4") -> str | None:
        """Export to ``path``; returns a warning (e.g. the PDF runs over one page) or None.
        OSError propagates with the reason."""
        text = self.editor.toPlainText()
        if fmt == "md":
            export_markdown(text, path)
            return None
        if fmt == "html":
            export_html(text, path)
            return None

        return export_pdf_markdown(text, path, page_size, self.renderer).warning()

    def export_dialog(self) -> None:
        folder = exports_dir(self.ctx.data_dir)
        choose_file(
            self,
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
            self.show_notice(f"Could not export to {path}: {exc.strerror or exc}")
            return
        self.show_notice(f"Exported to {path}." + (f" Warning: {warning}" if warning else ""))

    def print_dialog(self) -> None:
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        dialog = QPrintDialog(printer, self)
        title = f"Print the {self.document_name}"
        dialog.setWindowTitle(title)
        dialog.setAccessibleName(title)
        open_dialog(
            dialog,
            lambda: print_document(self.renderer.render(self.editor.toPlainText()), printer),
        )
