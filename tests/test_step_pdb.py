"""pywar step --pdb steps over pywar's own machinery: s(tep) at the observer's call goes
on to the reference's next line, and never into the observer or what it reads."""

import subprocess
import sys

from conftest import ROOT

FACE_UP_LINE = "self.observer.face_up()"


def stepped(commands):
    """The debugger's output for commands typed into pywar step --pdb --seed 17455."""
    run = subprocess.run([sys.executable, "-m", "pywar", "step", "--pdb", "--seed", "17455"],
                         input="\n".join(commands) + "\nq\n", capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    return run.stdout


def test_a_step_at_the_observer_goes_to_the_next_line_of_the_port():
    out = stepped(["n"] * 7 + ["s", "where"])
    at_observer = out.index(FACE_UP_LINE)
    after = out[at_observer + len(FACE_UP_LINE):]
    assert "observer.py" not in after and "read_pile" not in after
    assert "do_battle()" in after


def test_machinery_tells_the_observer_from_the_port():
    """The skip can fail: a frame of the observer is machinery, this test's is not."""
    from pywar.common.observer import Observer
    from pywar.step.model import machinery
    frames = []

    def read(pile):
        frames.append(sys._getframe(1))          # the observer's frame, reading a pile
        return []

    Observer(read).sizes()
    assert machinery(frames[0])
    assert not machinery(sys._getframe())
