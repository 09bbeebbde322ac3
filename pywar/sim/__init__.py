"""Many games: simulate() (run.py), played in chunks on threads (batch.py) or on a Dask
cluster (cluster.py), summed into exact statistics (accumulator.py) and kept as a
Simulation (simulation.py), with its plot (plot.py)."""
