"""Split into :mod:`.rounds`, :mod:`.timebox`, :mod:`.state` and :mod:`.placement`.

Only ``companion/commands/cue.py`` (changed on another branch) still imports from here;
import from the modules above and delete this one once it does.
"""

from companion.core.cue.rounds import round_infos

__all__ = ["round_infos"]
