#!/bin/sh
# vm/mtrace-sharing at granularity=byte: the same guest run (its script,
# tests/vm/mtrace-sharing.sh, sourced), the plugin applying the sharing
# rule to the bytes each access touches. The host half
# (tests/vm/host/mtrace-sharing-byte.sh) expects the counter's true
# sharing still flagged, and the false sharing, two threads writing bytes
# 0-3 and 32-35 of one line, not.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0" --mtrace "$out/mtrace.log" --mtrace-mode sharing --mtrace-granularity byte --file out/mtrace/modules/obj/mtrace_task.ko --file out/mtrace/modules/obj/mtrace_share_test.ko --file tests/vm/mtrace-sharing.sh:sharing.sh
. /vmrun/sharing.sh
