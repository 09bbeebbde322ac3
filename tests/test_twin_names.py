"""The engine's twins by name: every "C: Name" in a pywar/twin docstring names a function
that csrc/ defines, and every function of csrc/engine/ is named by a twin or listed
here as C's alone, with why (as tests/test_port_shape.py holds the port's members)."""

import re

from conftest import ROOT

TWIN = ROOT / "pywar" / "twin"
COMMON = ROOT / "pywar" / "common"
ENGINE_C = ROOT / "csrc" / "engine"
DEFINITION = re.compile(r"^(?:static\s+)?(?:inline\s+)?[\w\s*]+?\b([A-Z][A-Za-z]*_[A-Za-z0-9]+)"
                        r"\s*\([^;{]*\)\s*\{", re.M)
NAMED = re.compile(r"C: ([A-Z][a-z][A-Za-z]*_[A-Za-z0-9]+)")       # a function, not a macro

SPECIALISED = "a rule set's own loop of Game_PlayRound; the twin plays the general one"
PICKUP = "the pickup's fast path into the winner's ring; the twin's Game_Collect does it"
TELLING = "a piece of Game_Tell"
EXACT_STORE = "exact.c's hash table and in-place game; the twin uses a dict and a set"
C_ONLY = {
    "Game_PlayAny": SPECIALISED, "Game_PlaySmu": SPECIALISED, "Game_PlayLehigh": SPECIALISED,
    "Game_PlayIofall": SPECIALISED, "Game_PlayIofallSingle": SPECIALISED,
    "Game_PlayCecs325": SPECIALISED,
    "Game_PlayNext": SPECIALISED,
    "Game_TurnPlayed": "Game_Refill's pile work, out of the game's loop (the twin's refill "
                       "does both)",
    "Game_GrowHand": PICKUP, "Game_GrowHands": PICKUP, "Game_Landing": PICKUP,
    "Landing_Put": PICKUP, "Game_FirstOf": PICKUP, "Game_LastOf": PICKUP,
    "Game_SeveralIn": PICKUP,
    "Game_FaceUpOne": "one player's turn of Game_FaceUp, written out for two players; "
                      "the twin's face_up loops",
    "Hand_TurnOver": "the slots of Game_Refill's turn-over; the twin's refill moves the "
                     "cards one by one",
    "Game_TellBattle": TELLING, "Game_TellCards": TELLING, "Game_TellDeal": TELLING,
    "Game_TellEnd": TELLING,
    "Game_CanCycle": "rules.can_cycle in Python", "Spec_Same": "a Spec compared whole in Python",
    "Exact_AddCycle": EXACT_STORE, "Exact_Hash": EXACT_STORE, "Exact_KeyLess": EXACT_STORE,
    "Exact_List": EXACT_STORE, "Exact_Place": EXACT_STORE, "Quick_Load": EXACT_STORE,
    "Quick_Store": EXACT_STORE, "RankGame_PlayTie": EXACT_STORE, "RankGame_Pop": EXACT_STORE,
    "RankGame_Push": EXACT_STORE,
}


def c_functions(folder):
    """The names of the functions that a folder's C files define."""
    return {match.group(1) for path in sorted(folder.glob("*.[ch]"))
            for match in DEFINITION.finditer(path.read_text())}


def twin_names(folders=(TWIN,)):
    """The C names that the docstrings of the folders' modules give."""
    return {name for folder in folders for path in sorted(folder.glob("*.py"))
            for name in NAMED.findall(path.read_text())}


def test_every_twin_names_a_real_c_function():
    """No twin, and no module of pywar/common (the tally, the observer, the generator),
    names a C function that is not there (renamed, or never written)."""
    defined = set().union(*(c_functions(folder) for folder in (ROOT / "csrc").iterdir()
                            if folder.is_dir()))
    assert sorted(twin_names((TWIN, COMMON)) - defined) == []


def test_every_engine_function_has_a_twin_or_a_reason():
    """Each function of csrc/engine/ has a twin that names it, or is C's alone."""
    untwinned = c_functions(ENGINE_C) - twin_names()
    assert sorted(untwinned - set(C_ONLY)) == []
    assert sorted(set(C_ONLY) - c_functions(ENGINE_C)) == []      # no stale reason


def test_the_definition_pattern_finds_a_planted_function():
    """The patterns can fail: they find a planted definition and a planted name."""
    source = "static inline int Game_Planted(Game *game, int n)\n{\n    return n;\n}\n"
    assert DEFINITION.findall(source) == ["Game_Planted"]
    assert DEFINITION.findall("int Game_Declared(Game *game);\n") == []
    assert NAMED.findall('"""Play. C: Game_Planted."""') == ["Game_Planted"]
