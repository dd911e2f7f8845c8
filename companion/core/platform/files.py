"""Who owns a file, who may write it, and how to open it: uids and mode bits on POSIX;
on Windows the access lists (not the mode bits) decide, and the checks say nothing."""

from __future__ import annotations

import os
import stat
import sys

#: open flags that exist on POSIX only (0 where the OS has none: the open still works)
NOFOLLOW: int = getattr(os, "O_NOFOLLOW", 0)
DIRECTORY: int = getattr(os, "O_DIRECTORY", 0)


def describe_kind(mode: int) -> str:
    """'a folder', 'a device', ... for a ``st_mode``."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


def owned_by_me(st: os.stat_result) -> bool:
    """Whether the file of ``st`` belongs to this process's user (always on Windows,
    where ``st_uid`` is 0 for every file)."""
    if sys.platform == "win32":
        return True
    return st.st_uid == os.geteuid()


def owner_name(uid: int) -> str:
    """A user's login name, or 'uid N' when it has none."""
    if sys.platform == "win32":
        return f"uid {uid}"
    import pwd

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def foreign(st: os.stat_result) -> str | None:
    """Why a file or folder (its ``st``) in the data folder must not be trusted, or None:
    another user owns it, or others may write it. Windows: None (its mode bits say only
    read-only or not; the folder's access list is what guards it)."""
    if sys.platform == "win32":
        return None
    if not owned_by_me(st):
        return f"belongs to another user ({owner_name(st.st_uid)})"
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o022:
        return f"can be written by others (mode {mode:o})"
    return None


def on_read_only_mount(path: os.PathLike | str) -> bool | None:
    """Whether ``path`` sits on a read-only file system; None when the OS cannot say."""
    if sys.platform == "win32":
        return None
    try:
        return bool(os.statvfs(path).f_flag & getattr(os, "ST_RDONLY", 1))
    except OSError:
        return None


def runtime_dir() -> str:
    """The user's runtime folder when ``XDG_RUNTIME_DIR`` is unset (``/run/user/UID``);
    '' on Windows, which has none."""
    if sys.platform == "win32":
        return ""
    return f"/run/user/{os.getuid()}"


def user_key() -> str:
    """This user, for names several users' processes share (a socket, a pipe): the uid
    on POSIX, the login name on Windows."""
    if sys.platform == "win32":
        return os.environ.get("USERNAME", "user")
    return str(os.getuid())
