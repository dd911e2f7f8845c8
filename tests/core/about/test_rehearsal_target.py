from companion.core.about.rehearsal import against_target


def test_a_take_is_judged_against_the_whole_target():
    assert against_target(57, (60, 90)) == "3 s under the 60-90 s target"
    assert against_target(75.4, (60, 90)) == "within the 60-90 s target"
    assert against_target(60, (60, 90)) == "within the 60-90 s target"
    assert against_target(96.6, (60, 90)) == "7 s over the 60-90 s target"
    assert against_target(50, (45, 45)) == "5 s over the 45 s target"
