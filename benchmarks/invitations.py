"""Synthetic calendar invitations for the .ics benchmark: one big custom VTIMEZONE (a
zone no provider knows, so it is built from the file) and N events that use it."""

from __future__ import annotations

ZONE_ID = "Custom/Benchmark Standard Time"


def big_zone(years: int = 3100) -> list[str]:
    """A VTIMEZONE with one STANDARD and one DAYLIGHT block per year (about 0.5 KiB each),
    the shape of an exporter that writes every transition out in full."""
    lines = ["BEGIN:VTIMEZONE", f"TZID:{ZONE_ID}"]
    for n in range(years):
        year = 1971 + n % 220
        lines += [
            "BEGIN:STANDARD",
            f"DTSTART:{year:04d}1025T030000",
            "TZOFFSETFROM:+0200",
            "TZOFFSETTO:+0100",
            "TZNAME:CBST",
            f"COMMENT:transition {n} of the benchmark zone (standard time)",
            "END:STANDARD",
            "BEGIN:DAYLIGHT",
            f"DTSTART:{year:04d}0329T020000",
            "TZOFFSETFROM:+0100",
            "TZOFFSETTO:+0200",
            "TZNAME:CBDT",
            f"COMMENT:transition {n} of the benchmark zone (daylight time)",
            "END:DAYLIGHT",
        ]
    return [*lines, "END:VTIMEZONE"]


def invitation(events: int, *, zone_years: int = 3100) -> str:
    """An invitation with ``events`` VEVENTs, each with a TZID start and end; with
    ``zone_years=0`` the events name a zone the system knows and the file has none."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Companion benchmark//EN"]
    zone_id = ZONE_ID if zone_years else "Europe/Berlin"
    if zone_years:
        lines += big_zone(zone_years)
    for n in range(events):
        day = 1 + n % 28
        hour = 8 + n % 9
        lines += [
            "BEGIN:VEVENT",
            f"UID:bench-{n}@companion.invalid",
            "DTSTAMP:20261101T120000Z",
            f"DTSTART;TZID={zone_id}:202612{day:02d}T{hour:02d}0000",
            f"DTEND;TZID={zone_id}:202612{day:02d}T{hour:02d}4500",
            f"SUMMARY:Acme - round {n} (system design\\, pairing)",
            "DESCRIPTION:Join the call five minutes early. Bring a pen and paper; the",
            "  interviewer will share a document.",
            "END:VEVENT",
        ]
    return "\r\n".join([*lines, "END:VCALENDAR"]) + "\r\n"
