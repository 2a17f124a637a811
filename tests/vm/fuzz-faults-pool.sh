#!/bin/sh
# The guest fuzzer (fuzz-control.sh) for 60 s while fail_memorizer_pool fails 1 in 100 of Memorizer's own
# chunks, in every context: the same checks, and no report of any kind.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0" --timeout 1500 --file tests/vm/fuzz-control.sh --file out/tests/stream-probe
exec sh /vmrun/fuzz-control.sh 60 "" pool
