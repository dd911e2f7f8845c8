"""What `companion doctor` checks, as data.

A check only looks: the database is opened read-only, no folder or file is created and
nothing is moved. ``repair=True`` (`companion doctor --repair`) opens it the normal way,
which creates what is missing, migrates, and moves a damaged file aside.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
from dataclasses import dataclass, field
from pathlib import Path

from companion import __version__
from companion.core import paths
from companion.core.content.loader import default_folders, load_content
from companion.core.fileio import planted
from companion.core.platform.files import describe_kind
from companion.core.platform_choice import choose_platform
from companion.core.storage.schema import known_steps
from companion.core.storage.store import StorageError, foreign_backups, list_backups, open_store
from companion.core.text import count_of


@dataclass
class HealthReport:
    lines: list[str] = field(default_factory=list)
    healthy: bool = True

    def ok(self, text: str) -> None:
        self.lines.append(f"  {text}")

    def bad(self, text: str) -> None:
        self.lines.append(f"! {text}")
        self.healthy = False

    def warn(self, text: str) -> None:
        """Worth knowing, but not unhealthy (e.g. a shared folder the user chose)."""
        self.lines.append(f"~ {text}")


READ_ONLY_STILL_WORKS = (
    "it can still be read: `companion journal export` and `companion export study-list` "
    "work, and `--data-dir` on a writable copy of the folder gives the app back"
)


def _check_writable(report: HealthReport, data_dir: Path, db_file: Path) -> None:
    """A journal that opens for reading but not for writing is unhealthy: say what the
    app and the commands will do with it (read-only exports yes, the window and saves no)."""
    why = paths.not_writable(data_dir)
    if why:
        report.bad(
            f"the folder {data_dir} {why}: the app will not open this journal (it asks for "
            "another folder) and every command but doctor and the exports refuses (today, imports, "
            "schedule import); " + READ_ONLY_STILL_WORKS
        )
    elif not os.access(db_file, os.W_OK):
        try:
            mode = f" (mode {stat.S_IMODE(db_file.stat().st_mode):o})"
        except OSError:
            mode = ""
        report.bad(
            f"the journal {db_file} is read-only{mode}: the app opens it but every save "
            "fails, and commands that save (imports, schedule import) refuse; "
            + READ_ONLY_STILL_WORKS
            + "; `chmod 600` it if it should be writable"
        )


# the data folder's own entries besides the journal and backups/: what each must be, and
# what the app does when it is something else (README.md, "Your data")
ENTRIES = (
    (paths.PREFS_NAME, "file", "the preferences are not read (defaults are used)"),
    (paths.DND_STATE_NAME, "file", "a do-not-disturb pause cannot be recorded or undone"),
    (paths.INSTANCE_LOCK_NAME, "file", "the app cannot start on this folder"),
    (paths.CONTENT_NAME, "folder", "your own content packs are not loaded"),
    (paths.TAKES_NAME, "folder", "rehearsal takes cannot be kept"),
)


def entry_problem(path: Path, want: str) -> str | None:
    """What ``path`` is instead of a regular file (``want='file'``) or a folder, or None
    (also None when nothing is there: the app creates it when needed)."""

    if not os.path.lexists(path):
        return None
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return f"is a symbolic link to {os.readlink(path)}, which does not exist"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "is a symbolic link loop"
        return f"cannot be used ({exc.strerror or exc})"
    if want == "folder" and not stat.S_ISDIR(st.st_mode):
        kind = describe_kind(st.st_mode)
        return f"is {'a file' if kind == 'not a regular file' else kind}, not a folder"
    if want == "file" and not stat.S_ISREG(st.st_mode):
        return f"is {describe_kind(st.st_mode)}, not a regular file"
    if want == "file" and path.name != paths.INSTANCE_LOCK_NAME:
        why = planted(path)
        if why:
            return f"{why}, so it is not read"
    return None


def _check_entries(report: HealthReport, data_dir: Path) -> None:
    for name, want, then in ENTRIES:
        path = Path(data_dir) / name
        problem = entry_problem(path, want)
        if problem:
            report.bad(f"{path} {problem}: {then}; move it away (nothing was changed)")


def _check_backup_files(report: HealthReport, folder: Path) -> None:
    """A 'backup' that is not a regular file of ours is skipped by the app: say so."""
    try:
        names = sorted(p.name for p in folder.glob("companion-*.sqlite3"))
    except OSError:
        return
    for name in names:
        problem = entry_problem(folder / name, "file")
        if problem:
            report.bad(
                f"{folder / name} {problem.replace(', so it is not read', '')}: it is not "
                "a backup the app takes, lists or restores; move it away"
            )


def check_health(data_dir: Path, *, repair: bool = False) -> HealthReport:
    report = HealthReport()
    report.ok(f"version: {__version__}")
    report.ok(f"data folder: {data_dir}")

    platform = choose_platform(os.environ)
    report.ok(f"display platform: {platform.platform} ({platform.reason})")
    db_file = paths.db_path(data_dir)
    report.ok(f"database: {db_file}")
    store = None
    if repair:
        try:
            store = open_store(db_file)
        except StorageError as exc:
            report.bad(str(exc))
        else:
            for notice in store.notices:
                report.ok(f"repaired: {notice}")
            _check_writable(report, data_dir, db_file)  # the same write check as doctor
    elif not db_file.exists() and not db_file.is_symlink():  # a dangling link is a problem
        problem = paths.folder_problem(data_dir)
        if problem:
            report.bad(problem)
        else:
            report.ok("no journal yet: it is created when the app or a command first needs it")
    else:
        try:
            store = open_store(db_file, read_only=True)
        except StorageError as exc:
            report.bad(str(exc))
        if store is not None:
            _check_writable(report, data_dir, db_file)
    if store is not None:
        try:
            version = store.schema_version()
            report.ok(f"schema version: {version} (this app knows {len(known_steps())})")
            if store.pending_migrations:
                report.ok(
                    f"{count_of(store.pending_migrations, 'schema step')} to apply: the next start (or "
                    "`companion doctor --repair`) upgrades it, after a backup"
                )
            result = store.db.execute("PRAGMA integrity_check").fetchone()[0]
            (report.ok if result == "ok" else report.bad)(f"integrity: {result}")
            mode = store.db.execute("PRAGMA journal_mode").fetchone()[0]
            report.ok(f"journal mode: {mode}")
        except sqlite3.Error as exc:
            report.bad(f"database error: {exc}")
        finally:
            store.close()
    if os.name == "posix":
        for path, want in ((data_dir, 0o700), (db_file, 0o600)):
            try:
                mode = stat.S_IMODE(path.stat().st_mode)
            except OSError:
                continue
            if mode & ~want & 0o077:
                report.warn(
                    f"{path} is readable by others (mode {mode:o}; the app would make it "
                    f"{want:o}). It was left as it is: change it with chmod {want:o} if it "
                    "should be private."
                )
    backup_folder = paths.backup_dir(data_dir)
    if os.path.lexists(backup_folder) and not backup_folder.is_dir():
        report.bad(f"{backup_folder} is not a folder: no backup can be taken; move it away")
    _check_entries(report, data_dir)

    foreign = foreign_backups(backup_folder) if backup_folder.is_dir() else None
    if foreign:
        report.bad(foreign)
    elif backup_folder.is_dir():
        _check_backup_files(report, backup_folder)
    backups = list_backups(backup_folder)
    report.ok(
        f"backups: {len(backups)}" + (f", newest {backups[0].name}" if backups else " (none yet)")
    )
    folders = list(default_folders(paths.user_content_dir(data_dir)))
    content, errors = load_content(folders)
    report.ok(f"content: {len(content.sections)} sections from {', '.join(map(str, folders))}")
    for error in errors:
        report.bad(f"content error: {error}")
    return report
