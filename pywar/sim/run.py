"""simulate(): the checks of a run's arguments, its CSV file, and the choice between the
threads of this machine and a Dask cluster."""

from contextlib import contextmanager

from ..arguments import check_binary_file, check_client, progress_function
from ..common.fields import SEED_LIMIT, check_count, check_seed
from ..engine_choice import PORT_ENGINES, resolve_engine, usable_cores
from ..rules import make_rules


def simulate(n, rules="smu", seed=0, engine=None, jobs=None, progress=None, keep_games=True,
             csv=None, chunk=None, client=None, **dimensions):
    """Play n games, with seeds seed, seed + 1, ... (mod 2^32), and return a Simulation.

    The C engine plays in bulk, in chunks split across jobs threads (default: the usable
    cores), or across the workers of a Dask cluster given as client (a
    distributed.Client; pip install 'pywar[dask]'); the result does not depend on jobs,
    chunk (games per chunk, default: sized automatically) or the workers.  The Python
    twin computes the same, slowly.  Each chunk is summed into exact statistics as it
    finishes; keep_games=False keeps only those, so memory does not grow with n, and
    keep_games=True (the default) also keeps every game's fields as arrays.  csv, a path
    or a binary file, receives one row per game in seed order as chunks finish.
    progress, if a function, is called as progress(finished, n) now and then, and last as
    progress(n, n), once every game is finished; progress=True draws tqdm's bar on
    stderr, and False or None draws nothing.  Ctrl-C raises SimulationInterrupted,
    whose .simulation holds the games finished from the first seed on, with no gap.
    """
    n = check_count("n", n, high=SEED_LIMIT)
    seed = check_seed(seed)
    jobs = usable_cores() if jobs is None else check_count("jobs", jobs, high=1024)
    chunk = None if chunk is None else check_count("chunk", chunk, high=SEED_LIMIT)
    chosen = make_rules(rules, **dimensions)
    engine = resolve_engine(engine)
    if engine in PORT_ENGINES:
        raise ValueError("the port plays one game at a time (pywar.play): "
                         "simulate with engine c or python")
    csv = None if csv is None else check_binary_file("csv", csv)
    progress = progress_function(progress, "simulating")
    check_client(client)
    report = None if progress is None else (lambda finished: progress(finished, n))
    from . import batch
    if keep_games:
        batch.check_memory(n)       # before the CSV file is opened (and emptied)
    with csv_target(csv) as rows:
        if client is not None:
            from . import cluster
            return cluster.simulate(client, seed, n, chosen, engine, report, keep_games,
                                    rows, chunk)
        return batch.run(seed, n, chosen, engine, jobs if engine == "c" else 1, report,
                         keep_games, rows, chunk)


@contextmanager
def csv_target(csv):
    """A binary file for CSV rows: None, a file given, or a path written through
    pywar.atomic: put in place when the run ends, or is interrupted after a game
    finished (the finished games' rows), and left as it was after a failure or an
    interruption before any game finished."""
    if csv is None or hasattr(csv, "write"):
        yield csv
        return
    from ..atomic import written
    from .simulation import SimulationInterrupted
    with written(csv, keep=SimulationInterrupted,
                 finished=lambda stopped: stopped.simulation.games) as handle:
        yield handle
