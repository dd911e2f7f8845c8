"""The day service: the one owner of "what is happening now" in the running app."""
