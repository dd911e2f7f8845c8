"""The cue card's style sheet: sizes scale with its text size, colours follow the palette."""

from __future__ import annotations

HEADER_MAX_PT = 14


def style_sheet(base_pt: int) -> str:
    """Font sizes scale with the card's text size; colours come from the palette so light
    and dark schemes both work."""

    def pt(factor: float) -> str:
        return f"{max(6, round(base_pt * factor))}pt"

    # the header's controls stop growing at HEADER_MAX_PT: at the largest text size they
    # still fit a narrow card (the page below takes the large type)
    head = min(base_pt, HEADER_MAX_PT)

    def hpt(factor: float) -> str:
        return f"{max(6, round(head * factor))}pt"

    return f"""
    QWidget {{ font-size: {pt(1)}; }}
    #cueFrame {{ border: 1px solid palette(mid); background: palette(window); }}
    #cueHandle {{ background: palette(button); border-bottom: 1px solid palette(mid); }}
    #cueHandle QToolButton, #cueHandle QLabel, #cueVoice QToolButton {{ font-size: {hpt(1)}; }}
    #cueHandle QLabel[role="small"] {{ font-size: {hpt(0.85)}; }}
    QLabel[role="title"] {{ font-size: {hpt(1.1)}; font-weight: 600; }}
    QLabel[role="clock"] {{ font-size: {hpt(1.1)}; font-weight: 600; padding: 0 4px; }}
    QLabel[role="clock"][phase="near-end"], QLabel[role="clock"][phase="over"] {{
        color: palette(highlighted-text); background: palette(highlight); border-radius: 3px; }}
    QLabel[role="large"], CountdownText[role="large"] {{ font-size: {pt(1.5)}; font-weight: 600; }}
    QLabel[role="glance"] {{ font-size: {pt(2.2)}; font-weight: 600; }}
    QLabel[role="small"], QLabel[role="hint"] {{ font-size: {pt(0.85)}; }}
    QLabel[role="say"] {{ font-style: italic; }}
    QLabel[role="nudge"] {{ font-weight: 600; }}
    QLabel[role="nudge"][fresh="true"] {{ color: palette(highlighted-text);
        background: palette(highlight); padding: 2px 4px; border-radius: 3px; }}
    QToolButton::menu-indicator {{ image: none; width: 0px; }}
    QLabel[role="rule"] {{ font-size: {pt(0.95)}; padding: 5px 8px; border-top: 1px solid palette(mid);
        background: palette(alternate-base); }}
    #cueNudge {{ background: palette(highlight); }}
    #cueNudge QLabel, #cueNudge QToolButton {{ color: palette(highlighted-text); font-weight: 600; }}
    #cueReminder {{ background: palette(alternate-base); border-bottom: 1px solid palette(mid); }}
    #cueStrip QToolButton {{ padding: 2px 4px; border: 1px solid palette(mid); border-radius: 3px;
        background: palette(button); color: palette(button-text); }}
    #cueStrip QToolButton:hover {{ border-color: palette(highlight); }}
    #cueStrip QToolButton:checked {{ background: palette(highlight); color: palette(highlighted-text);
        border-color: palette(highlight); font-weight: 600; }}
    #cueStart[running="true"] {{ font-weight: 600; }}
    #cueSectionHeader {{ font-weight: 600; text-align: left; }}
    """
