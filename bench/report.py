"""Turn a pytest-benchmark JSON file into docs/performance.md's table of figures, and
say which targets the run missed and whether the machine was loaded while it ran.

    pytest bench --benchmark-json=bench.json && python bench/report.py bench.json
"""

import json
import platform
import re
import sys
from statistics import median


def load(path):
    """name: (median seconds, extra_info) for each benchmark in the file."""
    data = json.load(open(path))
    figures = {bench["name"]: (bench["stats"]["median"], bench["extra_info"])
               for bench in data["benchmarks"]}
    return figures, data["machine_info"]


def rate(figures, name):
    """Games per second of one benchmark, from its median round."""
    seconds, info = figures[name]
    return info["games"] / seconds


def ratio_text(ratios):
    """The median of some ratios with their range."""
    return f"{median(ratios):.2f}x ({min(ratios):.2f} to {max(ratios):.2f})"


def yardstick_rows(info, preset, loop):
    """The yardstick's rows for one preset: games/s of the engine through pywar simulate
    and in plain C, and of the loop; the engine's speed over the loop's, the median of the
    rounds run in turn."""
    if len(info["folds"]) != 1:
        sys.exit(f"report.py: the engine and the {preset} loop played different games")
    target = {"iofall": ">= 1.1x", "smu": ">= 2.0x"}[preset]
    loop_seconds = info["tight_seconds"]
    out = []
    for program, what in (("simulate", "`pywar simulate --jobs 1 --engine c`"),
                          ("engine", "the engine's batch in plain C")):
        seconds = info[f"{program}_seconds"]
        ratios = [tight / mine for mine, tight in zip(seconds, loop_seconds)]
        out.append((f"{preset}: {what}, games/s", f"{info['games'] / median(seconds):,.0f}", ""))
        out.append((f"{preset}: {what} over {loop} (median of {len(ratios)} rounds in turn)",
                    ratio_text(ratios), target if program == "simulate" else ""))
    out.append((f"{preset}: {loop}, games/s", f"{info['games'] / median(loop_seconds):,.0f}", ""))
    return out


def path_rows(figures):
    """The rows of whole games on each of the generator's paths (test_rng_paths): each
    path's games/s, and its time over the path "best" takes, whose target says that no
    path of the processor is faster (the figures that choose Rng_BestPath)."""
    out = []
    for name in sorted(name for name in figures if name.startswith("test_rng_paths[")):
        info = figures[name][1]
        rules = name[len("test_rng_paths["):-1]
        rates = "; ".join(f"{path} {info['games'] / median(seconds):,.0f}"
                          for path, seconds in info["seconds"].items())
        out.append((f"{rules}: C core, games/s on each generator path", rates, ""))
        for path, ratio in info["over_best"].items():
            if path != info["best"]:
                out.append((f"{rules}: time on the {path} path over the best's "
                            f"({info['best']}; median of {len(info['seconds'][path])} rounds "
                            "in turn)", f"{ratio:.2f}x", ">= 1.00x"))
    return out


def rows(figures):
    """The table's rows: what, figure, target."""
    out = []
    for preset in ("smu", "lehigh", "iofall", "iofall-single"):
        c = rate(figures, f"test_batch_c[{preset}]")
        py = rate(figures, f"test_batch_twin[{preset}]")
        target = {"smu": ">= 35,000 (no slower than before the split)"}.get(preset, "")
        out.append((f"{preset}: C core, games/s on one core", f"{c:,.0f}", target))
        out.append((f"{preset}: twin, games/s", f"{py:,.0f}", ""))
        out.append((f"{preset}: C over twin", f"{c / py:,.0f}x",
                    ">= 100x" if preset == "smu" else ""))
    for preset, loop in (("iofall", "bench/tight_iofall.c"), ("smu", "bench/tight_smu.c, naive")):
        out.extend(yardstick_rows(figures[f"test_yardstick[{preset}]"][1], preset, loop))
    out.extend(path_rows(figures))
    jobs = sorted((name for name in figures if name.startswith("test_jobs_scaling")),
                  key=lambda name: figures[name][1]["jobs"])
    one = rate(figures, jobs[0])
    for name in jobs[1:]:
        count = figures[name][1]["jobs"]
        out.append((f"smu: jobs={count} over jobs=1", f"{rate(figures, name) / one:.2f}x",
                    ">= 1.8x" if count == 2 else ""))
    cffi_seconds = figures["test_binding_cffi"][0]
    plain_seconds = figures["test_binding_plain_c"][1]["driver_seconds"]
    out.append(("smu batch: cffi time over plain-C driver time",
                f"{cffi_seconds / plain_seconds:.3f}", "<= 1.05"))
    for layer in ("raw lib", "checked", "facade"):
        seconds = figures[f"test_play_call_c[{layer}]"][0]
        out.append((f"one play() of seed 17455 (29 rounds), C, {layer}", f"{seconds * 1e6:,.1f} us", ""))
    out.append(("one play() of seed 17455, twin",
                f"{figures['test_play_call_twin'][0] * 1e6:,.0f} us", ""))
    for engine in ("port-c", "port-python"):
        seconds = figures[f"test_play_call_port[{engine}]"][0]
        out.append((f"one play() of seed 17455, the port, {engine}", f"{seconds * 1e6:,.1f} us", ""))
    return out


def number(text):
    """The first number in a figure or a target, as a float (1,234.5x is 1234.5)."""
    found = re.search(r"\d[\d,]*(?:\.\d+)?", text)
    return float(found[0].replace(",", "")) if found else None


def missed(table):
    """The rows whose figure misses their target (>= or <= a number)."""
    out = []
    for what, figure, target in table:
        bound = re.match(r"\s*(>=|<=)", target)
        if bound is None or number(figure) is None:
            continue
        value, limit = number(figure), number(target)
        if (value < limit) if bound[1] == ">=" else (value > limit):
            out.append((what, figure, target))
    return out


LOADED = 0.5        # a load average over half the cores: another job shared the machine


def load_line(machine):
    """Whether the machine was loaded, from the load averages the run kept (one minute's
    before the first benchmark and after the last)."""
    load = machine.get("load_average")
    if not load:
        return "Load: not recorded (a run from before bench/conftest.py kept it)."
    cores = load.get("cores") or 1
    worst = max(load["start"][0], load["end"][0])
    verdict = "loaded" if worst > LOADED * cores else "quiet"
    return (f"Load: {verdict} (load average {load['start'][0]:.2f} before the run and "
            f"{load['end'][0]:.2f} after it, on {cores} cores; over {LOADED * cores:g} is "
            "loaded, and its figures are not to be compared with a quiet run's).")


def main(path):
    """Print the table as Markdown, with the machine it came from.  Run the whole of
    bench/ first: the table needs every benchmark."""
    figures, machine = load(path)
    needed = {"test_binding_cffi", "test_binding_plain_c", "test_play_call_twin",
              "test_yardstick[iofall]", "test_yardstick[smu]"}
    missing = sorted(needed - set(figures))
    if missing:
        sys.exit(f"report.py: {path} lacks {', '.join(missing)}: run all of pytest bench")
    print(f"Machine: {machine.get('cpu', {}).get('brand_raw', platform.processor())}, "
          f"{machine.get('cpu', {}).get('count', '?')} cores, Python "
          f"{machine.get('python_version')}, {machine.get('system')} {machine.get('release')}\n")
    table = rows(figures)
    print("| measure | figure | target |\n|---|---|---|")
    for what, figure, target in table:
        print(f"| {what} | {figure} | {target} |")
    misses = missed(table)
    targets = sum(1 for _, _, target in table if target.startswith((">=", "<=")))
    print(f"\nMissed: {len(misses)} of {targets} targets")
    for what, figure, target in misses:
        print(f"- {what}: {figure}, target {target}")
    print(load_line(machine))


if __name__ == "__main__":
    main(sys.argv[1])
