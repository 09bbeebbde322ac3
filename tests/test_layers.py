"""The package's layers point down: the facade (pywar/__init__.py) gathers and
re-exports; no module below it imports it; the command line sits above it; and no
modules import each other in a circle, counting the imports made inside functions."""

import ast
from pathlib import Path

import pytest

import pywar

PACKAGE = Path(pywar.__file__).parent
ABOVE = ("pywar.cli", "pywar.__main__")      # the command line uses the facade


def module_name(path):
    """The dotted name of a module's file."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name):
    """True when a dotted name under pywar is a module or a package of the tree."""
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def imported(path):
    """(line, module imported, names taken from it) for every import of a file."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, ()
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[:len(base) - node.level + 1] if node.level else []
            source = ".".join(base + ([node.module] if node.module else []))
            yield node.lineno, source, tuple(alias.name for alias in node.names)


def modules():
    """Every module of the package: {dotted name: path}."""
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def edges(name, path):
    """The modules of the package that a module imports: a name taken from a package
    that is a module of it counts as that module."""
    found = set()
    for _, source, names in imported(path):
        if not source.startswith("pywar"):
            continue
        subs = [f"{source}.{taken}" for taken in names if is_module(f"{source}.{taken}")]
        if subs:
            found.update(subs)
        if len(subs) < len(names) or not names:
            found.add(source)
    found.discard(name)
    return found


def test_nothing_below_the_facade_imports_it():
    """A library module takes what it needs from the module that holds it, never from
    pywar itself: `import pywar`, `from pywar import x` and `from . import x` (x not a
    module) are the command line's alone."""
    wrong = []
    for name, path in modules().items():
        if name == "pywar" or name.startswith(ABOVE):
            continue
        for line, source, names in imported(path):
            facade_names = [taken for taken in names if not is_module(f"pywar.{taken}")]
            if source == "pywar" and (not names or facade_names):
                wrong.append(f"{name}:{line} takes {facade_names or 'pywar'} from the facade")
    assert wrong == []


BEHIND = ("pywar.common", "pywar.twin", "pywar.port")   # the editions' halves, reached
                                                        # through the library's functions


def reaches_behind(source, names):
    """True when an import takes from the editions' halves or from a private module or
    name (one whose name starts with an underscore)."""
    private = [part for part in source.split(".") + list(names)
               if part.startswith("_") and not part.startswith("__")]
    taken = [source] + [f"{source}.{name}" for name in names]   # a module taken by name
    return any(name.startswith(BEHIND) for name in taken) or bool(private)


def test_the_command_line_calls_the_library_only():
    """pywar/cli/ takes what it calls from the facade and the packages by user (sim,
    exact, step, check, rules), never from pywar.common, pywar.twin, pywar.port or a
    private module: the command line is one more user of the library."""
    wrong = [f"{name}:{line} takes from {source} {list(names)}"
             for name, path in modules().items() if name.startswith(ABOVE)
             for line, source, names in imported(path)
             if source.startswith("pywar") and reaches_behind(source, names)]
    assert wrong == []


def test_the_reach_finder_finds_a_planted_import():
    """The test above can fail: imports behind the library are found, the library's are not."""
    assert reaches_behind("pywar.common.trace", ("read",))
    assert reaches_behind("pywar", ("_checked",))
    assert reaches_behind("pywar", ("twin",)) and reaches_behind("pywar", ("common",))
    assert not reaches_behind("pywar.check.implementations.replay", ("split_lines",))
    assert not reaches_behind("pywar", ())


def test_the_facade_only_gathers():
    """pywar/__init__.py defines no function but the lazy-import hooks, and no class."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    defined = [node.name for node in tree.body
               if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
    assert defined == ["__getattr__", "__dir__"]


def find_cycle(graph):
    """A list of modules that import each other in a circle, or None."""
    state = {}

    def visit(node, trail):
        state[node] = "open"
        for following in sorted(graph.get(node, ())):
            if state.get(following) == "open":
                return trail[trail.index(following):] + [following]
            if following not in state:
                found = visit(following, trail + [following])
                if found:
                    return found
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


def test_the_import_graph_has_no_cycle():
    """No modules import each other in a circle (the facade and the command line above
    it left out: they only look down)."""
    graph = {name: {target for target in edges(name, path) if target != "pywar"}
             for name, path in modules().items() if name != "pywar"}
    assert find_cycle(graph) is None


def test_the_cycle_finder_finds_a_planted_cycle():
    """The test above can fail: a planted circle is found."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]


def test_compare_and_exact_counts_are_functions_and_the_packages_packages():
    """pywar.compare and pywar.exact_counts are the functions themselves, while
    pywar.check.referee.judge and pywar.exact.enumeration stay reachable as attributes (a facade
    that bound the packages' names to the functions would hide the packages)."""
    import pywar.check.referee.judge
    import pywar.exact.enumeration
    from pywar.check.implementations.agreement import check
    from pywar.exact.enumeration import exact
    assert pywar.compare is check and pywar.exact_counts is exact
    assert callable(pywar.check.referee.judge.judge) and callable(pywar.exact.enumeration.exact)
    small = {"deck": "3x1", "piles": "queue", "pickup": "winner-first"}
    assert pywar.exact_counts(**small).orderings == 6    # 3!
    assert pywar.compare(5, engine="python", against="port-python").agreed == 5


def test_calling_the_packages_still_works_and_warns():
    """The compatibility path: pywar.check(...) and pywar.exact(...) give what the
    functions give, with their signatures, and warn naming the function to call."""
    import inspect
    small = {"deck": "3x1", "piles": "queue", "pickup": "winner-first"}
    with pytest.warns(DeprecationWarning, match=r"call pywar\.exact_counts\(\.\.\.\)"):
        assert pywar.exact(**small).orderings == 6
    with pytest.warns(DeprecationWarning, match=r"call pywar\.compare\(\.\.\.\)"):
        assert pywar.check(3, engine="python", against="port-python").agreed == 3
    assert inspect.signature(pywar.check) == inspect.signature(pywar.compare)
    assert inspect.signature(pywar.exact) == inspect.signature(pywar.exact_counts)
