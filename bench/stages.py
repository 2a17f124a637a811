#!/usr/bin/env python3
"""bench/stages.py RUNS ROUNDS PAIRS [--icount]: bench/stages' table.

RUNS holds one directory per boot, STAGE.ROUND (STAGE 1, 2, 3, or 0 for
the whole path), each with the guest's off, on (seconds, one per line)
and accesses (traced accesses over the PAIRS "on" runs) files
(bench/guest/stages.sh). Per kernel: the medians of off and on over all
its runs, their difference, and what the stage adds to the stage before,
in seconds and in ns per traced access of one run (the whole kernel's
count, median over its boots). With --icount the boots ran on an
instruction clock (vm/run --icount), and a virtual ns is one guest
instruction: the table says so.
"""
import statistics
import sys

NAMES = {
    1: "context check (call, level, mode, busy flag)",
    2: "record lookup (ways, inline, index, attribution)",
    3: "counter lookup and creation",
    0: "span and count (the whole path)",
}


def times(runs, stage, rounds, name):
    values = []
    for r in range(1, rounds + 1):
        with open(f"{runs}/{stage}.{r}/{name}") as f:
            values += [float(x) for x in f.read().split()]
    return values


def main():
    icount = sys.argv[4:] == ["--icount"]
    if len(sys.argv) != 4 + icount:
        sys.exit("usage: bench/stages.py RUNS ROUNDS PAIRS [--icount]")
    runs, rounds, pairs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    unit = "instructions" if icount else "ns"
    counts = []
    for r in range(1, rounds + 1):
        with open(f"{runs}/0.{r}/accesses") as f:
            counts.append(int(f.read()))
    per_run = statistics.median(counts) / pairs
    if per_run <= 0:
        sys.exit("bench/stages.py: the whole kernel traced no access")
    print("| stops after | off s | on s | on - off s | stage adds s "
          f"| stage {unit} per access |")
    print("|---|---|---|---|---|---|")
    prev = 0.0
    for s in (1, 2, 3, 0):
        off = statistics.median(times(runs, s, rounds, "off"))
        on = statistics.median(times(runs, s, rounds, "on"))
        cost = on - off
        adds = cost - prev
        label = f"stage {s}" if s else "nothing"
        print(f"| {label}: {NAMES[s]} | {off:.3f} | {on:.3f} | {cost:.3f} "
              f"| {adds:+.3f} | {1e9 * adds / per_run:.0f} |")
        prev = cost
    print()
    print(f"{rounds} boots of each kernel, {pairs} runs each with the path off "
          f"and on, medians; {per_run:.0f} traced accesses per run (the "
          f"whole kernel's, median over its boots)." +
          (" Instruction clock (vm/run --icount): a second is 10^9 guest "
           "instructions." if icount else ""))


if __name__ == "__main__":
    main()
