"""The referee that keeps going never loses the class: hostile and mangled transcripts are
refereed without an exception, what is read is bounded, a fault of pywar's own on one
seed is reported as pywar's on that seed, and a rule never put to the test earns
nothing (issue 28)."""

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import pywar
import pywar.check.grading.grade as grading
from conftest import reference_transcript
from pywar.check.referee.judge import judge
from pywar.check.referee.rubric import GAME_ITEMS
from pywar.check.referee.lines import Reader, Said

SEED = 1
TEXT = reference_transcript(SEED)
LINES = TEXT.splitlines()


def own_words(text):
    """The transcript in a student's words: the loot, battle again, a 'to play deck'."""
    swaps = ((r"Player (.) wins the 'currently in play' pile\.", r"Player \1 wins the loot!"),
             (r"There is a tie\.\.\. Doing another battle\.", "It's a tie... battle again!"),
             (r"Player (.) has (\d+) in their 'to play' pile and (\d+) in their 'played' pile\.",
              r'Player \1 has \2 cards in their "to play deck" and \3 cards in their "played deck".'),
             (r"======== Round (\d+) ========", r"Round \1"))
    for pattern, new in swaps:
        text = re.sub(f"(?m)^{pattern}$", new, text)
    return text


def one_line_plays(text):
    """Both plays of a battle on one line: 'A shows ..., B shows ...'."""
    return re.sub(r"(?m)^Player A plays (.*)\nPlayer B plays (.*)$", r"A shows the \1, B shows the \2",
                  text)


SOURCES = [LINES[:400] + LINES[-40:], own_words(TEXT).splitlines()[:400],
           one_line_plays(TEXT).splitlines()[:400]]
WORDS = ["ace", "one", "tie", "wins", "lost", "Player", "played", "to play", "0", "-1",
         "9" * 40, "\x1b[31m", "\x00", "of", "spades", "Round", ""]


@st.composite
def mangled(draw):
    """A transcript of the class's output, with lines dropped, duplicated, swapped, cut,
    and numbers and words changed."""
    lines = list(draw(st.sampled_from(SOURCES)))
    for _ in range(draw(st.integers(1, 12))):
        if not lines:
            break
        at = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["drop", "dup", "swap", "cut", "number", "word", "end"]))
        if op == "drop":
            del lines[at]
        elif op == "dup":
            lines.insert(at, lines[at])
        elif op == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif op == "cut":
            lines[at] = lines[at][:draw(st.integers(0, max(0, len(lines[at]) - 1)))]
        elif op == "number":
            lines[at] = re.sub(r"\d+", str(draw(st.integers(-5, 10 ** 6))), lines[at], count=1)
        elif op == "word":
            words = lines[at].split(" ")
            words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(WORDS))
            lines[at] = " ".join(words)
        else:
            lines = lines[:at]
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


def judged_whole(text, complete):
    """Judge a text and check the Judgement is whole: every game item counted."""
    found = judge(text, complete)
    assert set(found.tested) == set(GAME_ITEMS)
    for item in found.broken():
        assert found.checked(item)
    found.progress()
    return found


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mangled(), st.booleans())
def test_a_mangled_transcript_is_refereed_without_an_exception(text, complete):
    judged_whole(text, complete)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mangled(), st.booleans())
def test_thousands_of_mangled_transcripts(text, complete):
    judged_whole(text, complete)


@pytest.mark.parametrize("text", [
    "Welcome to the Game of War!\n" + "9" * 100_000 + "\n",
    "======== Round " + "9" * 5_000 + " ========\n",
    "Player A plays ace of spades\nPlayer B plays ace of hearts\n"
    "Player A has 3 in their 'to play' pile and 0 in their 'played' pile.\n",
    "Player A plays ace of spades " * 200_000 + "\n",
    "Player A has " + "7" * 5000 + " in their 'to play' pile and 1 in their 'played' pile.\n",
])
def test_hostile_lines_are_read_or_refused_never_a_crash(text):
    found = judged_whole(text, True)
    assert "end" in found.broken()


def test_what_a_line_is_read_for_is_bounded():
    """A 100,000-digit number is no count; a line is read for its first 400 characters."""
    reader = Reader()
    found = reader.events("Player A has " + "1" * 100_000 + " in their 'to play' pile and 2 "
                          "in their 'played' pile.")
    assert not any(kind == "counts" for kind, *_ in found)
    assert reader.events("Player A has 123456789 in their 'to play' pile and 2 in their "
                         "'played' pile.") == [Said("counts", 0, to_play=123456789, played=2)]
    assert reader.events("x" * 10 ** 6 + " Player A plays ace of spades") == []


def test_a_long_garbled_transcript_is_refereed_in_one_pass():
    """Seed 1553's game (18,375 lines) with every count wrong: the search for a
    deviation stops after a few battles, and every battle is still judged."""
    rng = random.Random(7)
    text = reference_transcript(1553)
    bad = re.sub(r"has (\d+) in", lambda m: f"has {rng.randrange(30)} in", text)
    found = judged_whole(bad, True)
    battles = text.count(" plays ") // 2
    assert "counts" in found.broken() and found.tested["plays"] == 2 * battles


def test_a_program_that_plays_no_game_earns_only_build_runs_and_memory():
    for text in ["", "Hello\n1\n2\n3\n4\n5\nPlayer C wins everything\n"]:
        found = judged_whole(text, True)
        assert found.broken() == ["format", "deal", "end"]
        assert [item for item in GAME_ITEMS if found.checked(item)] == ["format", "deal", "end"]


def test_a_program_cut_short_keeps_its_rounds_and_fails_end():
    cut = "\n".join(LINES[:300]) + "\n"
    found = judged_whole(cut, True)
    assert found.broken() == ["end"] and found.rounds > 3
    assert all(found.tested[item] for item in ("plays", "ranks", "counts"))


def test_the_words_of_other_programs_are_read(tmp_path):
    """The reference's game in other words, and with both plays on one line: only the
    format is charged, and the game is followed to its end."""
    for text in (own_words(TEXT), one_line_plays(TEXT), one_line_plays(own_words(TEXT))):
        found = judged_whole(text, True)
        assert found.broken() == ["format"] and found.finished
        assert found.rounds == pywar.play(SEED, transcript=True).rounds


def test_a_fault_of_pywars_own_on_one_seed_is_contained(monkeypatch):
    """A referee that raises on one seed's text: that seed's items are not checked, the
    note says it is pywar's fault, and the other seeds are graded."""
    real = grading.judge

    def fragile(text, complete=True, effort=None):
        if text.endswith("PLANT\n"):
            raise IndexError("a planted fault")
        return real(text, complete, effort)
    monkeypatch.setattr(grading, "judge", fragile)
    judged, note = grading.referee_one(TEXT + "PLANT\n", True, 7)
    assert judged is None
    assert note.startswith("pywar could not referee seed 7: IndexError: a planted fault")
    assert "please report it" in note
    judged, note = grading.referee_one(TEXT, True, 8)
    assert note is None and judged.broken() == []
