"""`companion doctor` says which display platform the app will use and why."""

from __future__ import annotations

from companion.cli import main


def test_doctor_names_the_platform_and_the_reason(data_dir, capsys, monkeypatch):
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("COMPANION_WAYLAND", raising=False)
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    monkeypatch.setenv("DISPLAY", ":5")
    main(["doctor"])
    out = capsys.readouterr().out
    assert "display platform: xcb (Wayland session with XWayland (DISPLAY=:5)" in out
    monkeypatch.setenv("COMPANION_WAYLAND", "1")
    main(["doctor"])
    assert "display platform: wayland (COMPANION_WAYLAND=1: native Wayland" in (
        capsys.readouterr().out
    )
