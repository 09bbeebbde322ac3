"""Turn a pytest-benchmark JSON file into docs/performance.md's table of figures.

    pytest bench --benchmark-json=bench.json && python bench/report.py bench.json
"""

import json
import platform
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
    yardstick = figures["test_yardstick"][1]
    if len(yardstick["folds"]) != 1:
        sys.exit("report.py: the engine and the tight loop played different games")
    engine_seconds, tight_seconds = yardstick["engine_seconds"], yardstick["tight_seconds"]
    pair_ratios = [tight / engine for engine, tight in zip(engine_seconds, tight_seconds)]
    engine_rate = yardstick["games"] / median(engine_seconds)
    tight_rate = yardstick["games"] / median(tight_seconds)
    out.append(("iofall: the engine's batch in plain C, games/s", f"{engine_rate:,.0f}", ""))
    out.append(("iofall: bench/tight_iofall.c, the same games, games/s", f"{tight_rate:,.0f}", ""))
    out.append(("iofall: engine over the tight loop (median of the pairs run in turn)",
                f"{median(pair_ratios):.2f}x ({min(pair_ratios):.2f} to {max(pair_ratios):.2f})",
                ">= 1.00x"))
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


def main(path):
    """Print the table as Markdown, with the machine it came from.  Run the whole of
    bench/ first: the table needs every benchmark."""
    figures, machine = load(path)
    needed = {"test_binding_cffi", "test_binding_plain_c", "test_play_call_twin",
              "test_yardstick"}
    missing = sorted(needed - set(figures))
    if missing:
        sys.exit(f"report.py: {path} lacks {', '.join(missing)}: run all of pytest bench")
    print(f"Machine: {machine.get('cpu', {}).get('brand_raw', platform.processor())}, "
          f"{machine.get('cpu', {}).get('count', '?')} cores, Python "
          f"{machine.get('python_version')}, {machine.get('system')} {machine.get('release')}\n")
    print("| measure | figure | target |\n|---|---|---|")
    for what, figure, target in rows(figures):
        print(f"| {what} | {figure} | {target} |")


if __name__ == "__main__":
    main(sys.argv[1])
