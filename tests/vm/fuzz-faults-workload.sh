#!/bin/sh
# The guest fuzzer (fuzz-control.sh) for 60 s while failslab and fail_page_alloc fail 1 in 100 of the
# workloads' allocations (hackbench's, tar's): the same checks, and no report of any kind.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0" --timeout 1500 --file tests/vm/fuzz-control.sh --file out/tests/stream-probe
exec sh /vmrun/fuzz-control.sh 60 "" workload
