"""The Qt side of the platform seam (the core's is ``companion.core.platform``): hotkeys
(the X11 grab and the portal live in ``companion.ui.hotkeys``; here Windows, macOS and the
portable in-app keys), the card's window behaviour on macOS, and the Windows app id that
notifications are shown under. Each OS call goes through a library object the caller may
pass in (a ``user32``, Carbon, the Objective-C runtime), so its logic runs anywhere."""
