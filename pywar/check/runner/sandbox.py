"""The one runner of untrusted code: every process pywar starts from a student's work (a
grade's build, its runs and valgrind, exercise check's port, a cmd: program and a py:
class of check and referee) is started by run() here, under a named profile of limits
(PROFILES).

Two modes (docs/grading.md says what each protects and what it does not):

- bwrap: Debian's bubblewrap, the sandbox of Flatpak.  The run gets fresh PID, network,
  IPC and UTS namespaces (the PID namespace dies with it: no setsid, no daemon outlives
  it), the system read-only (/usr, /etc), a private /tmp that is a tmpfs of a bounded
  size (its only writable place, beside the folders a caller hands it), and none of the
  grader's other files: no /root, /home, /work, no other submission, no original folder.
- none: no bubblewrap on this machine (or --isolation none).  The limits alone, mended:
  as root a run has a user of its own (a fresh user id, no other run's), a grade's
  submission a group of its own to which its folders are closed (new_group,
  close_folder), no network where unshare(1) works, and every process of that user is
  killed at its end, and every file it left where all may write removed (clear_left).
  It reads what any user may: /proc, the installed pywar, folders
  open to others.

In both modes: no stdin (but the bytes a caller gives, an assignment's, read-only), a
scrubbed environment, limits on wall-clock time, CPU time, address space, the size of any file written (stdout and stderr included) and processes;
as root, a fresh user id per run with no groups and no new privileges.  No preexec_fn:
the child's steps are programs of util-linux (setpriv, prlimit, unshare) and bwrap, so
that grade --jobs may start runs from threads.  Nothing a run wrote is followed by pywar:
its outputs are unnamed files pywar opened, a folder it wrote is read with O_NOFOLLOW,
and scratch folders are removed by rm -rf, which follows no link and has no recursion
limit.
"""

import contextlib
import functools
import os
import platform
import secrets
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from importlib import resources

from ..submission.bounds import MIB

FIRST_UID, LAST_UID = 2 ** 30, 2 ** 31 - 2      # the run users' ids, one per run (as root)
SEED_CLOCK = "seedclock.c"
C_COMPILERS = ("cc", "gcc", "clang")
MODES = ("auto", "required", "none")
INSTALL = "apt-get install bubblewrap"
RUN_PATH = "/usr/local/bin:/usr/bin:/bin"     # a run's PATH, where it finds programs
SYSTEM = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
CLONE_NEWUSER = 0x10000000
EPERM, ENOSYS = 1, 38
# The system calls that make a user namespace, by seccomp's audit arch: (clone, unshare,
# clone3) of each ABI a machine runs; a run under bubblewrap may not make one (a user
# namespace of its own would mount a tmpfs out of its disk's bound).  x32's calls (nr |
# 2^30, on x86_64's arch) and any other ABI are refused whole.
USERNS_CALLS = {
    "x86_64": {0xC000003E: (56, 272, 435), 0x40000003: (120, 310, 435)},   # and i386
    "aarch64": {0xC00000B7: (220, 97, 435)},
}
X32_BIT = 0x40000000


@dataclass(frozen=True)
class Limits:
    """What one run may use."""
    wall: float = 10.0          # seconds on the clock
    cpu: int = 10               # seconds of CPU time
    memory: int = 512 * MIB     # bytes of address space
    output: int = 16 * MIB      # bytes of any file written, stdout and stderr included
    processes: int = 8          # processes of its own user at once
    disk: int = 64 * MIB        # bytes of its scratch (a tmpfs under bwrap)
    files: int = 256            # open files of each process (RLIMIT_NOFILE): a descriptor
                                # numbered at or above it is out of a run's reach under
                                # valgrind (grading/memcheck.py)


PROFILES = {
    "build": Limits(wall=120.0, cpu=120, memory=4096 * MIB, output=256 * MIB, processes=32,
                    disk=512 * MIB),
    "run": Limits(),
    "memcheck": Limits(wall=120.0, cpu=120, memory=16 * 1024 * MIB, output=64 * MIB,
                       processes=1, disk=64 * MIB),    # no child: valgrind misses the leaks
                                                       # of one killed before its summary
    "exercise": Limits(wall=120.0, cpu=120, memory=2 * 1024 * MIB, output=64 * MIB,
                       processes=4, disk=16 * MIB),
    "cmd": Limits(wall=10.0, cpu=10, memory=4096 * MIB, output=256 * MIB, processes=64,
                  disk=64 * MIB),
}
BUILD_LIMITS = PROFILES["build"]


LIMITER = """\
import os, resource, sys
cpu, memory, output, processes, files = map(int, sys.argv[1:6])
for name, soft, hard in (("RLIMIT_CPU", cpu, cpu + 1), ("RLIMIT_AS", memory, memory),
                         ("RLIMIT_FSIZE", output, output), ("RLIMIT_NPROC", processes, processes),
                         ("RLIMIT_NOFILE", files, files), ("RLIMIT_CORE", 0, 0)):
    try:
        resource.setrlimit(getattr(resource, name), (soft, hard))
    except (AttributeError, ValueError, OSError):
        pass                            # a limit this system does not have
try:
    os.execvp(sys.argv[6], sys.argv[6:])
except OSError as error:
    print(f"pywar: failed to execute {sys.argv[6]}: {error.strerror}", file=sys.stderr)
    os._exit(127 if isinstance(error, FileNotFoundError) else 126)
"""                                     # prlimit's steps where there is no prlimit


class SandboxMissing(Exception):
    """--isolation required on a machine where bubblewrap does not work."""


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
    failed_to_start: str = ""   # the runner's own words when the program could not start
    notes: list = field(default_factory=list)     # the caller's notes on the run
    stdout_bytes: bytes = b""   # stdout as the run wrote it (up to the output limit):
                                # stdout is these bytes decoded, a bad byte as U+FFFD
    waited: float = 0.0         # of seconds, those its processes waited, runnable, for a
                                # processor that others held (RunClock)

    def own_seconds(self):
        """The run's own time: its seconds on the clock less those it waited for a
        processor, which the machine's load decides, not the program."""
        return max(0.0, self.seconds - self.waited)

    def ending(self):
        """How the run ended, as a word of ENDINGS, or None for a clean exit with status 0."""
        if self.failed_to_start:
            return "not_started"
        if self.timed_out:
            return "timeout"
        if self.flooded:
            return "flood"
        if self.status in (-signal.SIGXCPU, -signal.SIGKILL) and \
                self.own_seconds() < self.limits.wall:
            return "cpu_time"
        if "bad_alloc" in self.stderr or "Cannot allocate memory" in self.stderr:
            return "out_of_memory"
        if self.status is not None and self.status < 0:
            return "crash"
        if self.status in (126, 127):
            return "not_started"
        return "exit_status" if self.status else None

    def trouble(self):
        """What went wrong, in a few words ('' for a clean exit with status 0)."""
        limits, ending = self.limits, self.ending()
        if ending == "not_started" and not self.failed_to_start:
            said = self.stderr.strip().splitlines()[-1:] or ["no words"]
            return f"could not be started (status {self.status}: {said[0][:200]})"
        words = {
            None: lambda: "",
            "not_started": lambda: f"could not be started: {self.failed_to_start}",
            "timeout": lambda: f"did not finish within {limits.wall:g} s",
            "flood": lambda: f"printed more than {limits.output // MIB} MiB",
            "cpu_time": lambda: f"ran past its {limits.cpu} s of CPU time",
            "out_of_memory": lambda: f"ran out of memory (its limit is {limits.memory // MIB} MiB)",
            "crash": lambda: f"was killed by {signal.Signals(-self.status).name} (a crash)",
            "exit_status": lambda: f"exited with status {self.status}",
        }
        return words[ending]()


ENDINGS = ("not_started", "timeout", "flood", "cpu_time", "out_of_memory", "crash",
           "exit_status")     # each a row of pywar.check.referee.mistakes (runs)


# ---- The mode: --isolation, a field of each caller's settings, passed to every run

def as_root():
    """True when pywar runs as root: its runs then run as users of their own."""
    return os.geteuid() == 0


@functools.cache
def bwrap_works():
    """Whether bubblewrap is installed and can make a sandbox here (asked of `true`, once
    a process: a fact of the machine)."""
    path = shutil.which("bwrap")
    if path is None:
        return False
    probe = subprocess.run([path, *namespace_flags(), *system_binds(), "--proc", "/proc",
                            "--dev", "/dev", "--", "true"], stdin=subprocess.DEVNULL,
                           capture_output=True)
    return probe.returncode == 0


def mode(isolation="auto"):
    """The mode runs get under an isolation wished (auto, required or none): 'bwrap' or
    'none' (probed here: resolve() asks it once, where a command starts)."""
    if isolation == "none":
        return "none"
    return "bwrap" if bwrap_works() else "none"


@dataclass(frozen=True)
class Isolation:
    """The isolation a command's user asked for (--isolation: auto, required or none) and
    the mode its runs get on this machine (bwrap or none), resolved once, where the command
    starts (resolve), and passed down to every run: the fact travels, not the wish."""
    asked: str
    mode: str

    def warning(self):
        """The one line said at the first run whose isolation was wanted and cannot be had
        here, or None."""
        if self.asked == "auto" and self.mode == "none":
            return (f"pywar: warning: bubblewrap (bwrap) does not work here: untrusted "
                    f"programs run with limits but not isolated: each may read what any user "
                    f"may, the installed pywar and folders open to others included ({INSTALL}; "
                    "docs/grading.md)")
        return None


def resolve(wanted, check=True, here=False):
    """The Isolation of a wish (auto, required or none), checked before any work (check):
    a ValueError for an unknown one, SandboxMissing for required where bubblewrap does not
    work.  An Isolation already resolved is returned as it is (here: resolved again from
    its wish on this machine, a Dask worker's); a wish given to the library unchecked
    (check=False: a run's own caller) is taken as mode() finds it."""
    if isinstance(wanted, Isolation):
        if not here:
            return wanted
        wanted = wanted.asked
    if not check:
        return Isolation(wanted, mode(wanted))
    if wanted not in MODES:
        raise ValueError(f"--isolation must be one of {', '.join(MODES)}, not {wanted!r}")
    if wanted == "required" and not bwrap_works():
        raise SandboxMissing(f"--isolation required: bubblewrap (bwrap) is missing or cannot "
                             f"make a sandbox on this machine ({INSTALL}; a container needs "
                             "user namespaces, or to run as root)")
    return Isolation(wanted, mode(wanted))


def warning(isolation):
    """The one line said at the first run whose isolation (an Isolation, or a wish) was
    wanted and cannot be had here, or None."""
    return resolve(isolation, check=False).warning()


@functools.cache
def warn_once(said):
    """Say a warning on stderr, once a process (a fact of the machine, like the probe)."""
    print(said, file=sys.stderr)


# ---- The steps of a child's start, as programs

def namespace_flags():
    """bwrap's namespaces: pid, net, ipc, uts (and user, unless root)."""
    flags = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
             "--unshare-cgroup-try", "--die-with-parent", "--new-session"]
    return flags if as_root() else ["--unshare-user", *flags]


def system_binds():
    """The system, read-only: /usr and /etc, and the top links (or folders) of /bin..."""
    binds = []
    for path in SYSTEM:
        if os.path.islink(path):
            binds += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            binds += ["--ro-bind", path, path]
    prefix = os.path.realpath(sys.base_prefix)
    if not in_system(prefix):
        binds += [*folders_above(prefix), "--ro-bind", prefix, prefix]   # pyenv's, say
    return binds


def in_system(path):
    """Whether a path is the system's (/usr, /etc, ...), which every run sees."""
    return any(path == top or path.startswith(top + "/") for top in SYSTEM)


def parents(path):
    """The folders above a path, outermost first, but / and the system's."""
    found = []
    folder = os.path.dirname(path)
    while folder != "/" and not in_system(folder):
        found.append(folder)
        folder = os.path.dirname(folder)
    return found[::-1]


def folders_above(path):
    """bwrap's steps that make the folders above a bound path, each 0755 (bwrap's own
    would be 0700, closed to the run's user)."""
    steps = []
    for folder in parents(path):
        steps += ["--perms", "0755", "--dir", folder]
    return steps


def hidden_binds(hide):
    """An empty tmpfs over each path to hide that the system's binds would show (pywar's
    own package, installed under /usr, from exercise check's port)."""
    prefix = os.path.realpath(sys.base_prefix)
    steps = []
    for path in map(os.path.realpath, hide):
        if os.path.isdir(path) and (in_system(path) or path.startswith(prefix + "/")):
            steps += ["--tmpfs", path]
    return steps


def bwrap_argv(scratch, home, shown, writable, limits, hide=()):
    """bwrap's command line up to its '--': the sandbox of one run."""
    argv = [shutil.which("bwrap"), *namespace_flags(), *system_binds(), *hidden_binds(hide),
            "--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size", str(limits.disk),
            "--tmpfs", "/tmp"]
    made = {"/tmp"}
    for path in [scratch, *shown, *writable]:
        for folder in parents(path):
            if folder not in made:
                argv += ["--perms", "0755", "--dir", folder]
                made.add(folder)
    if not scratch.startswith("/tmp/"):
        argv += ["--size", str(limits.disk), "--tmpfs", scratch]
    argv += ["--perms", "0777", "--dir", scratch]
    for path in shown:
        argv += ["--ro-bind", path, path]
    for path in writable:
        argv += ["--bind", path, path]
    return argv + ["--chdir", home]


def bpf(code, k=0, jt=0, jf=0):
    """One instruction of a classic BPF program (struct sock_filter)."""
    return struct.pack("=HBBI", code, jt, jf, k)


LOAD, JEQ, JSET, JGE, RET = 0x20, 0x15, 0x45, 0x35, 0x06    # BPF_LD|W|ABS, BPF_JMP|..|K
ALLOW, ERRNO = 0x7FFF0000, 0x00050000                       # SECCOMP_RET_*
NR, ARCH, ARG0 = 0, 4, 16           # offsets in struct seccomp_data (arg0's low half)


def arch_checks(calls):
    """The filter's steps for one ABI (the syscall number loaded): clone and unshare with
    CLONE_NEWUSER refused, clone3 said to be missing (its flags are out of a filter's
    reach; the C library then calls clone)."""
    clone, unshare, clone3 = calls
    return [bpf(JEQ, clone3, 0, 1), bpf(RET, ERRNO | ENOSYS),
            bpf(JEQ, clone, 1, 0), bpf(JEQ, unshare, 0, 3),
            bpf(LOAD, ARG0), bpf(JSET, CLONE_NEWUSER, 0, 1), bpf(RET, ERRNO | EPERM),
            bpf(RET, ALLOW)]


@functools.cache
def userns_filter():
    """The seccomp program (bytes) that keeps a run from making a user namespace, or b""
    on a machine whose system calls it does not know."""
    arches = USERNS_CALLS.get(platform.machine())
    if arches is None:
        return b""
    steps = [bpf(LOAD, ARCH)]
    for arch, calls in arches.items():
        body = [bpf(LOAD, NR)]
        if arch == 0xC000003E:
            body += [bpf(JGE, X32_BIT, 0, 1), bpf(RET, ERRNO | EPERM)]
        body += arch_checks(calls)
        steps += [bpf(JEQ, arch, 0, len(body))] + body
    return b"".join(steps + [bpf(RET, ERRNO | EPERM)])


def limit_argv(limits, uid, group=None):
    """setpriv (as root: the run's own user, its group, no other groups, no new
    privileges) and prlimit."""
    argv = []
    if as_root():
        argv += [shutil.which("setpriv") or "/usr/bin/setpriv", f"--reuid={uid}",
                 f"--regid={uid if group is None else group}", "--clear-groups",
                 "--no-new-privs", "--"]
    processes = limits.processes if as_root() else processes_of(uid) + limits.processes
    prlimit = shutil.which("prlimit")
    if prlimit is None:                 # no util-linux (macOS, say): Python sets them
        return argv + [os.path.realpath(getattr(sys, "_base_executable", sys.executable)),
                       "-I", "-S", "-c", LIMITER, str(limits.cpu), str(limits.memory),
                       str(limits.output), str(processes), str(limits.files)]
    return argv + [prlimit, f"--cpu={limits.cpu}:{limits.cpu + 1}", f"--as={limits.memory}",
                   f"--fsize={limits.output}", f"--nproc={processes}",
                   f"--nofile={limits.files}", "--core=0", "--"]


@functools.cache
def unshare_argv():
    """unshare(1)'s steps that give a child no network here (root: --net and --ipc; else a
    user namespace too), or [] where it cannot: probed once a process."""
    path = shutil.which("unshare")
    flags = ["--net", "--ipc"] if as_root() else ["--user", "--map-current-user", "--net"]
    works = bool(path) and subprocess.run([path, *flags, "true"], stdin=subprocess.DEVNULL,
                                          capture_output=True).returncode == 0
    return [path, *flags, "--"] if works else []


def network_is_isolated(isolation="auto"):
    """Whether runs on this machine get no network."""
    return resolve(isolation, check=False).mode == "bwrap" or bool(unshare_argv())


# ---- Users, processes and folders

def new_user():
    """A user id of one run's own, drawn at random from 2^30 of them (as root: two runs,
    of this pywar or another, share one with a chance of one in a billion); else pywar's."""
    if not as_root():
        return os.geteuid()
    return FIRST_UID + secrets.randbelow(LAST_UID - FIRST_UID)


def new_group():
    """A group id of one submission's own, as root (drawn as a run's user id is): its
    build and runs get it, and its folders are closed to every other (close_folder);
    else None (every run is pywar's own user)."""
    return new_user() if as_root() else None


def close_folder(path, group):
    """Close a folder pywar made to every run but its group's: as root 0750, pywar's and
    the group's (no other run's user may enter it, under bubblewrap or not); else 0700."""
    if group is None:
        os.chmod(path, 0o700)
        return
    os.chown(path, os.geteuid(), group, follow_symlinks=False)
    os.chmod(path, 0o750)


def open_to_others(path):
    """Whether any user may reach a path: every folder from / to it searchable by others
    (without bubblewrap a run is such a user, and reads a file whose name it knows or
    guesses)."""
    path = os.path.realpath(path)
    while True:
        try:
            if not os.stat(path).st_mode & 0o001:
                return False
        except OSError:
            return False
        if path == "/":
            return True
        path = os.path.dirname(path)


def users_of_processes():
    """{pid: real uid} of every process."""
    found = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/status", encoding="ascii", errors="replace") \
                        as status:
                    fields = dict(line.split(":", 1) for line in status if ":" in line)
                if not fields.get("State", "").strip().startswith("Z"):   # not a zombie
                    found[int(entry.name)] = int(fields["Uid"].split()[0])
            except (OSError, KeyError, ValueError):
                pass
    return found


def processes_of(uid):
    """How many processes the user has now."""
    return sum(1 for owner in users_of_processes().values() if owner == uid)


def kill_user(uid, patience=5.0):
    """Kill every process of a run's own user, again until none is left."""
    if uid == os.geteuid() or uid < FIRST_UID:
        return
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        left = [pid for pid, owner in users_of_processes().items() if owner == uid]
        if not left:
            return
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.01)


SHARED = ("/tmp", "/var/tmp", "/dev/shm")     # folders every user may write (and read)


def shared_folders():
    """The folders any run may leave a file in for a later one: SHARED and tempfile's."""
    return list(dict.fromkeys([*SHARED, tempfile.gettempdir()]))


def clear_left(uid, keep=()):
    """Remove what a run's own user left where any user may write (issue 47: under
    --isolation none a program cached in /dev/shm served a later grading): each entry it
    owns at the top of a SHARED folder, or of a folder in one that every user may write,
    but the paths of keep (its scratch, its writable folders).  None follows a link: an
    entry is lstat'ed and removed by rm -rf, which removes a link and not its target."""
    if uid == os.geteuid() or uid < FIRST_UID:
        return
    keep = {os.path.realpath(path) for path in keep}
    pending = [(os.path.realpath(folder), 0) for folder in shared_folders()]
    while pending:
        folder, depth = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                found = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if found.st_uid == uid and entry.path not in keep:
                remove_entry(entry.path)
            elif entry.is_dir(follow_symlinks=False) and found.st_mode & 0o002 and not depth:
                pending.append((entry.path, depth + 1))     # another's, open to all


def remove_entry(path):
    """Remove a file, a link or a folder (rm -rf: no link followed, no recursion limit)."""
    try:
        os.unlink(path)
    except IsADirectoryError:
        remove(path)
    except OSError:
        pass


def kill_group(pgid):
    """Kill every process left in the group."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def remove(path):
    """Remove a folder a run may have filled: rm -rf follows no link and has no limit on
    depth (shutil.rmtree's recursion does)."""
    try:
        os.rmdir(path)                  # empty, as a scratch under bubblewrap is
        return
    except FileNotFoundError:
        return
    except OSError:
        pass
    subprocess.run(["rm", "-rf", "--one-file-system", "--", path],
                   stdin=subprocess.DEVNULL, capture_output=True)


class Scratch:
    """A folder pywar makes, removed with whatever a run put in it."""

    def __init__(self, prefix, owner=None, mode=0o755):
        self.path = tempfile.mkdtemp(prefix=prefix)
        os.chmod(self.path, mode)
        if owner is not None and owner != os.geteuid():
            os.chown(self.path, owner, owner)       # made now by pywar: no link to follow

    def __enter__(self):
        return self.path

    def __exit__(self, *exc):
        remove(self.path)


def read_bytes(stream, limit):
    """What a run wrote to one of its output files, up to limit and one byte more."""
    stream.seek(0)
    return stream.read(limit + 1)


def read_back(stream, limit):
    """What a run wrote to one of its output files, as text."""
    return read_bytes(stream, limit).decode("utf-8", "replace")


def shown_paths(argv, env, show):
    """The host paths a run must see read-only: those given, its program (an absolute
    argv word) and its LD_PRELOAD library."""
    paths = list(show)
    words = [word for word in argv if word.startswith("/")]
    words += [env["LD_PRELOAD"]] if env and "LD_PRELOAD" in env else []
    for word in words:
        if os.path.exists(word) and not in_system(word):
            paths.append(word)
    return list(dict.fromkeys(os.path.abspath(path) for path in paths))


def scrubbed_environment(home, extra=None):
    """The environment of a run: nothing of the grader's."""
    env = {"PATH": RUN_PATH, "HOME": str(home), "LANG": "C.UTF-8",
           "LC_ALL": "C.UTF-8", "TZ": "UTC"}
    env.update(extra or {})
    return env


@contextlib.contextmanager
def userns_rules(mode_now):
    """The descriptor of a file holding userns_filter(), for bwrap's --seccomp (None
    without bubblewrap, or on a machine with no filter)."""
    program = userns_filter() if mode_now == "bwrap" else b""
    if not program:
        yield None
        return
    with tempfile.TemporaryFile() as rules:
        rules.write(program)
        rules.flush()
        rules.seek(0)
        yield rules.fileno()


def full_argv(argv, scratch, home, shown, writable, limits, uid, hide=(), isolation="auto",
              group=None, rules=None):
    """The command line that starts argv in its sandbox (or with the limits alone); rules:
    the descriptor of bwrap's seccomp program."""
    limited = [*limit_argv(limits, uid, group), *argv]
    if resolve(isolation, check=False).mode == "bwrap":
        seccomp = [] if rules is None else ["--seccomp", str(rules)]
        return [*bwrap_argv(scratch, home, shown, writable, limits, hide), *seccomp, "--",
                *limited]
    return [*unshare_argv(), *limited]


def run(argv, limits=Limits(), cwd=None, env=None, show=(), writable=(), pass_fds=(),
        hide=(), isolation="auto", group=None, stdin=b""):
    """Run argv under the limits with a fresh scratch folder as its working directory
    (cwd, a folder of writable, instead): an Outcome.  show: host paths it may read;
    writable: host folders it may write (made by the caller, handed to its user here);
    hide: folders of the system it may not see (under bubblewrap); isolation: the
    command's Isolation (resolve, where it started), or a wish, auto (in bubblewrap where
    it works), required or none; group: the group it runs in (new_group: a submission's,
    shared by its runs), else one of its own; stdin: the bytes it reads on its standard
    input (an assignment's run.stdin; none by default)."""
    isolation = resolve(isolation, check=False)
    said = isolation.warning()
    if said:
        warn_once(said)
    uid = new_user()
    for folder in writable:
        if uid != os.geteuid():
            os.chown(folder, uid, uid, follow_symlinks=False)
    with Scratch("pywar-run-", uid, 0o700) as scratch, \
            userns_rules(isolation.mode) as rules:
        home = cwd or scratch
        shown = shown_paths(argv, env, show)
        command = full_argv(argv, scratch, home, shown, list(writable), limits, uid, hide,
                            isolation, group, rules)
        kept = (*pass_fds, *([] if rules is None else [rules]))
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
                stdin_of(stdin) as given:
            start = time.monotonic()
            status, timed_out, failed, waited = wait_for(command, out, err, home, env,
                                                         limits, uid, kept, isolation.mode,
                                                         given)
            seconds = time.monotonic() - start
            if isolation.mode == "none":        # under bwrap /tmp was its own tmpfs
                clear_left(uid, keep=[scratch, *writable])
            raw = read_bytes(out, limits.output)
            stdout, stderr = raw.decode("utf-8", "replace"), read_back(err, limits.output)
    flooded = status == -signal.SIGXFSZ or max(len(stdout), len(stderr)) > limits.output
    return Outcome(status, stdout[:limits.output], stderr[:limits.output], seconds, limits,
                   timed_out, flooded, failed, stdout_bytes=raw[:limits.output],
                   waited=min(waited, seconds))


@contextlib.contextmanager
def stdin_of(data):
    """What a run reads on stdin: nothing (DEVNULL) for no bytes, else a read-only
    descriptor of an unnamed file of pywar's holding them, so that a run cannot write
    through its stdin."""
    if not data:
        yield subprocess.DEVNULL
        return
    with tempfile.TemporaryFile() as file:
        file.write(data)
        file.flush()
        reader = os.open(f"/proc/self/fd/{file.fileno()}", os.O_RDONLY)
        try:
            yield reader
        finally:
            os.close(reader)


def wait_for(command, out, err, home, env, limits, uid, pass_fds, mode_now,
             stdin=subprocess.DEVNULL):
    """Start a command and wait for it within its own time (RunClock): (status, timed
    out, words if it could not start, seconds it waited for a processor); every process
    it left is killed."""
    try:
        process = subprocess.Popen(command, stdin=stdin, stdout=out, stderr=err,
                                   cwd=home if mode_now == "none" else None,
                                   env=scrubbed_environment(home, env), start_new_session=True,
                                   pass_fds=pass_fds)
    except OSError as error:
        return None, False, error.strerror or str(error), 0.0
    clock = RunClock(process.pid, limits.wall)
    try:
        status = process.wait()
    finally:
        clock.stop()
        kill_group(process.pid)
        process.wait()
        if mode_now == "none":          # under bwrap its PID namespace died with it
            kill_user(uid)
    if clock.timed_out.is_set():
        return None, True, "", clock.waited
    return program_status(status, command), False, "", clock.waited


SAMPLE_SECONDS = 0.2        # how often a run's processes are read for the time they waited


class RunClock:
    """A run's clock (issue 51): it stops the run once its own time, the wall clock less
    the time its processes waited for a processor that others held, reaches the wall
    limit, so that a busy machine changes no verdict: a program that computes is stopped
    by its CPU time (RLIMIT_CPU) or its own time, whatever the load, and one that sleeps
    or blocks by the clock, as before.  It reads the wait every SAMPLE_SECONDS (waited,
    the most read), and at the limit."""

    def __init__(self, pid, wall):
        self.pid, self.wall = pid, wall
        self.start = time.monotonic()
        self.waited = 0.0
        self.timed_out = threading.Event()
        self.ended = threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)
        self.thread.start()

    def watch(self):
        """Read the wait until the run ends, or kill the run at its limit."""
        while not self.ended.wait(self.pause()):
            elapsed = time.monotonic() - self.start
            self.waited = max(self.waited, time_waited(self.pid, elapsed))
            if elapsed - self.waited >= self.wall:
                self.timed_out.set()
                kill_group(self.pid)
                return

    def pause(self):
        """Seconds to the next reading: SAMPLE_SECONDS, or fewer to the limit, which the
        run's own time reaches no sooner than the clock would."""
        own = time.monotonic() - self.start - self.waited
        return max(0.0, min(SAMPLE_SECONDS, self.wall - own))

    def stop(self):
        """The run has ended: stop reading."""
        self.ended.set()
        self.thread.join()


def run_tree(root):
    """The pids of a run's live processes: root and its descendants, by the children
    lists of /proc (each thread's)."""
    found, pending = [], [root]
    while pending:
        pid = pending.pop()
        found.append(pid)
        try:
            threads = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for thread in threads:
            try:
                with open(f"/proc/{pid}/task/{thread}/children") as children:
                    pending += [int(child) for child in children.read().split()]
            except (OSError, ValueError):
                pass
    return found


def time_waited(root, seconds):
    """The seconds a run's live processes have waited, runnable, for a processor, of the
    seconds it has run (the kernel's run delay, /proc/PID/schedstat): their waits added,
    but no more than the time they did not run on a processor (seconds less their CPU
    time), so that processes that run side by side wait no time.  0 where /proc says
    nothing (not Linux): the clock alone, as before."""
    ran = waited = 0
    for pid in run_tree(root):
        try:
            with open(f"/proc/{pid}/schedstat") as stat:
                on_cpu, delay = (int(word) for word in stat.read().split()[:2])
        except (OSError, ValueError):
            continue
        ran += on_cpu
        waited += delay
    return max(0.0, min(waited, seconds * 1e9 - ran) / 1e9)


def program_status(status, command):
    """The program's own status: bwrap reports a child killed by signal N as 128 + N (a
    program that exits with such a status itself is taken as killed: docs/grading.md)."""
    bwrapped = os.path.basename(command[0]) == "bwrap"
    if bwrapped and status is not None and 128 < status <= 128 + 64:
        return -(status - 128)
    return status


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
    source = resources.files("pywar.check.runner").joinpath(SEED_CLOCK)
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


def profile(name, **changes):
    """A named profile of limits, with some changed."""
    return replace(PROFILES[name], **changes)
