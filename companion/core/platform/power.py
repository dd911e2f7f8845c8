"""The battery through psutil (sysfs on Linux, IOKit on macOS, GetSystemPowerStatus on
Windows): the portable reading preflight uses where UPower does not answer."""

from __future__ import annotations


def battery() -> tuple[float, bool] | None:
    """(percent, on mains power) of the battery, or None when there is none to read."""
    import psutil  # only when preflight asks

    sensors = getattr(psutil, "sensors_battery", None)  # absent on some BSDs
    if sensors is None:
        return None
    try:
        reading = sensors()
    except (OSError, RuntimeError):
        return None
    if reading is None:
        return None
    return float(reading.percent), bool(reading.power_plugged)
