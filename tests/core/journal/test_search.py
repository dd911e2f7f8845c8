"""Full-text search over the journal, kept in sync by triggers."""

from __future__ import annotations

from companion.core.day.loops import add_round, create_loop, update_loop
from companion.core.journal import entries as journal
from companion.core.journal import thankyou as journal_thankyou
from companion.core.journal.search import fts_query, search


def test_search_finds_every_kind_of_journal_text(db):
    loop = create_loop(db, "Acme Robotics", notes="recruiter said kubernetes heavy")
    rid = add_round(db, loop, "design", interviewer_name="Priya")
    journal.add_asked(db, loop, rid, "Design a rate limiter", "token bucket")
    journal.add_flub(db, loop, rid, "Consistent hashing", "forgot virtual nodes")
    journal.add_went_well(db, loop, rid, "Great rapport about caching")
    journal.add_weak_topic(db, "Paxos", loop_id=loop)
    journal_thankyou.save_thank_you(
        db, loop, to_whom="Priya", draft="Thanks for the chat on schedulers"
    )
    kinds = {
        "kubernetes": "loop",
        "priya": "round",
        "bucket": "asked",
        "virtual": "flub",
        "rapport": "went_well",
        "paxos": "weak",
        "schedulers": "thank_you",
    }
    for word, kind in kinds.items():
        hits = search(db, word)
        assert kind in {h.kind for h in hits}, word
        assert all(h.company == "Acme Robotics" for h in hits)


def test_prefix_matching_as_you_type_and_all_words_required(db):
    loop = create_loop(db, "Acme")
    journal.add_asked(db, loop, None, "Explain consistent hashing")
    journal.add_asked(db, loop, None, "Explain eventual consistency")
    assert len(search(db, "consis")) == 2
    assert len(search(db, "consis hash")) == 1
    hit = search(db, "hashing")[0]
    assert hit.kind == "asked" and hit.plain_snippet() == "Explain consistent hashing "


def test_syntax_characters_are_never_interpreted(db):
    loop = create_loop(db, "Acme")
    journal.add_asked(db, loop, None, 'He said "NEAR" AND (OR) * -x')
    assert fts_query('"') == ""
    # operators are searched as plain words, never parsed (no error, no surprise matches)
    assert len(search(db, '") OR *')) == 1
    assert search(db, "NOT something") == []
    assert len(search(db, 'NEAR AND "OR"')) == 1
    assert search(db, "   ") == []


def test_updates_and_deletes_keep_the_index_in_sync(db):
    loop = create_loop(db, "Initech")
    assert search(db, "initech")
    update_loop(db, loop, company="Globex")
    assert search(db, "initech") == [] and search(db, "globex")
    fid = journal.add_flub(db, loop, None, "Quorum reads")
    journal.delete_entry(db, "flub", fid)
    assert search(db, "quorum") == []


def test_unicode_search(db):
    loop = create_loop(db, "東京クラウド")
    journal.add_flub(db, loop, None, "Café latency naïve")
    assert search(db, "cafe")  # accents folded
    assert search(db, "東京クラウド")


def test_one_letter_is_a_whole_word_and_snippets_mark_matches(db):
    from companion.core.journal.search import MARK_END, MARK_START, snippet

    loop = create_loop(db, "Acme")
    journal.add_asked(db, loop, None, "Write it in C then in Cobol")
    assert len(search(db, "c")) == 1  # the word "C", not every word starting with c
    long = " ".join(f"word{n}" for n in range(100)) + " needle " + "tail " * 50
    text = snippet(long, ["needle"])
    assert f"{MARK_START}needle{MARK_END}" in text
    assert text.startswith("…") and text.endswith("…") and len(text) < 200


def test_newest_matches_are_ranked_when_there_are_many(db):
    loop = create_loop(db, "Acme")
    for n in range(1200):
        journal.add_asked(db, loop, None, f"cache question {n}")
    hits = search(db, "cache", limit=10)
    assert len(hits) == 10
    assert all(h.kind == "asked" for h in hits)
