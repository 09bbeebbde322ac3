"""pywar page: the folder (the page, pywar's pure-Python packages in a zip, Pyodide with
--pyodide), its Python run with nothing else on the path, and, marked slow, the page in
a real browser (headless Chromium under Selenium) with every host but this machine
unreachable, running Pyodide from the folder: the C engine's digests for seeds of every
preset and both stacks, a step with the code beside it, and an edited member named."""

import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import urllib.request
import zipfile
from pathlib import Path

import pytest

import pywar
from conftest import ROOT, browser_or_skip, needs_python_runs
from pywar.browser import calls, folder
from pywar.check.exercise import inprocess, portcheck, portjudge, skeleton
from pywar.cli import main

BATTLE_MISTAKE = ("player_b.get_played_pile().add_card_to_pile(won_card)",
                  "player_a.get_played_pile().add_card_to_pile(won_card)")
BATTLE_NAMED = "TableTop.do_battle (the battle): raised IndexError"
WAR_MISTAKE = ("return self.do_battle()", "return False")      # a tie that is no war
WAR_NAMED = ("TableTop.do_battle (the war): player A should play the six of spades; in "
             "yours round 8 begins (seed 17455, in round 7)")
GAMES = [   # (seed, rules, edition): every preset, the port's two stacks, and the twin
    (1553, "smu", "port-pile"), (17455, "smu", "port-adt"), (12, "smu", "twin"),
    (1553, "lehigh", "twin"), (7, "iofall", "twin"), (3, "iofall-single", "twin")]
EDITION_ENGINES = {"port-pile": ("port-python", "pile"), "port-adt": ("port-python", "adt"),
                   "twin": ("python", None)}


def events_of(seed, rules, edition):
    """How many events a game has, in the edition the page plays it in."""
    engine, stack = EDITION_ENGINES[edition]
    trace = pywar.play(seed, rules, engine=engine, stack=stack, trace=True).trace
    return trace.count("\n") - 1


def engine_digest(seed, rules):
    """The digest of a seed's game by the C engine (where it is built: CI requires it), in
    16 hex digits as pywar play --json spells it."""
    engine = "c" if "c" in pywar.engines() else "python"
    return f"{pywar.play(seed, rules, engine=engine).digest:016x}"


def edited(files, name, old, new):
    """The files with one text of one file replaced."""
    assert old in files[name], (name, old)
    return {**files, name: files[name].replace(old, new, 1)}


# ---- The folder, and its Python

def test_the_folder_holds_the_page_and_the_python_it_needs(tmp_path, capsys):
    out = tmp_path / "page"
    assert main(["page", str(out)]) == 0
    printed, said = capsys.readouterr()
    assert printed.split() == [str(out / name) for name in ("index.html", "worker.js",
                                                             "pywar.zip")]
    assert folder.PYODIDE_CDN in said                   # no --pyodide: the CDN, said
    index = (out / "index.html").read_text()
    assert folder.PYODIDE_CDN in index and f"Pyodide {folder.PYODIDE_VERSION}" in index
    assert "is loaded from its public CDN" in index and "{{" not in index
    for part in ('id="digest"', 'id="editor"', 'id="trace"', "function showGame"):
        assert part in index, part                      # page.js and page.html, reused
    names = zipfile.ZipFile(out / "pywar.zip").namelist()
    assert "pywar/browser/calls.py" in names and "pywar/port/tabletop.py" in names
    assert "csrc/port/tabletop.c" in names              # the code pane's C
    assert not [name for name in names if name.startswith(("pywar/cli", "pywar/sim",
                                                            "pywar/check/grading"))
                or not name.endswith((".py", ".c"))]


def test_a_folder_of_files_pywar_did_not_write_is_refused_and_its_own_is_written_again(
        tmp_path, capsys):
    """DIR holding a file of someone else's (their index.html), or a link, is a usage error
    before anything is written, the file as it was; a folder pywar page wrote is written
    again; an empty one is taken."""
    theirs = tmp_path / "site"
    theirs.mkdir()
    (theirs / "index.html").write_text("mine")
    assert main(["page", str(theirs)]) == 2
    assert "holds files that pywar page did not write" in capsys.readouterr().err
    assert [p.name for p in theirs.iterdir()] == ["index.html"]
    assert (theirs / "index.html").read_text() == "mine"
    ours, empty = tmp_path / "page", tmp_path / "empty"
    empty.mkdir()
    assert main(["page", str(ours)]) == 0 and main(["page", str(ours)]) == 0
    assert main(["page", str(empty)]) == 0
    (tmp_path / "link").symlink_to(ours)
    assert main(["page", str(tmp_path / "link")]) == 2
    assert "is a link" in capsys.readouterr().err


def test_the_folder_with_pyodide_says_it_needs_no_network(tmp_path, capsys):
    fake = tmp_path / "pyodide"
    fake.mkdir()
    for name in folder.PYODIDE_FILES:
        (fake / name).write_text(json.dumps({"version": "1.2.3"}))
    assert main(["page", str(tmp_path / "page"), "--pyodide", str(fake)]) == 0
    index = (tmp_path / "page" / "index.html").read_text()
    assert "is loaded from this folder: the page works with no network" in index
    assert "Pyodide 1.2.3" in index and folder.PYODIDE_CDN not in index
    assert (tmp_path / "page" / "pyodide" / "pyodide.asm.wasm").exists()
    capsys.readouterr()
    (fake / "pyodide.asm.wasm").unlink()
    assert main(["page", str(tmp_path / "again"), "--pyodide", str(fake)]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "is not a copy of npm's pyodide package (no " \
        "pyodide.asm.wasm): npm install pyodide@" in err


def test_serving_a_folder_never_changes_what_it_serves(tmp_path, capsys, monkeypatch):
    """The command that pywar page DIR --pyodide X suggests, pywar page DIR --serve,
    rewrote the folder to load Pyodide from the CDN (issue 48): a folder that holds a page
    is served as it is, every byte; a new folder is written, then served."""
    fake = tmp_path / "pyodide"
    fake.mkdir()
    for name in folder.PYODIDE_FILES:
        (fake / name).write_text(json.dumps({"version": "1.2.3"}))
    out = tmp_path / "page"
    assert main(["page", str(out), "--pyodide", str(fake)]) == 0
    suggested = capsys.readouterr().err.split("(pywar ", 1)[1].split(")", 1)[0].split()
    assert suggested == ["page", str(out), "--serve"]
    before = {path: path.read_bytes() for path in out.rglob("*") if path.is_file()}
    served = []
    monkeypatch.setattr("pywar.cli.page.serve", lambda args: served.append(args.folder) or 0)
    assert main(suggested) == 0
    assert {path: path.read_bytes() for path in out.rglob("*") if path.is_file()} == before
    assert "is loaded from this folder" in (out / "index.html").read_text()
    assert f"{out} holds a page already: served as it is" in capsys.readouterr().err
    assert main(["page", str(tmp_path / "new"), "--serve"]) == 0
    assert folder.PYODIDE_CDN in (tmp_path / "new" / "index.html").read_text()
    assert served == [str(out), str(tmp_path / "new")]


BLOCKED = """
import json, sys
class Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"numpy", "cffi", "tqdm", "shtab", "matplotlib", "dask",
                                  "distributed", "resource"} or name == "pywar._core":
            raise ImportError(f"the page's Python imported {name}")
sys.meta_path.insert(0, Blocked())
sys.path.insert(0, sys.argv[1])
from pywar.browser import calls
games = [json.loads(calls.play_game(*game)) for game in json.loads(sys.argv[2])]
checked = json.loads(calls.check_port(sys.argv[3], "pile", [17455]))
print(json.dumps({"digests": [game.get("digest") for game in games],
                  "errors": [game.get("error") for game in games],
                  "check": checked["lines"][0],
                  "files": sorted({module.__file__ for name, module in sys.modules.items()
                                   if name.startswith("pywar")})}))
"""


def test_the_pages_python_runs_on_the_zip_alone(tmp_path):
    """The zip's pywar, on the standard library alone (no NumPy, cffi, tqdm; no
    `resource`, which Pyodide lacks), plays the games and checks a port: what the page's
    Python does."""
    out = tmp_path / "page"
    folder.write(str(out))
    lib = tmp_path / "lib"
    zipfile.ZipFile(out / "pywar.zip").extractall(lib)
    files = edited(json.loads(calls.port_files(True)), "tabletop.py", *BATTLE_MISTAKE)
    done = subprocess.run([sys.executable, "-I", "-S", "-c", BLOCKED, str(lib),
                           json.dumps(GAMES), json.dumps(files)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["errors"] == [None] * len(GAMES)
    assert found["digests"] == [engine_digest(seed, rules) for seed, rules, _ in GAMES]
    assert found["check"].startswith(BATTLE_NAMED)
    assert all(path.startswith(str(lib)) for path in found["files"]), found["files"]


def test_the_page_refuses_what_cannot_be_played_in_one_line():
    said = [json.loads(calls.play_game(*game))["error"] for game in [
        (1, "lehigh", "port-adt"), (1, "vegas", "twin"), (2 ** 32, "smu", "twin"),
        (1, "smu", "c")]]
    assert said == ["the port plays only smu: for lehigh, choose the twin",
                    "rules 'vegas': choose one of smu, lehigh, iofall, iofall-single, cecs325",
                    "seed must be from 0 to 4294967295 (32 bits), not 4294967296",
                    "edition 'c': choose one of port-pile, port-adt, twin"]


@needs_python_runs
def test_the_check_in_process_says_what_pywar_exercise_check_says(tmp_path):
    """The same port checked by the command's runner (a child process, sandboxed) and in
    this process, as the page's Python checks it: the same lines."""
    for files in (edited(skeleton.skeleton(filled=True), "tabletop.py", *BATTLE_MISTAKE),
                  skeleton.skeleton(), skeleton.skeleton(filled=True)):
        port = tmp_path / f"port-{len(os.listdir(tmp_path))}"
        port.mkdir()
        for name, text in files.items():
            (port / name).write_text(text)
        by_command = portjudge.report(portcheck.check(str(port), seeds=[17455, 1553]))
        in_process = portjudge.report(inprocess.check(files, seeds=[17455, 1553]))
        assert in_process == by_command
    assert by_command[0].startswith("your port plays seeds 17455 and 1553 exactly")


def test_the_check_in_process_writes_no_file_outside_the_ports_folder(tmp_path, monkeypatch):
    """Issue 51: a port's file named with a path ('../x.py', an absolute path) was written
    where it named, outside the check's folder.  Each is refused in one line naming the
    file, and nothing is written, neither beside the folder nor at the absolute path."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))     # the check's folder here
    port = skeleton.skeleton(filled=True)
    for name in ("../../escaped.py", "../escaped.py", str(tmp_path / "absolute.py"),
                 "sub/escaped.py", ""):
        with pytest.raises(ValueError, match=f"^{re.escape(repr(name))} is not a file name"):
            json.loads(calls.check_port(json.dumps({**port, name: "print('out')\n"})))
    assert sorted(path.name for path in tmp_path.rglob("*")) == []


@needs_python_runs
def test_a_check_in_the_page_says_what_the_page_offers_not_seed(tmp_path, monkeypatch):
    """A failed check in the page told the student to check again 'with --seed A --seed
    B', an option of the command line (issue 48): the page names its own button, whose
    label the answer carries; the command still says --seed.  The port's own files pass
    with the seeds drawn fresh named; a port that departs on a seed drawn fresh (here the
    check's only seed) is told the same."""
    port = json.loads(calls.port_files(True))
    passed = json.loads(calls.check_port(json.dumps(port)))
    label = calls.again_label(passed["fresh"])
    assert passed["passed"] and passed["again"] == label
    assert passed["lines"][-1] == f'Check again on the fresh seeds with the button "{label}".'
    assert label == f"check on seeds {passed['fresh'][0]} and {passed['fresh'][1]} again"
    monkeypatch.setattr(calls, "SEEDS", ())
    monkeypatch.setattr(calls, "default_seeds", lambda: [17455])
    broken = edited(port, "tabletop.py", *BATTLE_MISTAKE)
    departs = json.loads(calls.check_port(json.dumps(broken)))
    assert departs["lines"][0].startswith(BATTLE_NAMED) and departs["fresh"] == [17455]
    assert departs["lines"][-1].endswith('(check again on them with the button "check on '
                                         'seed 17455 again").')
    assert not [line for line in passed["lines"] + departs["lines"] if "--seed" in line]
    folder = tmp_path / "port"
    folder.mkdir()
    for name, text in broken.items():
        (folder / name).write_text(text)
    command = portjudge.report(portcheck.check(str(folder), seeds=[17455], fresh=[17455]),
                               [17455])
    assert command[-1].endswith("(check again on them with --seed 17455).")


def test_the_server_gives_the_types_a_browser_needs(tmp_path):
    out = tmp_path / "page"
    folder.write(str(out))
    (out / "pyodide").mkdir()
    (out / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\0asm")
    (out / "pyodide" / "pyodide.mjs").write_text("export {};")
    server = folder.server(str(out))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_port}/"
        types = {}
        for name in ("index.html", "worker.js", "pywar.zip", "pyodide/pyodide.asm.wasm",
                     "pyodide/pyodide.mjs"):
            with urllib.request.urlopen(base + name) as answer:
                types[name] = answer.headers["Content-Type"]
    finally:
        server.shutdown()
        server.server_close()
    assert types == {"index.html": "text/html", "worker.js": "text/javascript",
                     "pywar.zip": "application/zip",
                     "pyodide/pyodide.asm.wasm": "application/wasm",
                     "pyodide/pyodide.mjs": "text/javascript"}


# ---- In a browser, with Pyodide from the folder and no network (slow: .ci/run, step 5)

def pyodide_or_skip():
    """A copy of npm's pyodide package ($PYWAR_PYODIDE, or node_modules/pyodide in the
    checkout), or a skip naming what is missing (a failure where PYWAR_REQUIRE_PYODIDE
    is set, as in CI)."""
    where = os.environ.get("PYWAR_PYODIDE") or str(ROOT / "node_modules" / "pyodide")
    try:
        folder.pyodide_version(where)
        return where
    except folder.NotPyodide as error:
        message = (f"no Pyodide to test the page with: {error} (or set PYWAR_PYODIDE to "
                   "its folder)")
    if os.environ.get("PYWAR_REQUIRE_PYODIDE"):
        pytest.fail(message)
    pytest.skip(message)


OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The folder with Pyodide, served on 127.0.0.1, and a headless Chromium that can
    reach no other host: (browser, the page's address)."""
    pyodide = pyodide_or_skip()
    out = tmp_path_factory.mktemp("page")
    folder.write(str(out), pyodide)
    server = folder.server(str(out))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    browser = browser_or_skip([OFFLINE])
    yield browser, f"http://127.0.0.1:{server.server_port}/"
    browser.quit()
    server.shutdown()
    server.server_close()


def wait_for(browser, script, seconds=120):
    """The first true value of a script run in the page, polled."""
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(browser, seconds, poll_frequency=0.2).until(
        lambda driver: driver.execute_script(script))


TEXT = "return document.getElementById(arguments[0]).textContent;"


def played(browser):
    """The digest and the summary of the game shown, once played (or failed)."""
    return wait_for(browser, """
        const summary = document.getElementById("summary");
        if (!summary.dataset.gameMs && summary.className !== "failed") return null;
        return {digest: document.getElementById("digest").textContent,
                events: Number(document.getElementById("events").textContent),
                event: Number(document.getElementById("event").textContent),
                summary: summary.textContent, gameMs: Number(summary.dataset.gameMs),
                loadMs: Number(document.getElementById("python-status").dataset.loadMs)};""")


@pytest.mark.slow
def test_the_page_plays_every_preset_offline_with_the_c_engines_digests(served, record_property):
    browser, address = served
    seed, rules, edition = GAMES[0]
    browser.get(f"{address}?seed={seed}")              # plays at once
    first = played(browser)
    assert first["digest"] == engine_digest(seed, rules), first
    record_property("load_ms", first["loadMs"])
    timings = [(seed, rules, edition, first["gameMs"])]
    cdn = browser.execute_async_script(
        "const done = arguments[arguments.length - 1]; fetch(arguments[0]).then("
        "() => done('reached'), "
        "error => done('unreachable'));", folder.PYODIDE_CDN + "package.json")
    assert cdn == "unreachable"                         # no network: the folder's Pyodide
    for seed, rules, edition in GAMES[1:]:
        browser.execute_script("""
            document.getElementById("summary").dataset.gameMs = "";
            document.getElementById("seed").value = arguments[0];
            document.getElementById("rules").value = arguments[1];
            document.getElementById("edition").value = arguments[2];
            document.getElementById("play-game").click();""", seed, rules, edition)
        game = played(browser)
        assert game["digest"] == engine_digest(seed, rules), (seed, rules, edition, game)
        assert (game["event"], game["events"]) == (1, events_of(seed, rules, edition))
        timings.append((seed, rules, edition, game["gameMs"]))
        assert f"seed={seed}&rules={rules}&edition={edition}" in browser.current_url
    print(f"Pyodide loaded in {first['loadMs']} ms; games (seed, rules, edition, ms): "
          f"{timings}")
    record_property("games", timings)


@pytest.mark.slow
def test_the_page_steps_a_game_with_the_code_beside_it(served):
    from test_page import SHOWN, expected_after
    browser, address = served
    browser.get(f"{address}?seed=1553&rules=smu&edition=port-adt")
    assert played(browser)["digest"] == engine_digest(1553, "smu")
    trace = pywar.play(1553, engine="port-python", stack="adt", trace=True).trace
    header, events = pywar.read_trace(trace.splitlines())
    for position in range(1, 6):
        shown = browser.execute_script(SHOWN)
        expected = expected_after(header, events, position)
        assert {key: shown[key] for key in expected} == expected
        browser.find_element("id", "forward").click()
    browser.find_element("id", "next-tie").click()
    shown = browser.execute_script(SHOWN)
    assert "There is a tie... Doing another battle." in shown["current"]
    assert shown["where"].startswith("pywar/port/tabletop.py:") and \
        shown["where"].endswith(" in TableTop.do_battle")
    browser.find_element("id", "show-c").click()
    assert browser.execute_script(SHOWN)["where"].startswith("csrc/port/tabletop.c:")
    browser.find_element("id", "show-python").click()


def start_from(browser, button, asked=None):
    """Click start-port or start-skeleton, and wait for the files it puts in the editor;
    asked: the start of the question the page must ask first (the files are edited),
    which is answered yes."""
    browser.execute_script("document.getElementById('editor').value = '';"
                           "document.getElementById(arguments[0]).click();", button)
    if asked is not None:
        assert answered(browser, accept=True).startswith(asked)
    wait_for(browser, "return document.getElementById('editor').value !== '';")


def answered(browser, accept):
    """The question the page asks (confirm), once it comes, answered yes or no: its words."""
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait
    question = WebDriverWait(browser, 120).until(expected_conditions.alert_is_present())
    words = question.text
    if accept:
        question.accept()
    else:
        question.dismiss()
    return words


def edit(browser, old, new, name="tabletop.py"):
    """Change a file in the page's editor as the student does (its input event)."""
    browser.execute_script("""
        const editor = document.getElementById("editor");
        document.getElementById("file").value = arguments[2];
        document.getElementById("file").dispatchEvent(new Event("change"));
        editor.value = editor.value.replace(arguments[0], arguments[1]);
        editor.dispatchEvent(new Event("input"));""", old, new, name)


def port_in_editor(browser, address):
    """The page loaded, the port's own files in its editor (the files an earlier test left
    in this browser's localStorage replaced, the question answered yes where they were
    edited)."""
    browser.get(address)
    wait_for(browser, "return !document.getElementById('check').disabled "
                      "&& document.getElementById('editor').value !== '';")
    edited = browser.execute_script("return exercise.edited;")
    start_from(browser, "start-port", asked="Replace your edited files" if edited else None)


def editor_files(browser):
    """The files the page holds for the editor, as it keeps them (localStorage)."""
    return browser.execute_script(
        "return JSON.parse(localStorage.getItem('pywar-exercise-files')).files;")


def check_in_page(browser):
    """Click the page's check and wait for what it says: (lines, member)."""
    browser.execute_script("document.getElementById('check-result').dataset.kind = '';"
                           "document.getElementById('check').click();")
    kind = wait_for(browser, "return document.getElementById('check-result').dataset.kind"
                             " || (document.getElementById('check-result').textContent"
                             ".startsWith('The check stopped') && 'stopped');")
    result = browser.find_element("id", "check-result")
    return result.text, result.get_attribute("data-member"), kind


@pytest.mark.slow
def test_an_edited_member_that_breaks_a_rule_is_named(served):
    browser, address = served
    browser.get(address)
    wait_for(browser, "return !document.getElementById('check').disabled "
                      "&& document.getElementById('editor').value !== '';")
    start_from(browser, "start-port")
    edit(browser, *WAR_MISTAKE)
    said, member, kind = check_in_page(browser)
    assert (member, kind) == ("TableTop.do_battle (the war)", "departs"), said
    files = edited(skeleton.skeleton(filled=True), "tabletop.py", *WAR_MISTAKE)
    assert said.splitlines() == portjudge.report(inprocess.check(files))
    assert said.startswith(WAR_NAMED)
    browser.refresh()                                   # the student's files are kept
    wait_for(browser, "return !document.getElementById('check').disabled "
                      "&& document.getElementById('editor').value.includes(arguments[0]);"
             .replace("arguments[0]", json.dumps(WAR_MISTAKE[1])))
    start_from(browser, "start-skeleton", asked="Replace your edited files")
    said, member, kind = check_in_page(browser)
    assert (member, kind) == ("Pile.add_card_to_pile", "unfilled"), said
    start_from(browser, "start-port")
    browser.find_element("id", "stack").send_keys("Program 6")
    said, member, kind = check_in_page(browser)
    assert kind == "passed" and said.startswith("your port plays seeds 17455, 1553 and 12"), said


@pytest.mark.slow
def test_the_students_files_are_replaced_only_when_they_say_so_and_stay_a_click_away(
        served):
    """'Start from the skeleton' and 'start from the port' replaced the student's edited
    files without a word (issue 48): the page asks first, a no keeps them, and a yes keeps
    them a click away ('back to the files replaced', which a second click undoes)."""
    browser, address = served
    port_in_editor(browser, address)
    port = editor_files(browser)
    assert port == json.loads(calls.port_files(True))
    edit(browser, *WAR_MISTAKE)
    mine = editor_files(browser)
    browser.find_element("id", "start-skeleton").click()
    assert answered(browser, accept=False) == (
        "Replace your edited files with the skeleton (every member to write)? Yours stay "
        'a click away: "back to the files replaced".')
    wait_for(browser, "return document.getElementById('check-status').textContent"
                      " === 'your files are as they were';")
    assert editor_files(browser) == mine
    start_from(browser, "start-skeleton", asked="Replace your edited files with the "
                                                "skeleton")
    assert editor_files(browser) == json.loads(calls.port_files(False))
    restore = browser.find_element("id", "restore")
    assert restore.is_displayed() and restore.text == "back to the files replaced"
    restore.click()
    assert editor_files(browser) == mine
    assert WAR_MISTAKE[1] in browser.find_element("id", "editor").get_attribute("value")
    browser.refresh()                                   # kept a click away, reloaded too
    wait_for(browser, "return !document.getElementById('check').disabled "
                      "&& !document.getElementById('restore').hidden;")
    browser.find_element("id", "restore").click()
    assert editor_files(browser) == json.loads(calls.port_files(False))


@pytest.mark.slow
def test_the_page_checks_again_on_the_fresh_seeds_with_its_own_button(served):
    """The check's words name the page's button, not --seed; the button checks the files
    on those seeds alone, as pywar exercise check --seed A --seed B does."""
    browser, address = served
    port_in_editor(browser, address)
    said, _, kind = check_in_page(browser)
    again = browser.find_element("id", "check-again")
    fresh = browser.execute_script("return exercise.again;")
    assert kind == "passed" and len(fresh) == 2 and "--seed" not in said, said
    assert again.is_displayed() and again.text == calls.again_label(fresh)
    assert said.splitlines()[-1] == f'Check again on the fresh seeds with the button ' \
                                    f'"{again.text}".'
    browser.execute_script("document.getElementById('check-result').dataset.kind = '';")
    again.click()
    kind = wait_for(browser, "return document.getElementById('check-result').dataset.kind;")
    said = browser.find_element("id", "check-result").text
    assert kind == "passed" and said.startswith(
        f"your port plays seeds {fresh[0]} and {fresh[1]} exactly"), said


NOBODY = 65534                          # the local user of a shared grading machine
ROOTS = "a file only root may read\n"


def roots_file(path):
    """A file only its owner (root, in these tests) may read: its path."""
    path.write_text(ROOTS)
    os.chmod(path, 0o600)
    return path


@pytest.mark.skipif(os.geteuid() != 0, reason="another user's folder needs root")
def test_a_folder_another_user_made_beforehand_is_refused_and_nothing_written(
        tmp_path, capsys):
    """Issue 47: user nobody made DIR with .pywar-page and index.html.part as links to
    root's files, and root's pywar page overwrote both.  DIR belongs to another user:
    refused (exit 2, one line), the links' targets as they were."""
    out = tmp_path / "page"
    out.mkdir()
    for name in (folder.MARKER, "index.html.part", "index.html"):
        (out / name).symlink_to(roots_file(tmp_path / f"target{name}"))
        os.lchown(out / name, NOBODY, NOBODY)
    os.chown(out, NOBODY, NOBODY)
    for argv in (["page", str(out)], ["page", str(out), "--serve"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"belongs to user {NOBODY}" in err
    assert all(path.read_text() == ROOTS for path in tmp_path.glob("target*"))


def test_a_link_in_the_folder_is_replaced_never_followed(tmp_path):
    """A link at a file's name in a folder pywar page wrote is replaced by the file, its
    target left as it was; a marker that is a link is no marker."""
    out = tmp_path / "page"
    folder.write(str(out))
    (out / "index.html").unlink()
    (out / "index.html").symlink_to(roots_file(tmp_path / "target"))
    folder.write(str(out))
    assert not (out / "index.html").is_symlink()
    assert (tmp_path / "target").read_text() == ROOTS
    (out / folder.MARKER).unlink()
    (out / folder.MARKER).symlink_to(tmp_path / "target")
    with pytest.raises(folder.NotOurs, match="holds files that pywar page did not write"):
        folder.write(str(out))
    assert (tmp_path / "target").read_text() == ROOTS


def test_the_server_serves_only_the_regular_files_pywar_page_wrote(tmp_path):
    """Issue 47: with --serve running, a user linked a file only root may read into the
    folder and read it over HTTP.  Only the page's own files are served, regular files
    of pywar's user, no link followed: a link (in a served name or any other), a file the
    page does not write, or a folder's link, is 404."""
    out = tmp_path / "page"
    folder.write(str(out))
    (out / "secret.txt").symlink_to(roots_file(tmp_path / "target"))
    (out / "notes.txt").write_text("not the page's\n")
    (out / "pyodide").symlink_to(tmp_path)
    (tmp_path / "pyodide.mjs").write_text(ROOTS)
    server = folder.server(str(out))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_port}/"
        with urllib.request.urlopen(base + "?seed=3") as answer:
            assert b"<html" in answer.read(4096).lower()
        (out / "worker.js").unlink()
        (out / "worker.js").symlink_to(tmp_path / "target")
        (out / "index.html").unlink()
        os.mkfifo(out / "index.html")                   # a served name, not a regular file
        served = ["secret.txt", "notes.txt", "worker.js", "index.html", "pyodide/pyodide.mjs",
                  "../target", "%2e%2e/target"]
        if os.geteuid() == 0:                           # a served name, another user's file
            os.chown(out / "pywar.zip", 65534, 65534)
            served.append("pywar.zip")
        codes = {}
        for name in served:
            try:
                urllib.request.urlopen(base + name)
                codes[name] = 200
            except urllib.error.HTTPError as error:
                codes[name] = error.code
    finally:
        server.shutdown()
        server.server_close()
    assert set(codes.values()) == {404}, codes
