"""Power: on battery below a threshold, "plug in the charger"; no battery is ok; no
answer, cannot tell. On Linux from UPower over D-Bus (its display device: the batteries
as one); on macOS and Windows, and with the portable services forced, from psutil."""

from __future__ import annotations

import sys

from companion.core.platform import portable_forced
from companion.core.platform import power as platform_power
from companion.core.preflight.checks import Check

THRESHOLD = 50.0  # percent: a round and the call app drain a laptop fast
SERVICE = "org.freedesktop.UPower"
DISPLAY = "/org/freedesktop/UPower/devices/DisplayDevice"
DEVICE = "org.freedesktop.UPower.Device"
BATTERY, DISCHARGING, EMPTY = 2, 2, 3  # Type and State values of the UPower spec


def read_display_device(bus: str = "SYSTEM", timeout: float = 2.0) -> dict | None:
    """The display device's properties, or None when UPower does not answer."""
    from jeepney import DBusAddress, Properties
    from jeepney.io.blocking import open_dbus_connection

    try:
        with open_dbus_connection(bus=bus) as conn:
            address = DBusAddress(DISPLAY, bus_name=SERVICE, interface=DEVICE)
            reply = conn.send_and_get_reply(Properties(address).get_all(), timeout=timeout)
    except Exception:  # no bus, no UPower, a timeout: all "cannot tell"
        return None
    if reply.header.message_type.name != "method_return":
        return None
    return {key: value for key, (_sig, value) in reply.body[0].items()}


def read_power(bus: str = "SYSTEM") -> dict | None:
    """The battery in UPower's terms, from UPower or from psutil (see the module)."""
    if sys.platform in ("darwin", "win32") or portable_forced():
        return read_battery()
    return read_display_device(bus)


def read_battery() -> dict:
    """psutil's reading in UPower's terms, so that :func:`power_check` reads both."""
    reading = platform_power.battery()
    if reading is None:
        return {"IsPresent": False, "Type": 0}
    percent, plugged = reading
    state = 1 if plugged else DISCHARGING  # 1: charging (or full), as UPower says
    return {"IsPresent": True, "Type": BATTERY, "Percentage": percent, "State": state}


def power_check(props: dict | None, threshold: float = THRESHOLD) -> Check:
    if props is None:
        return Check("power", None, "Could not read the battery: have the charger near.")
    if not props.get("IsPresent") or props.get("Type") != BATTERY:
        return Check("power", True, "No battery: on mains power.")
    percent = float(props.get("Percentage", 0.0))
    on_battery = props.get("State") in (DISCHARGING, EMPTY)
    if on_battery and percent < threshold:
        return Check("power", False, f"On battery at {percent:.0f}%: plug in the charger.")
    if on_battery:
        return Check("power", True, f"On battery at {percent:.0f}%; the charger near is safer.")
    return Check("power", True, f"Plugged in ({percent:.0f}%).")
