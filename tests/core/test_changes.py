import pytest

from companion.core.changes import Change


def test_a_change_names_its_kinds_ids_and_origin():
    me = object()
    change = Change.of("round", "capture", ids=[3, 0, 4], origin=me)
    assert change.touches("capture")
    assert not change.touches("quiz", "about")
    assert change.ids == frozenset({3, 4})  # 0 is "no id", never a real row
    assert change.is_from(me)
    assert not change.is_from(object())
    assert not Change.of("round").is_from(None)


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="rund"):
        Change.of("rund")
