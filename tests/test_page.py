"""The page of a game (pywar play --html): one self-contained file, and what it shows in a
real browser (headless Chromium, driven by Selenium through Debian's chromedriver),
checked against the reference transcript and pywar.common.table_state's state at each step."""

import json
import os
import re
import shutil
from pathlib import Path

import pytest

import pywar
import pywar.port.tabletop
import pywar.step.page
from conftest import reference_transcript
from pywar.cli import main
from pywar.common.trace import read
from pywar.common.table_state import TableState

def page_of(tmp_path, capsys, seed, *argv):
    """Write the page of a game with pywar play --html: (path, transcript printed)."""
    path = tmp_path / f"game-{seed}.html"
    status = main(["play", "--seed", str(seed), "--html", str(path), *argv])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    return path, out


def embedded(page, element):
    """The text of one of the page's <script> elements, by id."""
    return re.search(rf'<script type="[^"]+" id="{element}">\n(.*?)</script>', page, re.S)[1]


# ---- The file

def test_the_page_holds_the_game_and_nothing_from_outside(tmp_path, capsys):
    path, out = page_of(tmp_path, capsys, 17455)
    page = path.read_text()
    assert out == reference_transcript(17455)              # --html changes nothing printed
    trace = pywar.play(17455, trace=True, engine="python").trace
    assert embedded(page, "trace").splitlines()[1:] == trace.splitlines()[1:]
    assert "".join(json.loads(embedded(page, "narration"))) == reference_transcript(17455)
    code = json.loads(embedded(page, "source"))["code"]
    assert code["files"]["pywar/port/tabletop.py"] == Path(pywar.port.tabletop.__file__).read_text()
    shown = page.replace(embedded(page, "source"), "")     # the sources shown are data
    for outside in ("http:", "https:", "src=", "<link", "fetch(", "import ", "XMLHttpRequest"):
        assert outside not in shown, outside
    assert page.count("<script") == 4 and "{{" not in page


def test_a_path_that_cannot_be_written_fails_before_the_game(tmp_path, capsys):
    path = tmp_path / "no-such-folder" / "game.html"
    status = main(["play", "--seed", "17455", "--html", str(path)])
    out, err = capsys.readouterr()
    assert status == 3 and out == ""                      # nothing played
    assert err == (f"pywar play: error: cannot write --html {str(path)!r}: "
                   "No such file or directory\n")


def test_a_game_too_long_for_a_page_leaves_no_file(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(pywar.step.page, "MAX_EVENTS", 100)
    path = tmp_path / "game.html"
    status = main(["play", "--seed", "17455", "--html", str(path), "--json"])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")                        # refused before the game
    assert err == ("pywar play: error: --html: the game has more than 100 events, more "
                   "than a page holds\n")
    assert not path.exists()


def test_the_page_module_example_runs():
    import doctest
    failures, tried = doctest.testmod(pywar.step.page)
    assert tried > 0 and failures == 0


# ---- In a browser

SHOWN = """
const cards = selector => Array.from(document.querySelectorAll(selector + " .card"));
const text = id => document.getElementById(id).textContent;
const shown = {event: Number(text("event")), round: Number(text("round")),
  battle: Number(text("battle")), ties: Number(text("ties")), wars: Number(text("wars")),
  kind: text("kind"),
  potCount: Number(text("pot-count")), outcome: text("outcome"), silent: text("silent"),
  where: text("code-where"),
  marked: Array.from(document.querySelectorAll("#code-lines .current .text"))
    .map(line => line.textContent),
  before: (document.querySelector("#code-lines .current") || {}).previousElementSibling
    ? document.querySelector("#code-lines .current").previousElementSibling
        .querySelector(".text").textContent : null,
  told: text("earlier") + text("current-lines"), current: text("current-lines"),
  slider: Number(document.getElementById("slider").value),
  pot: cards("#pot").map(card => [Number(card.dataset.card),
                                  card.querySelector(".owner").dataset.owner]),
  piles: {}};
for (const name of ["A", "B"]) {
  for (const pile of ["to_play", "played"]) {
    shown.piles[name + " " + pile] = {
      count: Number(text(`count-${name}-${pile}`)),
      cards: cards(`#pile-${name}-${pile}`).map(card => Number(card.dataset.card))};
  }
}
return shown;
"""


def expected_after(header, events, position):
    """What the page must show after `position` events: pywar.common.table_state's state."""
    table = TableState(header, events)
    table.run(until=position)
    state = table.state()
    empty = {name: {"to_play": [], "played": []} for name in "AB"}     # before the deal
    piles = {f"{name} {pile}": {"count": len(cards), "cards": cards}
             for name, held in (state["piles"] or empty).items() for pile, cards in held.items()}
    return {"event": position, "round": state["counters"]["rounds"],
            "battle": state["counters"]["battles"], "ties": state["counters"]["ties"],
            "wars": state["counters"]["wars"],
            "pot": [[entry["card"], entry["player"]] for entry in state["pot"]],
            "potCount": len(state["pot"]), "piles": piles}


def check_shown(browser, header, events, position, transcript):
    """The page shows the table of pywar.common.table_state after `position` events, and the
    transcript's lines so far (the last 41 steps' lines) end where the reference's do."""
    shown = browser.execute_script(SHOWN)
    expected = expected_after(header, events, position)
    assert {key: shown[key] for key in expected} == expected
    assert shown["slider"] == position
    assert shown["kind"] == (events[position - 1]["event"] if position else "before the deal")
    if position < 41:                                   # every line so far is on the page
        assert transcript.startswith(shown["told"])
    return shown


def test_the_page_in_a_browser(browser, tmp_path, capsys, record_property):
    path, transcript = page_of(tmp_path, capsys, 1553)
    assert transcript == reference_transcript(1553)
    header, events = read(path.read_text().split('id="trace">\n')[1].split("</script>")[0]
                          .splitlines())
    browser.get(path.as_uri())
    click = lambda name: browser.find_element("id", name).click()    # noqa: E731
    labels = browser.execute_script("return [...document.querySelectorAll('#players .pile "
                                    ".name')].map(name => name.textContent)")
    assert labels == ["to play (26) top first", "played (0) top first"] * 2  # as the pot's
    told = []
    for position in range(1, 9):                        # it opens on the deal; round 1, ...
        told.append(check_shown(browser, header, events, position, transcript)["told"])
        click("forward")
    assert told[0].startswith("Welcome to the Game of War!") and len(set(told)) > 3
    assert told[0].endswith("Player B:\n" + told[0].split("Player B:\n")[1])
    assert "There are 26 cards in the pile." in told[0]         # the deal's lines, shown
    rounds = [i for i, event in enumerate(events) if event["event"] == "round"]
    browser.execute_script("const s = document.getElementById('slider'); s.value = arguments[0];"
                           "s.dispatchEvent(new Event('input'));", rounds[285] + 1)
    check_shown(browser, header, events, rounds[285] + 1, transcript)     # round 286 begins
    for battle in range(306, 311):                      # seed 1553: five ties in a row
        click("next-tie")
        shown = browser.execute_script(SHOWN)
        assert (shown["round"], shown["battle"], shown["kind"]) == (286, battle, "battle")
        assert "There is a tie... Doing another battle.\n\n" in shown["current"]
        assert shown["where"].startswith("pywar/port/tabletop.py:")
        assert shown["where"].endswith(" in TableTop.do_battle")
        assert (shown["before"].strip(), shown["marked"]) == ("else:",
                                                              ["            self.observer.battle(None)"])
        if battle == 308:
            browser.save_screenshot(str(tmp_path / "page-1553-three-ties.png"))
            click("show-c")                             # the same event in the C port
            shown = browser.execute_script(SHOWN)
            assert shown["where"].startswith("csrc/port/tabletop.c:")
            assert shown["where"].endswith(" in TableTop_DoBattle")
            assert shown["before"].strip() == "} else {"
            assert [line.strip() for line in shown["marked"]] == [
                "Observer_Battle(observer, -1);"]
            browser.save_screenshot(str(tmp_path / "page-1553-three-ties-c.png"))
            click("show-python")
    position = shown["event"]
    click("back")
    check_shown(browser, header, events, position - 1, transcript)
    steps = browser.find_elements("css selector", "#earlier .step")
    chosen = steps[len(steps) // 2]
    wanted = int(chosen.get_attribute("data-position"))
    assert chosen.text.strip() and wanted < position - 1
    chosen.click()                                      # a line of the transcript: its step
    check_shown(browser, header, events, wanted, transcript)
    click("end")
    result = pywar.play(1553, engine="python")
    shown = check_shown(browser, header, events, len(events), transcript)
    assert shown["wars"] == result.wars > 0 and shown["ties"] == result.ties
    assert shown["outcome"] == f"The end (win): player {result.winner} wins."
    loser = "AB".replace(result.winner, "")
    assert shown["silent"] == (f"The game is over after {result.rounds} rounds: player "
                               f"{loser} ran out of cards. Player {result.winner} wins.")
    assert shown["where"].startswith("pywar/port/program4.py:")
    assert transcript.endswith(shown["told"]) and shown["told"].endswith("has lost.\n")
    click("start")
    assert browser.execute_script(SHOWN)["event"] == 1              # the start is the deal
    browser.execute_script("document.getElementById('speed').value = '10';")
    click("play")
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(browser, 20).until(lambda driver: driver.execute_script(SHOWN)["event"] > 5)
    click("play")                                       # pause
    assert browser.find_element("id", "play").text.endswith("play")
    screenshot = tmp_path / "page-1553-three-ties.png"
    record_property("screenshot", str(screenshot))
    print(f"screenshot: {screenshot}")
    artifacts = os.environ.get("PYWAR_ARTIFACTS")
    if artifacts:
        shutil.copy(screenshot, Path(artifacts) / screenshot.name)


def test_the_page_of_another_rule_set_shows_the_twin(browser, tmp_path, capsys):
    path, _ = page_of(tmp_path, capsys, 1553, "--rules", "lehigh")
    header, events = read(path.read_text().split('id="trace">\n')[1].split("</script>")[0]
                          .splitlines())
    browser.get(path.as_uri())
    assert not browser.find_element("id", "show-c").is_displayed()   # no C port for lehigh
    kinds = set()
    for position in range(1, 40):                       # each event at the twin's tell
        shown = browser.execute_script(SHOWN)
        kind = events[position - 1]["event"]
        assert shown["where"].startswith("pywar/twin/game.py:") and len(shown["marked"]) == 1
        assert shown["marked"][0].strip().startswith("self.tell(")
        assert f'"{kind}"' in shown["marked"][0], (kind, shown["marked"])
        kinds.add(kind)
        browser.find_element("id", "forward").click()
    assert {"deal", "round", "face_up", "battle", "pickup"} <= kinds


def test_a_trace_pywar_cannot_replay_gets_no_code_pane(browser, tmp_path):
    trace = pywar.play(17455, trace=True, engine="python").trace
    header, rest = trace.split("\n", 1)
    moved = json.loads(header)
    moved["seed"] = 1553                                # the header of another game
    path = tmp_path / "moved.html"
    path.write_text(pywar.step.page.html(json.dumps(moved, separators=(",", ":")) + "\n" + rest))
    assert json.loads(embedded(path.read_text(), "source"))["code"] is None
    browser.get(path.as_uri())
    shown = browser.execute_script(SHOWN)
    assert shown["event"] == 1 and shown["marked"] == []
    assert shown["where"].startswith("The source of this game cannot be shown")
    assert not browser.find_element("id", "languages").is_displayed()


# ---- What the page says, and the code pane's lines, without a browser (issue 31)

CALL_OF_EVENT = {"deal": "deal", "round": "round", "face_up": "face_up", "battle": "battle",
                 "pickup": "take", "refill": "refill", "run_out": "run_out", "end": "end"}


def page_data(trace):
    """(the page, its source data) of a trace's page."""
    page = pywar.step.page.html(trace)
    return page, json.loads(embedded(page, "source"))


def marked_line(code, position, c=False):
    """The line the code pane marks at a position (1 is the deal), picked out as page.js
    picks it: the file's text split at newlines, the place's line number counted from 1."""
    place = code["places"][code["at"][position - 1]]
    file, number = (place[3], place[4]) if c else (place[0], place[1])
    return code["files"][file].split("\n")[number - 1]


@pytest.mark.parametrize("seed, stack", [(1553, "pile"), (17455, "adt")])
def test_the_code_pane_marks_the_call_that_told_each_event(seed, stack):
    """Each event of a port game, in the page's own data: the Python line marked is the
    observer call that told it, and so is the C line (a pane one line off passed every
    test where no browser ran)."""
    game = pywar.play(seed, engine="port-python", stack=stack, trace=True)
    _, data = page_data(game.trace)
    events = read(game.trace.splitlines())[1]
    assert len(data["code"]["at"]) == len(events)
    for position, event in enumerate(events, start=1):
        call = CALL_OF_EVENT[event["event"]]
        python, c = marked_line(data["code"], position), marked_line(data["code"], position, True)
        assert f"observer.{call}(" in python, (position, event, python)
        camel = "".join(word.capitalize() for word in call.split("_"))
        assert f"Observer_{camel}(" in c, (position, event, c)


def test_the_code_pane_of_another_rule_set_marks_the_twins_tell():
    trace = pywar.play(1553, "lehigh", engine="python", trace=True).trace
    _, data = page_data(trace)
    for position, event in enumerate(read(trace.splitlines())[1], start=1):
        line = marked_line(data["code"], position).strip()
        assert line.startswith("self.tell(") and f'"{event["event"]}"' in line, (event, line)


def test_the_title_names_what_the_page_shows_and_the_footer_the_engine():
    """The title said 'engine c' over a page that shows the port's code."""
    for rules, engine, title in [
            ("smu", "c", "War: seed 1553, smu rules, step by step in the port (Python and C)"),
            ("lehigh", "c", "War: seed 1553, lehigh rules, step by step in the engine's "
                            "Python twin")]:
        page, _ = page_data(pywar.play(1553, rules, engine=engine, trace=True).trace)
        assert f"<title>{title}</title>" in page and f"<h1>{title}</h1>" in page
        assert 'written by engine\n  <span id="engine">c</span>' in page
    given = pywar.play(0, "lehigh", engine="python", deal=([2, 0], [1, 3]), deck="2x2",
                       trace=True).trace
    assert "<title>War: a given deal, lehigh,deck=2x2 rules, step by step in the engine's Python " \
           "twin</title>" in page_data(given)[0]


def test_the_page_says_the_deal_is_listed_bottom_first():
    """smu's transcript lists the deal bottom first, the table shows piles top first: the
    page says so, and it is so (A's last card dealt is Card 1)."""
    game = pywar.play(1553, trace=True, transcript=True)
    page, _ = page_data(game.trace)
    note = re.search(r'<small id="deal-note">(.*?)</small>', page)[1]
    assert "bottom card up (Card 1 is the bottom card)" in note and "top first" in note
    hands = read(game.trace.splitlines())[1][0]["hands"]
    first_listed = game.transcript.split("Player A:\n")[1].splitlines()[1]
    name = pywar.twin.narrator.Narrator(None).card(hands[0][-1])
    assert first_listed == f"Card 1, {name}"
    lehigh, _ = page_data(pywar.play(1553, "lehigh", trace=True).trace)
    assert '<small id="deal-note"></small>' in lehigh              # it lists no deal


def test_the_players_are_named_as_the_narration_names_them():
    """lehigh's transcript says 'player 1': its piles say Player 1, not Player A."""
    expected = {"smu": [["Player A", "A"], ["Player B", "B"]],
                "lehigh": [["Player 1", "1"], ["Player 2", "2"]],
                "iofall": [["User", "U"], ["Computer", "C"]]}
    for rules, players in expected.items():
        game = pywar.play(1553, rules, trace=True, transcript=True)
        _, data = page_data(game.trace)
        assert data["players"] == players
        said = game.transcript
        assert {"smu": "Player A plays", "lehigh": "player 1 gets", "iofall": "User:"}[rules] \
            in said
    _, data = page_data(pywar.play(1553, "lehigh", trace=True).trace)
    assert "player " in data["ending"] and "player A" not in data["ending"] and \
        "player B" not in data["ending"]


# ---- The layout and the controls, in a browser (issue 31)

LAYOUT = """
const rect = element => element.getBoundingClientRect();
const inView = element => { const r = rect(element);
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; };
const marked = document.querySelector("#code-lines .current");
const listing = rect(document.getElementById("code-lines"));
return {viewport: [innerWidth, innerHeight], scrolled: scrollY,
  current: inView(document.getElementById("current-lines")),
  text: document.getElementById("current-lines").textContent,
  marked: inView(marked) && rect(marked).top >= listing.top
    && rect(marked).bottom <= listing.bottom,
  pot: Array.from(document.querySelectorAll("#pot .card")).every(inView),
  potCards: document.querySelectorAll("#pot .card").length};
"""


@pytest.mark.parametrize("width, height", [(1366, 768), (1400, 1000)])
def test_at_the_first_tie_the_steps_lines_the_code_and_the_pot_are_in_view(
        browser, tmp_path, capsys, width, height):
    """A student at the first tie of seed 1553 saw the cards and the code, and not
    "There is a tie" below them, without scrolling."""
    path, _ = page_of(tmp_path, capsys, 1553)
    browser.set_window_size(width, height)
    try:
        browser.get(path.as_uri())
        browser.find_element("id", "next-tie").click()
        shown = browser.execute_script(LAYOUT)
    finally:
        browser.set_window_size(1400, 1000)
    assert shown["scrolled"] == 0 and shown["viewport"][0] == width
    assert "There is a tie... Doing another battle." in shown["text"]
    assert (shown["current"], shown["marked"], shown["pot"], shown["potCards"]) == \
        (True, True, True, 2), shown


def test_the_controls_that_do_nothing_at_an_end_are_disabled(browser, tmp_path, capsys):
    """step and next tie stayed enabled at the end, where they do nothing."""
    path, _ = page_of(tmp_path, capsys, 1553)
    browser.get(path.as_uri())
    enabled = lambda: {name: browser.find_element("id", name).is_enabled()  # noqa: E731
                       for name in ("start", "back", "forward", "next-tie", "end", "play")}
    assert enabled() == {"start": False, "back": False, "forward": True, "next-tie": True,
                         "end": True, "play": True}
    browser.find_element("id", "forward").click()
    assert all(enabled().values())
    browser.find_element("id", "end").click()
    assert enabled() == {"start": True, "back": True, "forward": False, "next-tie": False,
                         "end": False, "play": True}


def test_the_lehigh_page_names_the_players_as_its_transcript(browser, tmp_path, capsys):
    path, _ = page_of(tmp_path, capsys, 1553, "--rules", "lehigh")
    browser.get(path.as_uri())
    for _ in range(4):                                  # the deal, round 1, two face-ups
        browser.find_element("id", "forward").click()
    shown = browser.execute_script(
        "return {names: [...document.querySelectorAll('#players .player > h2')]"
        ".map(h => h.textContent), owners: [...document.querySelectorAll('#pot .owner')]"
        ".map(o => o.textContent)};")
    assert shown["names"] == ["Player 1", "Player 2"]
    assert sorted(shown["owners"]) == ["1", "2"]
