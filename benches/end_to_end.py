#!/usr/bin/env python3
"""Large worlds end to end, process start to exit, for one or more strata binaries.

    python3 benches/end_to_end.py target/release/strata [OTHER_BINARY ...] [--rounds N]
        [--preset NAME] [--size WxH] [--no-stats]

Runs `strata gen --preset large --seed S --stats` (or the preset and size given; without
--stats if --no-stats) for seeds 1 to 10, N rounds (default 3),
the binaries alternating run by run so that a drifting machine treats them alike, and
prints each binary's median, quartiles, fastest run and peak memory. A binary given as
PATH::PRESET runs that preset instead (an older build with its own preset file).
"""
import argparse
import resource
import statistics
import subprocess
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--preset", default="large")
    ap.add_argument("--size", help="WxH, passed on as gen --size")
    ap.add_argument("--no-stats", action="store_true", help="run plain gen, without --stats")
    args = ap.parse_args()
    times = {b: [] for b in args.binaries}
    peak = {b: 0 for b in args.binaries}
    for r in range(args.rounds):
        for seed in range(1, 11):
            order = args.binaries if (r + seed) % 2 == 0 else args.binaries[::-1]
            for b in order:
                path, _, preset = b.partition("::")
                before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
                start = time.perf_counter()
                size = ["--size", args.size] if args.size else []
                stats = [] if args.no_stats else ["--stats"]
                subprocess.run(
                    [path, "gen", "--preset", preset or args.preset, "--seed", str(seed)] + stats + size,
                    stdout=subprocess.DEVNULL,
                    check=True,
                )
                times[b].append((time.perf_counter() - start) * 1000)
                peak[b] = max(peak[b], resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, before)
    for b, t in times.items():
        t.sort()
        q = statistics.quantiles(t, n=4)
        print(
            f"{b}: median {statistics.median(t):.1f} ms, p25-p75 {q[0]:.1f}-{q[2]:.1f}, "
            f"fastest {t[0]:.1f}, n={len(t)}"
        )
    print(f"peak memory of any run: {max(peak.values()) // 1024} MB")


if __name__ == "__main__":
    main()
