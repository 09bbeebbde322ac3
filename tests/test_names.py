"""One name, one thing: no class name is defined in two modules of pywar/, and a light
import loads neither the grader nor NumPy nor the compiled core."""

import ast
import json
import subprocess
import sys
from collections import defaultdict

import pytest

from conftest import ROOT

PACKAGE = ROOT / "pywar"


def class_definitions(source):
    """The names of the classes that a module's source defines, at any depth."""
    return {node.name for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ClassDef)}


def defined_twice(files, root=ROOT):
    """{class name: [modules]} for each name that two or more of the files define."""
    where = defaultdict(list)
    for path in files:
        for name in class_definitions(path.read_text()):
            where[name].append(str(path.relative_to(root)))
    return {name: sorted(modules) for name, modules in where.items() if len(modules) > 1}


def test_no_class_name_is_defined_in_two_modules():
    """Each class name of pywar/ is defined in one module only."""
    assert defined_twice(sorted(PACKAGE.rglob("*.py"))) == {}


def test_the_finder_sees_a_planted_duplicate(tmp_path):
    """The check can fail: two files that both define Game (one inside a function)."""
    (tmp_path / "a.py").write_text("class Game:\n    pass\n")
    (tmp_path / "b.py").write_text("def f():\n    class Game:\n        pass\n")
    (tmp_path / "c.py").write_text("class Other:\n    pass\n")
    found = defined_twice(sorted(tmp_path.glob("*.py")), tmp_path)
    assert found == {"Game": ["a.py", "b.py"]}


def loaded_by(statement):
    """The modules that a fresh interpreter holds after the statement, from the project."""
    code = f"import json, sys; {statement}; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return set(json.loads(done.stdout))


@pytest.mark.parametrize("statement", ["import pywar.common.rng", "import pywar.port",
                                       "import pywar", "import pywar.common.fields"])
def test_a_light_import_loads_no_grader_numpy_or_core(statement):
    """The facade imports a name only when it is used: a light import runs no grader
    (pywar.check), no NumPy and no compiled core."""
    heavy = {name for name in loaded_by(statement)
             if name.split(".")[0] == "numpy" or name.startswith(("pywar.check", "pywar._c"))}
    assert heavy == set()


def test_the_import_check_sees_a_heavy_import():
    """The check can fail: asking which engines are built brings in the core's layer."""
    assert "pywar._checked" in loaded_by("import pywar; pywar.engines()")
