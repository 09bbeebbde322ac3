"""The referee's time (issue 36): its work is linear in a transcript's size, whatever
lines it repeats; a seed past the referee's time is "not refereed: too long", never a
stall; and a submission's runs stop at its time budget.  No test here reads a clock: the
work is counted in the referee's steps (pywar.check.referee.effort) and in the Python
calls a profile counts, and the budget is spent on a clock the test turns."""

import cProfile
import pstats
import time

import pytest

from floods import DEAL, GAME, REPEATED, TIE
from pywar.check.grading import grade as grading
from pywar.check.referee.effort import Effort, OutOfTime
from pywar.check.referee.endless import repeats
from pywar.check.referee.judge import judge
from pywar.check.runner import sandbox
from pywar.cli import main

LINES = 10_000
LINEAR = 2.3                        # twice the lines cost at most this many times the work


def steps(text, complete=True):
    """The referee's steps on a transcript."""
    effort = Effort()
    judge(text, complete=complete, effort=effort)
    return effort.steps


def calls(text):
    """The Python calls the referee makes on a transcript (a profile counts them)."""
    profile = cProfile.Profile()
    profile.runcall(judge, text)
    return pstats.Stats(profile).total_calls


@pytest.mark.parametrize("complete", [True, False], ids=["ended", "stopped"])
@pytest.mark.parametrize("kind", list(REPEATED))
def test_twice_the_repeated_lines_cost_twice_the_steps(kind, complete):
    once, twice = (steps(REPEATED[kind](n), complete) for n in (LINES // 2, LINES))
    assert twice <= LINEAR * once, (once, twice)


def test_forty_thousand_repeated_battle_lines_cost_twice_twenty_thousand():
    """The issue's measure: 5k, 10k, 20k and 40k lines took 0.6, 1.8, 5.1 and 17.9 s."""
    once, twice = (steps(REPEATED["battle line"](n)) for n in (20_000, 40_000))
    assert twice <= LINEAR * once, (once, twice)


@pytest.mark.parametrize("kind", ["battle line", "face down", "junk line"])
def test_twice_the_repeated_lines_cost_twice_the_python_calls(kind):
    """The steps count what the referee means to do; a profile counts every Python call
    it makes, a loop it did not mean too (a search of a growing battle per line)."""
    once, twice = (calls(REPEATED[kind](n)) for n in (LINES // 2, LINES))
    assert twice <= LINEAR * once, (once, twice)


def test_a_long_game_costs_its_lines():
    """Seed 1553's game, told twice over and cut there, against once: twice the steps."""
    once, twice = steps(GAME), steps(GAME + GAME[GAME.index("======== Round 1 "):], False)
    assert twice <= LINEAR * once, (once, twice)


def test_a_count_of_cards_face_down_costs_no_more_than_the_deck():
    """'Player A puts 10000 cards face down' is one line: it costs as much as the deck's
    52 (a count of 100,000,000 took 165 s)."""
    war = DEAL + TIE + "There is a tie... Doing another battle.\n\nPlayer A puts {} cards " \
        "face down\nPlayer B puts 3 cards face down\nPlayer A plays king of hearts\n" \
        "Player B plays two of diamonds\nPlayer A wins the 'currently in play' pile.\n"
    assert calls(war.format(10_000)) <= 1.05 * calls(war.format(52))


def test_a_deadline_passed_stops_the_referee():
    with pytest.raises(OutOfTime):
        judge(GAME, effort=Effort(seconds=0))


def a_run(seed, printed, **ended):
    """A run's Outcome that printed a transcript (ended: how it ended, if not well)."""
    return grading.SeedRun(seed, sandbox.Outcome(ended.get("status", 0), printed, "", 0.1,
                                                 sandbox.Limits(), **ended), printed)


def test_a_seed_past_the_referee_s_time_is_not_refereed_too_long():
    settings = grading.Settings(referee_time=1e-9)
    run = a_run(7, GAME)
    grading.referee_in_time(run, settings, left=100.0)
    assert run.judged is None and run.late.startswith("not refereed: too long")
    tallies = {item: grading.ItemMarks() for item in grading.NAMES}
    notes = []
    grading.tally_runs([run], tallies, notes, grading.Counter())
    assert (7, f"{run.late}; its game items are not checked") in notes
    assert tallies["runs"].item()["ok"]                 # the run ended well: runs kept
    for item in grading.GAME_ITEMS:                     # the game's items: not checked
        found = tallies[item].item()
        assert found["of"] == 0 and "seed 7 was not refereed: too long" in \
            found["example"]["said"], item


def test_the_budget_left_bounds_the_referee_s_time():
    run = a_run(7, GAME)
    grading.referee_in_time(run, grading.Settings(), left=0.0)
    assert run.judged is None and "time budget" in run.late


class TurnedClock:
    """time.monotonic for grade.py, turned by the runs: each takes its whole limit."""

    def __init__(self):
        self.now = 0.0

    def monotonic(self):
        """The clock's time."""
        return self.now

    def run(self, argv, limits, **_):
        """A CPU burner's run: it takes its whole time limit and times out."""
        self.now += limits.wall + 0.5                   # and the runner's grace to kill it
        return sandbox.Outcome(None, "", "", limits.wall, limits, timed_out=True)


@pytest.mark.parametrize("budget", [None, 35.0, 11.0])
def test_a_cpu_burner_costs_no_more_than_the_budget(monkeypatch, budget):
    clock = TurnedClock()
    monkeypatch.setattr(grading.time, "monotonic", clock.monotonic)
    monkeypatch.setattr(grading.sandbox, "run", clock.run)
    monkeypatch.setattr(grading.sandbox, "seeded", lambda clock, seed: {})
    settings = grading.Settings(games=40, budget=budget, limits=sandbox.Limits(wall=10.0))
    seen = []
    runs = grading.referee_runs(settings, "/nonexistent/program", None,
                                lambda: seen.append(1))
    spent = settings.budget_seconds()
    assert clock.now <= spent and 0 < len(runs) < 40
    assert len(seen) == 40                              # progress counts every seed
    note = grading.budget_note(settings, runs)
    assert note.startswith(f"seeds {len(runs) + 1} to 40: not run") and "--budget" in note


def test_a_program_that_ends_runs_every_seed(monkeypatch):
    clock = TurnedClock()
    monkeypatch.setattr(grading.time, "monotonic", clock.monotonic)
    monkeypatch.setattr(grading.sandbox, "run", lambda argv, limits, **_: sandbox.Outcome(
        0, "", "", 0.1, limits))
    monkeypatch.setattr(grading.sandbox, "seeded", lambda clock, seed: {})
    settings = grading.Settings(games=5, budget=12.0)       # 5 runs of 0.1 s, and a whole
    runs = grading.referee_runs(settings, "/nonexistent/program", None, lambda: None)
    assert len(runs) == 5 and grading.budget_note(settings, runs) is None   # run left


def test_the_budget_is_charged_a_run_s_own_time_not_its_wait(monkeypatch):
    """Runs of 0.4 s of their own that a busy machine kept waiting 2 s more: a budget of
    4 s (a whole run is 2 s: its 1 s and RUN_SETUP) is charged 0.4 s a run, and every
    seed is run (issue 51: on the clock, 1 of 5)."""
    monkeypatch.setattr(grading.sandbox, "run", lambda argv, limits, **_: sandbox.Outcome(
        0, "", "", 2.4, limits, waited=2.0))
    monkeypatch.setattr(grading.sandbox, "seeded", lambda clock, seed: {})
    settings = grading.Settings(games=5, budget=4.0, limits=sandbox.Limits(wall=1.0))
    runs = grading.referee_runs(settings, "/nonexistent/program", None, lambda: None)
    assert len(runs) == 5 and grading.budget_note(settings, runs) is None


class Burner:
    """A CPU burner's runs, each its whole time limit of its own and the sandbox's setup
    and kill (RUN_SETUP) more, the worst a run may take: the seeds run, in order, and
    the seconds they took."""

    def __init__(self):
        self.seeds, self.spent = [], 0.0

    def run(self, argv, limits, env, **_):
        """One run of the seed its environment names."""
        self.seeds.append(env["seed"])
        self.spent += limits.wall + grading.RUN_SETUP
        return sandbox.Outcome(None, "", "", limits.wall + grading.RUN_SETUP, limits,
                               timed_out=True)


def burnt(monkeypatch, settings):
    """referee_runs of a Burner: (the runs, the Burner)."""
    burner = Burner()
    monkeypatch.setattr(grading.sandbox, "run", burner.run)
    monkeypatch.setattr(grading.sandbox, "seeded", lambda clock, seed: {"seed": seed})
    return grading.referee_runs(settings, "/nonexistent/program", None, lambda: None), burner


@pytest.mark.parametrize("budget", [11.0 + quarter / 4 for quarter in range(0, 160, 3)])
def test_no_budget_is_overrun_by_a_run_s_setup(monkeypatch, budget):
    """Runs that take their whole limit and the setup's second: a budget is never
    overrun, whatever is left when the last run starts (issue 51: a check of the limit
    alone, without the setup's second, overran it on a budget left between 10 and 11 s)."""
    settings = grading.Settings(games=40, budget=budget, limits=sandbox.Limits(wall=10.0))
    runs, burner = burnt(monkeypatch, settings)
    assert burner.spent <= budget < burner.spent + 2 * 11    # and left no two runs' room


def test_the_fresh_seeds_run_first_and_a_seed_unrun_costs_runs(monkeypatch):
    """A budget of 3 runs of 40 seeds and 2 drawn fresh: the fresh are run first (issue
    47: run last, a program slow on the fixed seeds was never run on them), the runs are
    reported in the seeds' order, and each of the 39 seeds unrun costs runs as a timeout
    does."""
    settings = grading.Settings(games=40, fresh=(3_000_000, 4_000_000), budget=33.5,
                                limits=sandbox.Limits(wall=10.0))
    runs, burner = burnt(monkeypatch, settings)
    assert burner.seeds == [3_000_000, 4_000_000, 1]
    assert [run.seed for run in runs] == [1, 3_000_000, 4_000_000]
    tallies = {item: grading.ItemMarks() for item in grading.NAMES}
    grading.tally_runs(runs, tallies, [], grading.Counter())
    grading.tally_unrun(settings, runs, tallies)
    assert (tallies["runs"].failed, tallies["runs"].of) == (42, 42)
    assert grading.budget_note(settings, runs).startswith("seeds 2 to 40: not run")


def test_the_referee_s_time_is_its_cpu_time(monkeypatch):
    """A referee kept 0.3 s from its processor (here, asleep) is charged the time it
    computed, not 0.3 s."""
    def slow(printed, complete, seed, effort):
        time.sleep(0.3)
        return None, None
    monkeypatch.setattr(grading, "referee_one", slow)
    assert grading.referee_for(GAME, True, 7, 10.0)[2] < 0.1


def test_the_referee_s_deadline_is_on_its_cpu_clock():
    """An Effort of 0.3 s of the referee's time whose thread waits 0.5 s (asleep, as
    when a busy machine holds the processors) is not out of time; one of 0 s is."""
    effort = grading.WorkEffort(seconds=0.3)
    time.sleep(0.5)
    effort.step()
    with pytest.raises(OutOfTime):
        grading.WorkEffort(seconds=0).step()


def test_the_default_budget():
    """3 s a seed, and four runs of the whole time limit at least."""
    assert grading.Settings(games=40).budget_seconds() == 120
    assert grading.Settings(games=2, limits=sandbox.Limits(wall=10.0)).budget_seconds() == 44


class Round(tuple):
    """A round's cards that count how often they are gone through."""
    walked = 0

    def __iter__(self):
        Round.walked += 1
        return super().__iter__()


def walks(rounds):
    """How often repeats() goes through a round, on rounds that repeat for ever."""
    Round.walked = 0
    repeats([Round(played) for played in rounds], in_game=52)   # never all 52: no early end
    return Round.walked


def test_the_endless_check_goes_through_each_round_once():
    """An endless game's period was searched with a set of every period's rounds built
    anew: a stopped flood of one round cost the square of its rounds."""
    once, twice = (walks([(3, 4)] + [(1, 2)] * n) for n in (2000, 4000))
    assert twice <= LINEAR * once, (once, twice)


def test_budget_and_referee_time_on_the_command_line(tmp_path, monkeypatch, capsys):
    seen = []
    monkeypatch.setattr("pywar.cli.grade.grade",
                        lambda sources, settings, jobs, progress: seen.append(settings) or [])
    monkeypatch.setattr("pywar.cli.grade.check_hard_limits", lambda parser, limits: None)
    folder = tmp_path / "ann"
    folder.mkdir()
    assert main(["grade", str(folder), "--no-memory", "--budget", "30",
                 "--referee-time", "2.5"]) == 0
    assert (seen[0].budget_seconds(), seen[0].referee_time) == (30.0, 2.5)
    capsys.readouterr()
    assert main(["grade", str(folder), "--no-memory", "--timeout", "10", "--budget",
                 "10"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--budget (10 s) must be at least --timeout and 1 s " \
        "more (11 s)" in err
