"""Microphone features on the Qt side: the listener, the cue card's silence nudge and
the mic check. QtMultimedia is imported only inside these modules, never at start-up."""
