"""Twins: the C core and the Python twin give the same transcript, result and digest."""

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import pywar
from conftest import WAR_PRESETS, needs_c
from pywar import rules as rules_module

pytestmark = needs_c


def assert_same_game(seed, rules, transcript=True, **dimensions):
    """Both engines play the seed; every field but the engine name must agree."""
    c = pywar.play(seed, rules, engine="c", transcript=transcript, **dimensions)
    py = pywar.play(seed, rules, engine="python", transcript=transcript, **dimensions)
    assert {**c.to_json(), "engine": None} == {**py.to_json(), "engine": None}, seed
    assert c.transcript == py.transcript, seed
    return c


SMU_SEEDS = list(range(1000)) + random.Random(1).sample(range(2 ** 32), 1000)
DEFAULT_SAMPLE = SMU_SEEDS[:50] + SMU_SEEDS[1000:1050]


def test_smu_twins_agree_on_100_seeds():
    """A sample of the 2,000 seeds below: 50 low ones and 50 from the whole range (25 of
    each already reach every branch of pywar/twin and pywar/common that 550 seeds reach,
    measured with coverage's branch mode)."""
    for seed in DEFAULT_SAMPLE:
        assert_same_game(seed, "smu")


@pytest.mark.slow
def test_smu_twins_agree_on_the_other_1900_seeds():
    for seed in sorted(set(SMU_SEEDS) - set(DEFAULT_SAMPLE)):
        assert_same_game(seed, "smu")


@pytest.mark.slow
def test_smu_twins_agree_on_100000_seeds():
    for seed in range(100_000):
        assert_same_game(seed, "smu")


@pytest.mark.parametrize("seeds", [range(100), pytest.param(range(100, 400),
                                                           marks=pytest.mark.slow)],
                         ids=["first-100", "other-300"])
@pytest.mark.parametrize("name", ["lehigh", "iofall", "iofall-single"])
def test_presets_twins_agree(name, seeds):
    """Seeds 0 to 399 of each preset: the default run plays the first 100, which reach
    every branch of pywar/twin and pywar/common that the 400 reach (measured with
    coverage's branch mode), and the slow run the other 300."""
    outcomes = set()
    for seed in seeds:
        outcomes.add(assert_same_game(seed, name).outcome)
    assert "win" in outcomes


def test_twins_agree_on_given_deals():
    for seed in range(50):
        cards = random.Random(seed).sample(range(52), 10)
        deal = (cards[:4], cards[4:])
        for name in rules_module.PRESETS:
            c = pywar.play(seed, name, engine="c", deal=deal, transcript=True)
            py = pywar.play(seed, name, engine="python", deal=deal, transcript=True)
            assert (c.digest, c.transcript) == (py.digest, py.transcript)


BY_RANK = [("smu", {"piles": "queue"}), ("lehigh", {"players": 4}),
           ("lehigh", {"face_down": 1, "short_war": "all-but-one", "deck": "4x4"}),
           ("iofall", {"players": 3, "face_down": 2}),
           ("smu", {"face_down": 0, "piles": "queue", "deck": "4x4", "max_rounds": 3000})]


@pytest.mark.parametrize("pickup", ["natural", "sorted"])
@pytest.mark.parametrize("rules, dimensions", BY_RANK)
def test_twins_agree_on_the_pickups_by_rank(pickup, rules, dimensions):
    """natural and sorted (docs/rules.md 7.4): two to four players, face-down cards,
    take-backs (all-but-one), iofall's end, and open war on Delahaye and Mathieu's deck."""
    for seed in range(12):
        assert_same_game(seed, rules, pickup=pickup, **dimensions)


dimension_values = st.fixed_dictionaries({
    "face_down": st.integers(0, 25),
    "short_war": st.sampled_from(rules_module.SHORT_WARS),
    "pickup": st.sampled_from(rules_module.PICKUPS),
    "piles": st.sampled_from(rules_module.PILES),
    "shuffle": st.sampled_from(rules_module.SHUFFLES),
    "max_rounds": st.sampled_from([50, 3000]),
    "detect_cycles": st.booleans(),
})


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(WAR_PRESETS), dimensions=dimension_values,
       seed=st.integers(0, 2 ** 32 - 1))
def test_twins_agree_on_any_dimensions(base, dimensions, seed):
    rules = pywar.preset(base)
    piles, pickup = dimensions["piles"], dimensions["pickup"]
    assume(dimensions["detect_cycles"] or (piles == "queue" and pickup != "random"))
    assert rules.name == base
    assert_same_game(seed, base, **dimensions)
