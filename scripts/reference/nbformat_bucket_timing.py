#!/usr/bin/python3
"""Time Python nbformat per file, in process: reads (which validates) + validate + writes,
the minimum of RUNS runs. Prints one tab-separated line per file: path, bytes, seconds
("-" when nbformat cannot read or write the file).
Usage: nbformat_bucket_timing.py RUNS FILE..."""
import sys, time, warnings
import nbformat

warnings.filterwarnings("ignore")
runs = int(sys.argv[1])
for path in sys.argv[2:]:
    raw = open(path, "rb").read()
    try:
        text = raw.decode("utf-8")
        best = None
        for _ in range(runs):
            s = time.perf_counter()
            nb = nbformat.reads(text, as_version=4)
            try:
                nbformat.validate(nb)
            except nbformat.ValidationError:
                pass
            nbformat.writes(nb)
            d = time.perf_counter() - s
            best = d if best is None else min(best, d)
        print(f"{path}\t{len(raw)}\t{best:.9f}")
    except Exception:
        print(f"{path}\t{len(raw)}\t-")
