"""Measure what docs/scale.md and docs/performance.md quote: the cost of one
chunk (a Dask task, or a thread's chunk), and games/s on 1 and 2 local Dask workers
against --jobs 1 and 2.  Not a test: run it by hand, on a quiet machine.

    python bench/scale.py [--rules iofall] [--games 2000000] [--repeat 3]

Cost per chunk: the same games played in many tiny chunks and in few large ones; the
difference in wall time over the difference in chunks is what one chunk costs beyond
its games (scheduling, pickling, the accumulator, the fold).  Dask needs pywar[dask].
"""

import argparse
import logging
import time

import pywar

TINY = 64                      # games per chunk when measuring the cost of a chunk


def best_time(action, repeat):
    """The least wall time of repeat calls of action()."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def chunk_cost(run, games, large, repeat):
    """Seconds a chunk costs beyond its games: (tiny chunks - large chunks) / chunks."""
    tiny_time = best_time(lambda: run(games, TINY), repeat)
    large_time = best_time(lambda: run(games, large), repeat)
    extra_chunks = games / TINY - games / large
    return (tiny_time - large_time) / extra_chunks


def threaded(rules, jobs):
    """A run on jobs threads: run(games, chunk)."""
    return lambda games, chunk: pywar.simulate(games, rules, jobs=jobs, chunk=chunk,
                                               keep_games=False)


def on_cluster(rules, client):
    """A run on a Dask cluster: run(games, chunk)."""
    return lambda games, chunk: pywar.simulate(games, rules, client=client, chunk=chunk,
                                               keep_games=False)


def rate(run, games, repeat, chunk=None):
    """Games per second of the best of repeat runs."""
    return games / best_time(lambda: run(games, chunk), repeat)


def measure_threads(args):
    """Games/s and the cost per chunk for --jobs 1 and 2."""
    for jobs in (1, 2):
        run = threaded(args.rules, jobs)
        speed = rate(run, args.games, args.repeat)
        cost = chunk_cost(run, args.cost_games, 32768, args.repeat)
        print(f"threads  jobs {jobs}: {speed:,.0f} games/s; a chunk costs "
              f"{cost * 1e3:.2f} ms beyond its games")


def measure_cluster(args):
    """Games/s and the cost per task on LocalClusters of 1 and 2 worker processes."""
    import distributed
    for workers in (1, 2):
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                      processes=True, dashboard_address=":0",
                                      silence_logs=logging.ERROR) as cluster, \
                distributed.Client(cluster) as client:
            run = on_cluster(args.rules, client)
            run(args.cost_games, None)                       # warm the workers up
            speed = rate(run, args.games, args.repeat)
            cost = chunk_cost(run, args.cost_games // 4, 65_536, args.repeat)
            print(f"dask     {workers} worker(s): {speed:,.0f} games/s; a task costs "
                  f"{cost * 1e3:.2f} ms beyond its games")


def main():
    """Parse the options and print the measures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="iofall")
    parser.add_argument("--games", type=int, default=2_000_000)
    parser.add_argument("--cost-games", type=int, default=262_144)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    measure_threads(args)
    if not args.no_dask:
        measure_cluster(args)


if __name__ == "__main__":
    main()
