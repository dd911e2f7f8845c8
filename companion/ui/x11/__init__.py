"""The X11 side of the desktop that Qt does not cover: an X connection of the app's own."""
