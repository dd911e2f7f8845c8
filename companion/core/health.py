"""What `companion doctor` checks, as data."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from companion.core import paths


@dataclass
class HealthReport:
    lines: list[str] = field(default_factory=list)
    healthy: bool = True

    def ok(self, text: str) -> None:
        self.lines.append(f"  {text}")

    def bad(self, text: str) -> None:
        self.lines.append(f"! {text}")
        self.healthy = False


def check_health(data_dir: Path | None = None) -> HealthReport:
    from companion import __version__
    from companion.core.content import default_folders, load_content
    from companion.core.schema import known_steps
    from companion.core.storage import StorageError, list_backups, open_store

    data_dir = data_dir or paths.data_dir()
    report = HealthReport()
    report.ok(f"version: {__version__}")
    report.ok(f"data folder: {data_dir}")
    from companion.core.platform_choice import choose_platform

    platform = choose_platform(os.environ)
    report.ok(f"display platform: {platform.platform} ({platform.reason})")
    db_file = data_dir / "companion.sqlite3"
    report.ok(f"database: {db_file}")
    try:
        store = open_store(db_file)
    except StorageError as exc:
        report.bad(str(exc))
        store = None
    if store is not None:
        try:
            for notice in store.notices:
                report.bad(notice)
            version = store.schema_version()
            report.ok(f"schema version: {version} (this app knows {len(known_steps())})")
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
                mode = path.stat().st_mode & 0o777
                if mode & ~want:
                    report.bad(f"{path} is readable by others (mode {mode:o}; want {want:o})")
    backups = list_backups(data_dir / "backups")
    report.ok(
        f"backups: {len(backups)}" + (f", newest {backups[0].name}" if backups else " (none yet)")
    )
    folders = list(default_folders(data_dir / "content"))
    content, errors = load_content(folders)
    report.ok(f"content: {len(content.sections)} sections from {', '.join(map(str, folders))}")
    for error in errors:
        report.bad(f"content error: {error}")
    return report
