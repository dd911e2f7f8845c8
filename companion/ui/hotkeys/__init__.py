"""Global hotkeys: the X11 key grab, the desktop portal, the service that picks one, and
the settings dialog."""
