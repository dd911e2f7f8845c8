"""Power from UPower over D-Bus (its display device: the batteries as one): on battery
below a threshold, "plug in the charger"; no battery is ok; no UPower, cannot tell."""

from __future__ import annotations

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
