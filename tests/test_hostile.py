"""A hostile class (issue 29): submissions written to break out of pywar grade, each
graded beside a victim (tests/data/class/ace_low, which fails ranks alone).  For each
class: the report is written (exit 0, every submission in it), the victim's marks are
its marks alone, no file outside the scratch folders changed, and no process of theirs
is left.  Graded under bubblewrap and, where the machine allows, without (--isolation
none): the mended limits must hold there too, as far as docs/grading.md says they do."""

import json
import os
import stat
import subprocess
import sys
import time
import uuid

import pytest

from conftest import DATA, needs_bwrap, needs_tools
from floods import DEAL
from pywar.check.runner import sandbox

pytestmark = needs_tools("g++", "valgrind")

VICTIM = DATA / "class" / "ace_low"
MARK = f"pywar-hostile-{uuid.uuid4().hex[:12]}"        # in every attacker's processes
SENTINEL = f"/tmp/{MARK}-sentinel"                      # a file any user may write
LEFT = f"/tmp/{MARK}-left"                              # a file a run tries to leave
WRAPPED = f"/tmp/{MARK}-wrapper"                        # what gcc's -wrapper would make
PLUGIN_RAN = f"{MARK}-plugin-ran"                       # what gcc's -fplugin would print
SECRET = f"graders_secret_{uuid.uuid4().hex[:12]}"      # in a file only its owner may read


def modes():
    """The isolation modes to grade under here."""
    works = getattr(sandbox, "bwrap_works", lambda: False)()
    found = [pytest.param("auto", id="bwrap" if works else "auto")]
    return found + [pytest.param("none", id="none", marks=pytest.mark.slow)]   # 30 s


PLUGIN = ("#include <stdio.h>\n#include <stdlib.h>\nint plugin_is_GPL_compatible;\n"
          "int plugin_init(void *info, void *version)\n"
          f'{{ (void) info; (void) version; fputs("{PLUGIN_RAN}\\n", stderr); exit(1); }}\n')


def plugin(path):
    """A gcc plugin at path (no plugin header needed: gcc looks for these two symbols)."""
    source = path.with_suffix(".c")
    source.write_text(PLUGIN)
    subprocess.run(["g++", "-x", "c", "-shared", "-fPIC", "-o", str(path), str(source)],
                   check=True, env=sandbox.unloaded())
    source.unlink()


def hard_link(path):
    """A hard link at path to a file beside the class's folders that only its owner (the
    grader, who may be root) may read."""
    secret = path.parent.parent / "graders-secret"
    if not secret.exists():
        secret.write_text(f"{SECRET}\n")
        os.chmod(secret, stat.S_IRUSR | stat.S_IWUSR)
    os.link(secret, path)


def cpp(body, includes=""):
    """A C++ main that does body (a student's program that plays no War at all)."""
    return ("#include <cstdio>\n#include <cstdlib>\n#include <unistd.h>\n"
            "#include <sys/stat.h>\n#include <fcntl.h>\n" + includes +
            f"int main(int argc, char **argv) {{\n{body}\nreturn 0;\n}}\n")


DAEMON = ("i=0; while [ $i -lt 400 ]; do\n"          # about 20 s: past the next submission
          "for f in /tmp/pywar-grade-*/src/*.cpp /tmp/pywar-grade-*/src/pywar-program "
          "/tmp/pywar-grade-*/bin/pywar-program; do\n"
          "[ -e \"$f\" ] && printf '#!/bin/sh\\necho tampered\\n' > \"$f\" 2>/dev/null\n"
          f"done\necho tampered > {SENTINEL} 2>/dev/null\ni=$((i+1)); sleep 0.05\ndone\n")
ATTACKS = {
    # a daemon that outlives its run (setsid) and writes over its classmates' files
    "tamperer": {"war.cpp": cpp(
        f'FILE *script = fopen("d.sh", "w"); fputs(R"X({DAEMON})X", script); fclose(script);\n'
        f'std::system("setsid /bin/sh ./d.sh {MARK} </dev/null >/dev/null 2>&1 &");')},
    # a program that turns its own binary into a folder
    "binary_to_folder": {"war.cpp": cpp("unlink(argv[0]); mkdir(argv[0], 0777);")},
    # 3,000 nested folders in its scratch, a file left in /tmp, 200 MiB written
    "filler": {"war.cpp": cpp(
        "for (int i = 0; i < 3000; i++) { if (mkdir(\"d\", 0777) != 0 || chdir(\"d\") != 0) "
        "break; }\n"
        f'FILE *left = fopen("{LEFT}", "w"); if (left) fclose(left);\n'
        "static char block[1 << 20];\n"
        "for (int f = 0; f < 20; f++) { char name[32]; std::snprintf(name, 32, \"f%d\", f);"
        " FILE *out = fopen(name, \"w\"); if (!out) break;"
        " for (int m = 0; m < 10; m++) fwrite(block, 1, sizeof block, out); fclose(out); }")},
    # a file named @opts.cpp: with `g++ ... *.cpp`, gcc reads its options from opts.cpp
    "gcc_options": {"@opts.cpp": "", "opts.cpp": f"-wrapper /bin/sh,-c,touch\\ {WRAPPED}\n",
                    "war.cpp": cpp("")},
    # ./@opts.cpp is still an options file: g++ hands cc1plus `-dumpbase @opts.cpp`, whose
    # first word it takes, and opts.cpp is C++ too (an unknown #pragma): a plugin runs
    "gcc_plugin": {"@opts.cpp": "", "opts.cpp": "#pragma -fplugin=./evil.so\n",
                   "evil.so": plugin, "war.cpp": cpp("")},
    # a hard link to a file only the grader may read (as tarfile.extractall() makes one)
    "hard_link": {"hard.h": hard_link, "war.cpp": cpp("", '#include "hard.h"\n')},
}


def write_class(root, attacks):
    """Each attack's folder under root, and the victim's: the folders."""
    folders = []
    for name, files in attacks.items():
        folder = root / name
        folder.mkdir()
        for file_name, text in files.items():
            if callable(text):
                text(folder / file_name)
            else:
                (folder / file_name).write_text(text)
        folders.append(folder)
    victim = root / "victim"
    victim.mkdir()
    (victim / "war.cpp").write_text((VICTIM / "war.cpp").read_text())
    return folders + [victim]


def grade(folders, mode, *options):
    """pywar grade, in a process of its own (a hang fails, it does not stop the tests), on
    seeds 1 and 2 alone (tests/test_canned.py has the fresh seeds): its submissions by name."""
    isolation = [] if mode == "auto" else ["--isolation", mode]
    command = [sys.executable, "-m", "pywar", "grade", *map(str, folders), "-n", "2",
               "--fresh", "0", "--json", *isolation, *options]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return {sub["name"]: sub for sub in json.loads(done.stdout)["submissions"]}


def marks(submission):
    """A submission's items, as (ok, failed) each, and its score."""
    return ({item: (found["ok"], found["failed"]) for item, found in
             submission["items"].items()}, submission["score"])


def left_processes():
    """The processes that carry the attackers' mark."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/cmdline", "rb") as file:
                    if MARK.encode() in file.read():
                        found.append(int(entry.name))
            except OSError:
                pass
    return found


@pytest.fixture(scope="module")
def victim_alone(tmp_path_factory):
    """The victim's marks, graded alone."""
    folders = write_class(tmp_path_factory.mktemp("alone"), {})
    return marks(grade(folders, "auto", "--no-memory")["victim"])


@pytest.fixture
def sentinel():
    """A file outside every scratch folder that any user may write: its text after."""
    with open(SENTINEL, "w") as file:
        file.write("untouched\n")
    os.chmod(SENTINEL, 0o666)
    for path in (LEFT, WRAPPED):
        if os.path.exists(path):
            os.unlink(path)
    yield lambda: open(SENTINEL).read()
    for path in (SENTINEL, LEFT, WRAPPED):
        if os.path.exists(path):
            os.unlink(path)


@pytest.mark.parametrize("mode", modes())
def test_a_hostile_class_changes_no_classmate_s_marks(tmp_path, mode, victim_alone, sentinel):
    isolated = mode != "none" and sandbox.bwrap_works()
    if not isolated and os.geteuid() != 0:
        pytest.skip("without bubblewrap, only root gives each run a user of its own")
    folders = write_class(tmp_path, ATTACKS)
    (tmp_path / "tamperer" / "pipe").unlink(missing_ok=True)
    os.mkfifo(tmp_path / "tamperer" / "pipe")               # a FIFO in a submission
    before = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
    graded = grade(folders, mode, "--jobs", "2", "--no-memory")
    assert sorted(graded) == sorted(folder.name for folder in folders)   # the report, whole
    assert marks(graded["victim"]) == victim_alone
    time.sleep(0.5)
    assert left_processes() == []                            # no daemon outlived its run
    assert not os.path.exists(WRAPPED)                       # ./*.cpp: no file an option
    if isolated:                # without bubblewrap a run may write what its user may
        assert sentinel() == "untouched\n"                   # (docs/grading.md)
        assert not os.path.exists(LEFT)
    after = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
    assert after == before                                   # the submissions unchanged
    assert any("FIFO" in note or "not a regular file" in note
               for note in graded["tamperer"]["notes"])
    said = json.dumps(graded)
    assert PLUGIN_RAN not in said and SECRET not in said
    refused = graded["gcc_plugin"]["items"]["builds"]["example"]["said"]
    assert "@opts.cpp" in refused and "starts with '@' or '-'" in refused
    assert any("hard link" in note for note in graded["hard_link"]["notes"])


def test_a_program_that_is_a_text_file_fails_its_own_runs(tmp_path, victim_alone):
    """A built 'program' that is a text file (Exec format error): its runs fail."""
    folders = write_class(tmp_path, {"text": {"prog.txt": "not a program\n"}})
    build = ("if [ -f prog.txt ]; then cp prog.txt {program} && chmod +x {program}; "
             "else g++ -std=c++17 -O1 -o {program} ./*.cpp; fi")
    graded = grade(folders, "auto", "--no-memory", "--build", build)
    assert marks(graded["victim"]) == victim_alone
    runs = graded["text"]["items"]["runs"]
    assert (runs["ok"], runs["failed"]) == (False, 2)
    assert "could not be started" in runs["example"]["said"]


FILL = ("\td=.; for m in $$(awk '{print $$5}' /proc/self/mountinfo); do case $$m in "
        "/|/tmp|/proc*|/dev*) ;; *) [ -w \"$$m\" ] && d=$$m;; esac; done; \\\n"
        "\tfor i in 1 2 3 4 5 6 7 8 9 10; do dd if=/dev/zero of=\"$$d/fill$$i\" bs=1M count=64 "
        "2>/dev/null || exit 1; done\n")
MAKE = "\tg++ -std=c++17 -O1 -o \"$(PROGRAM)\" war.cpp\n"
MAKE_BUILD = ("if [ -f Makefile ]; then make -s PROGRAM={program}; "
              "else g++ -std=c++17 -O1 -o {program} ./*.cpp; fi")
HONEST = (VICTIM / "war.cpp").read_text()
MAKE_ATTACKS = {
    # 640 MiB in files of 64 MiB (each under the build's 256 MiB a file) into the first
    # folder it may write outside its own (the build's output folder, once), else its own
    "make_filler": {"Makefile": "all:\n" + FILL + MAKE, "war.cpp": HONEST},
    # an honest submission built by its Makefile (Gradescope's --build 'make' keeps working)
    "make_honest": {"Makefile": "all:\n" + MAKE, "war.cpp": HONEST},
}


@pytest.mark.skipif(not getattr(sandbox, "bwrap_works", lambda: False)(),
                    reason="bubblewrap does not work here: without it a build's files are "
                           "bounded one by one, not in all (docs/grading.md)")
def test_a_make_build_cannot_write_past_its_disk(tmp_path, victim_alone):
    folders = write_class(tmp_path, MAKE_ATTACKS)
    graded = grade(folders, "auto", "--no-memory", "--build", MAKE_BUILD)
    assert marks(graded["victim"]) == victim_alone
    assert marks(graded["make_honest"]) == victim_alone
    builds = graded["make_filler"]["items"]["builds"]
    assert builds["ok"] is False
    disk = sandbox.PROFILES["build"].disk // sandbox.MIB
    assert f"it filled its {disk} MiB of disk" in builds["example"]["said"]


def test_a_program_too_big_for_the_build_s_output_fails_builds(tmp_path, monkeypatch):
    """A program (here a link to cc1plus, followed) past the build's output limit: no
    program, and builds says why."""
    from pywar.check.grading import build
    from pywar.check.grading.grade import Settings
    monkeypatch.setattr(sandbox, "BUILD_LIMITS", sandbox.profile("build", output=sandbox.MIB))
    (tmp_path / "sub").mkdir()
    settings = Settings(build='ln -s "$(g++ -print-prog-name=cc1plus)" {program}')
    with sandbox.Scratch("pywar-test-build-") as work:     # a folder the run's user may read
        program, _, _, said = build.build(tmp_path / "sub", work, settings)
    assert (program, said) == (None, "made a program of more than 1 MiB")


LEAK = ("for (int i = 0; i < 10; i++) std::fprintf(stderr, \"%p\\n\", std::malloc(4000));\n")
UNDER_VALGRIND = 'const char *pre = std::getenv("LD_PRELOAD"); ' \
                 'bool checked = pre && std::strstr(pre, "vgpreload");'
# valgrind's log: the highest descriptor dup() reaches (valgrind keeps its own just below
# the program's open-files limit, and pywar gives the log's at or above it); -1 if none
FIND_LOG = (" int log = -1; for (int fd = 4095; fd >= 3 && log < 0; fd--) log = dup(fd);")
LOG_LIMIT = sandbox.PROFILES["memcheck"].output      # the log's size limit (its RLIMIT_FSIZE)
FIND_LOG_INCLUDES = "#include <cstring>\n#include <csignal>\n#include <sys/resource.h>\n"
MEMORY_CHEATS = {
    # a leak, then exec: valgrind's leak check never runs on the leaking program
    "exec_leaker": cpp(LEAK + ' execl("/bin/true", "true", (char *) 0);'),
    # a leak, and under valgrind a SIGKILL from its child before its summary
    "summary_killer": cpp(LEAK + UNDER_VALGRIND + " if (checked) { if (fork() == 0) { "
                          "kill(getppid(), 9); _exit(0); } sleep(5); }",
                          "#include <cstring>\n#include <csignal>\n"),
    # the audit's forgery (issue 36): under valgrind, its own ERROR SUMMARY on every
    # descriptor it may write (valgrind's --log-fd was 3), then a SIGKILL of its group
    "summary_forger": cpp(LEAK + UNDER_VALGRIND + " if (checked) { char line[128]; "
                          "int n = std::snprintf(line, 128, \"==%d== ERROR SUMMARY: 0 errors "
                          "from 0 contexts (suppressed: 0 from 0)\\n\", (int) getpid()); "
                          "for (int fd = 3; fd < 4096; fd++) if (write(fd, line, n) < 0) {} "
                          "kill(0, 9); }", "#include <cstring>\n#include <csignal>\n"),
    # valgrind.log in the program's folder made a link to a file only root may read
    "log_linker": cpp(LEAK + 'unlink("valgrind.log"); symlink(argv[1], "valgrind.log");'),
    # issue 47: valgrind's log dup()ed, filled to its size limit with a clean summary
    # last, then a SIGTERM of its own (valgrind's summary no longer fits in the log)
    "log_filler": cpp(LEAK + UNDER_VALGRIND + FIND_LOG + " if (checked && log >= 0) { "
                      "signal(SIGXFSZ, SIG_IGN); char line[128]; int n = std::snprintf(line, "
                      "128, \"==%d== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 "
                      "from 0)\\n\", (int) getpid()); static char pad[1 << 16]; "
                      "std::memset(pad, '.', sizeof pad); pad[sizeof pad - 1] = '\\n'; "
                      "off_t left = (off_t) LOG_LIMIT - lseek(log, 0, SEEK_END) - n; "
                      "while (left > 0) { size_t k = left < (off_t) sizeof pad ? left : "
                      "sizeof pad; pad[k - 1] = '\\n'; if (write(log, pad, k) <= 0) break; "
                      "left -= k; } "
                      "if (write(log, line, n) < 0) {} raise(SIGTERM); }",
                      FIND_LOG_INCLUDES + f"#define LOG_LIMIT {LOG_LIMIT}L\n"),
    # issue 47's forgery by exec: leak, then exec itself; the new image empties valgrind's
    # log through a dup() of its descriptor and writes one clean Command of its own
    "log_truncator": cpp(UNDER_VALGRIND + FIND_LOG + " if (argc < 3) { " + LEAK +
                         " if (checked && log >= 0) execl(argv[0], argv[0], argv[1], "
                         "\"again\", (char *) 0); } else if (log >= 0) { char line[256]; "
                         "int n = std::snprintf(line, 256, \"==%d== Memcheck, a memory error "
                         "detector\\n==%d== Command: ./war\\n\", (int) getpid(), "
                         "(int) getpid()); if (ftruncate(log, 0) == 0 && "
                         "lseek(log, 0, SEEK_SET) == 0 && write(log, line, n) == n) {} }",
                         FIND_LOG_INCLUDES),
    # issue 47: it leaks on every seed but seed 1, where the memory item was checked
    "seed_one_freer": cpp("void *kept[10]; for (int i = 0; i < 10; i++) kept[i] = "
                          "std::malloc(4000);\nif (time(NULL) == 1) for (int i = 0; i < 10; "
                          "i++) std::free(kept[i]);", "#include <ctime>\n"),
}


# issue 47: frees its blocks only where /proc/self/maps shows valgrind's preloaded
# library: it behaves under observation, which no black box can see; the report names
# what it reads of its own instrumentation for the instructor to read
MAPS_READER = cpp("void *kept[10]; for (int i = 0; i < 10; i++) kept[i] = std::malloc(4000);\n"
                  "char maps[1 << 16] = {0}; int fd = open(\"/proc/self/maps\", O_RDONLY); "
                  "if (fd >= 0 && read(fd, maps, sizeof maps - 1) > 0 && std::strstr(maps, "
                  "\"vgpreload\")) for (int i = 0; i < 10; i++) std::free(kept[i]);",
                  "#include <cstring>\n")


@pytest.mark.slow                       # 30 s: valgrind, eight times
def test_memory_cheats_fail_the_memory_item(tmp_path):
    secret = tmp_path / "secret"
    secret.write_text("definitely lost: the graders secret\n")   # a line valgrind's could be
    os.chmod(secret, stat.S_IRUSR)
    folders = write_class(tmp_path, {name: {"war.cpp": text} for name, text in
                                     {**MEMORY_CHEATS, "maps_reader": MAPS_READER}.items()})[:-1]
    graded = grade(folders, "auto", "-n", "1", "--fresh", "1", "--run",
                   f"{{program}} {secret}")
    for name in MEMORY_CHEATS:
        memory = graded[name]["items"]["memory"]
        assert memory["ok"] is False, (name, memory)
    assert "the graders secret" not in json.dumps(graded)
    said = {name: graded[name]["items"]["memory"]["example"]["said"] for name in MEMORY_CHEATS}
    assert "not checked: the program was killed by SIGKILL" in said["summary_forger"]
    assert "not checked: the program was killed by SIGTERM" in said["log_filler"]
    # its child's own summary lists the leak it inherited, when its exit outruns the kill
    assert said["summary_killer"].startswith(("not checked", "40,000 bytes"))
    fresh = graded["seed_one_freer"]["fresh"][0]
    assert graded["seed_one_freer"]["items"]["memory"]["example"]["seed"] == fresh != 1
    reader = graded["maps_reader"]
    assert reader["items"]["memory"]["ok"]          # behaves under observation: not seen
    assert any("/proc/self/maps" in note and "valgrind" in note for note in reader["notes"])
    assert not any("/proc/self/maps" in note for note in graded["exec_leaker"]["notes"])


@needs_bwrap()
def test_a_run_s_disk_is_bounded_under_bubblewrap():
    """A run that writes 200 MiB in 10 MiB files into its scratch: at most its disk."""
    script = ("n=0; for i in $(seq 20); do dd if=/dev/zero of=f$i bs=1M count=10 "
              "2>/dev/null || break; n=$((n+10)); done; du -sm . | cut -f1")
    outcome = sandbox.run(["/bin/sh", "-c", script],
                          sandbox.Limits(disk=32 * sandbox.MIB, output=16 * sandbox.MIB))
    assert int(outcome.stdout.split()[-1]) <= 32


def test_a_cmd_program_sees_no_secret_and_leaves_nothing_running(open_path, monkeypatch):
    """pywar check's cmd: programs run in the same runner: the caller's environment is
    not theirs, and a process they start in a session of its own dies with them."""
    from pywar.check.implementations.outside import implementation
    monkeypatch.setenv("SECRET_TOKEN", "the-token-of-the-grader")
    script = open_path / "student.sh"           # where its run's user may read it
    script.write_text(f"setsid /bin/sh -c 'sleep 60; true' {MARK} &\n"
                      "echo \"token=$SECRET_TOKEN\"\n")
    program = implementation(f"cmd:/bin/sh {script} {{seed}}", timeout=10)
    status, out, _ = program.run(1)
    time.sleep(0.3)
    left = left_processes()
    for pid in left:                      # started by this test: ended here, by id
        os.kill(pid, 9)
    assert (status, out) == (0, "token=\n")
    assert left == []


FLOOD_LINES = 500_000                   # a deal, then 15 MiB of one battle line (the
                                        # output limit is 16 MiB)
TIME_ATTACKS = {
    # one line said again and again: the referee's cost grew with its square (issue 36)
    "line_flooder": cpp(f'std::fputs(R"X({DEAL})X", stdout);\n'
                        f"for (int i = 0; i < {FLOOD_LINES}; i++) "
                        "std::fputs(\"Player A plays jack of hearts\\n\", stdout);"),
    # every run takes its whole time limit
    "cpu_burner": cpp("volatile unsigned long spin = 0; for (;;) spin++;"),
}


def test_a_flood_of_repeated_lines_is_not_refereed_past_the_referee_s_time(
        tmp_path, victim_alone):
    """15 MiB of one line, exit 0: each seed 'not refereed: too long' within the
    referee's time (a seed of it took more than 300 s), never a stall; its runs kept."""
    folders = write_class(tmp_path, {"line_flooder": {"war.cpp": TIME_ATTACKS["line_flooder"]}})
    graded = grade(folders, "auto", "--no-memory", "--referee-time", "1")
    assert marks(graded["victim"]) == victim_alone
    flooder = graded["line_flooder"]
    assert any(note.startswith("seeds 1 to 2: not refereed: too long")
               for note in flooder["notes"]), flooder["notes"]
    assert flooder["items"]["runs"]["ok"]
    assert all(flooder["items"][item]["of"] == 0 for item in ("plays", "ranks", "end"))


def test_a_cpu_burner_costs_no_more_than_its_budget(tmp_path, victim_alone):
    """Every run takes its whole time limit: the seeds past the budget are not run, and
    cost runs as its timeouts do (issue 47)."""
    folders = write_class(tmp_path, {"cpu_burner": {"war.cpp": TIME_ATTACKS["cpu_burner"]}})
    graded = grade(folders, "auto", "--no-memory", "-n", "4", "--timeout", "0.5",
                   "--budget", "3")
    victim = graded["victim"]
    assert victim["items"]["runs"]["of"] == 4 and not any("not run" in note
                                                          for note in victim["notes"])
    runs = graded["cpu_burner"]["items"]["runs"]
    assert runs["failed"] == runs["of"] == 4
    assert any(": not run: the submission's time budget" in note
               for note in graded["cpu_burner"]["notes"])
