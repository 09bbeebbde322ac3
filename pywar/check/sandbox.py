"""Running a student's program, which is untrusted code, with limits: pywar grade's runner.

Each run has no stdin (/dev/null), its own session and process group, a fresh scratch
directory, a scrubbed environment (PATH, HOME, LANG, TZ and the seed clock's two
variables, nothing of the grader's), and limits on wall-clock time, CPU time, address
space (memory), the size of any file it writes (its stdout and stderr included) and the
number of processes.  At the end the whole process group is killed, whatever it left
running.  Where the machine allows it (as root, or where unprivileged user namespaces are
on) the run gets a network namespace of its own, with no interface but a loopback that is
down; run as root, it runs as the user nobody, so that the process limit counts.

This is no security boundary for hostile code: a program can leave its process group
(setsid), read files that nobody may read, and use the kernel's attack surface.  Grade
code you do not trust inside a container or a throwaway VM (docs/grading.md).
"""

import ctypes
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from importlib import resources

MIB = 2 ** 20
NOBODY = 65534
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
SEED_CLOCK = "seedclock.c"
C_COMPILERS = ("cc", "gcc", "clang")
LIBC = ctypes.CDLL(None, use_errno=True)


@dataclass(frozen=True)
class Limits:
    """What one run may use."""
    wall: float = 10.0          # seconds on the clock
    cpu: int = 10               # seconds of CPU time
    memory: int = 512 * MIB     # bytes of address space
    output: int = 16 * MIB      # bytes of any file written, stdout and stderr included
    processes: int = 8          # processes beyond those its user has when it starts


BUILD_LIMITS = Limits(wall=120.0, cpu=120, memory=4096 * MIB, output=256 * MIB, processes=32)


@dataclass
class Outcome:
    """How a run ended and what it printed."""
    status: object              # the exit status, -N for signal N, None when timed out
    stdout: str
    stderr: str
    seconds: float
    limits: Limits
    timed_out: bool = False
    flooded: bool = False

    def trouble(self):
        """What went wrong, in a few words ('' for a clean exit with status 0)."""
        limits = self.limits
        if self.timed_out:
            return f"did not finish within {limits.wall:g} s"
        if self.flooded:
            return f"printed more than {limits.output // MIB} MiB"
        if self.status in (-signal.SIGXCPU, -signal.SIGKILL) and self.seconds < limits.wall:
            return f"ran past its {limits.cpu} s of CPU time"
        if "bad_alloc" in self.stderr or "Cannot allocate memory" in self.stderr:
            return f"ran out of memory (its limit is {limits.memory // MIB} MiB)"
        if self.status is not None and self.status < 0:
            return f"was killed by {signal.Signals(-self.status).name} (a crash)"
        if self.status:
            return f"exited with status {self.status}"
        return ""


def scrubbed_environment(home, extra=None):
    """The environment of a run: nothing of the grader's."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8",
           "LC_ALL": "C.UTF-8", "TZ": "UTC"}
    env.update(extra or {})
    return env


def as_root():
    """True when pywar runs as root: its runs then run as nobody."""
    return os.geteuid() == 0


def run_user():
    """The user id a run runs as."""
    return NOBODY if as_root() else os.geteuid()


def processes_of(uid):
    """How many processes the user has now."""
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                count += entry.stat().st_uid == uid
            except OSError:
                pass
    return count


def own_network():
    """In the child: a network namespace of its own, if the machine allows it."""
    flags = CLONE_NEWNET if as_root() else CLONE_NEWUSER | CLONE_NEWNET
    return LIBC.unshare(flags) == 0


def network_is_isolated():
    """Whether runs on this machine get no network (asked of a throwaway child)."""
    child = subprocess.run(["true"], preexec_fn=lambda: own_network() or os._exit(1))
    return child.returncode == 0


def limiter(limits, uid):
    """The function the child runs before its exec: network, limits, user."""
    processes = processes_of(uid) + limits.processes

    def limit():
        own_network()
        for which, value in ((resource.RLIMIT_CPU, limits.cpu),
                             (resource.RLIMIT_AS, limits.memory),
                             (resource.RLIMIT_FSIZE, limits.output),
                             (resource.RLIMIT_NPROC, processes),
                             (resource.RLIMIT_CORE, 0)):
            hard = value + 1 if which == resource.RLIMIT_CPU else value
            resource.setrlimit(which, (value, hard))
        if uid != os.geteuid():
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
    return limit


def hand_over(path):
    """Make a folder and everything in it the run user's."""
    uid = run_user()
    if uid == os.geteuid():
        return
    for folder, _, files in os.walk(path):
        os.chown(folder, uid, uid)
        for name in files:
            os.chown(os.path.join(folder, name), uid, uid, follow_symlinks=False)


def kill_group(pgid):
    """Kill every process left in the group."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def read_back(stream, limit):
    """What a run wrote to one of its output files, as text."""
    stream.seek(0)
    return stream.read(limit + 1).decode("utf-8", "replace")


def run(argv, limits=Limits(), cwd=None, env=None):
    """Run argv under the limits in a fresh scratch directory (or cwd): an Outcome."""
    with tempfile.TemporaryDirectory(prefix="pywar-run-") as scratch:
        os.chmod(scratch, 0o755)
        hand_over(scratch)
        home = cwd or scratch
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            start = time.monotonic()
            process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                       cwd=home, env=scrubbed_environment(home, env),
                                       start_new_session=True,
                                       preexec_fn=limiter(limits, run_user()))
            timed_out = False
            try:
                status = process.wait(timeout=limits.wall)
            except subprocess.TimeoutExpired:
                timed_out, status = True, None
            finally:
                kill_group(process.pid)
                process.wait()
            seconds = time.monotonic() - start
            stdout, stderr = read_back(out, limits.output), read_back(err, limits.output)
    flooded = status == -signal.SIGXFSZ or max(len(stdout), len(stderr)) > limits.output
    return Outcome(status, stdout[:limits.output], stderr[:limits.output], seconds, limits,
                   timed_out, flooded)


def unloaded():
    """pywar's own environment without LD_PRELOAD (a sanitizer's, say), for the tools it
    runs itself."""
    return {name: value for name, value in os.environ.items() if name != "LD_PRELOAD"}


def c_compiler():
    """A C compiler on PATH, or None."""
    return next((name for name in C_COMPILERS if shutil.which(name)), None)


def seed_clock(folder):
    """Build the seed clock (seedclock.c, a preload library) into folder: its path."""
    compiler = c_compiler()
    if compiler is None:
        raise OSError("no C compiler (cc, gcc or clang) to build pywar's seed clock")
    source = resources.files("pywar.check").joinpath(SEED_CLOCK)
    library = os.path.join(folder, "seedclock.so")
    with resources.as_file(source) as path:
        built = subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", library, str(path),
                                "-ldl"], capture_output=True, text=True, env=unloaded())
    if built.returncode != 0:
        raise OSError(f"the seed clock did not build: {built.stderr.strip()[:200]}")
    os.chmod(library, 0o755)
    return library


def seeded(library, seed):
    """The environment variables that make a run's clock read the seed."""
    return {"LD_PRELOAD": library, "PYWAR_SEED": str(seed)}
