"""Interview-day companion: a local-first desktop app for a technical interview loop."""

__version__ = "0.1.0"
APP_ID = "io.github.interviewcompanion.Companion"
APP_NAME = "Interview Companion"
