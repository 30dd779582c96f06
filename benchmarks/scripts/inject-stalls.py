#!/usr/bin/env python3
"""Makes host-like stalls on one CPU, for measuring what the loop does after them (docs/performance.md,
*Nineteenth session*): every 10-30 ms it busy-waits 0.6-1.3 ms, the stalls measured on the 2-vCPU VM.

Run it on the loop thread's CPU at a real-time priority above the loop's (10), so that it takes the CPU from it:

    taskset -c 1 chrt -f 50 python3 benchmarks/scripts/inject-stalls.py SECONDS [SEED]

The same SEED gives the same stalls at the same times from its start, so two builds can meet the same ones. It keeps
the CPU at most 1.3 ms in 10 ms (about 5 % on average): the kernel's real-time throttle (95 %) never applies.
"""
import random
import sys
import time

if len(sys.argv) < 2:
    sys.exit("usage: inject-stalls.py SECONDS [SEED]")
random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
end = time.monotonic() + float(sys.argv[1])
stalls = 0
while time.monotonic() < end:
    time.sleep(random.uniform(0.010, 0.030))
    start = time.perf_counter()
    length = random.uniform(0.0006, 0.0013)
    while time.perf_counter() - start < length:
        pass
    stalls += 1
print("stalls:", stalls, file=sys.stderr)
