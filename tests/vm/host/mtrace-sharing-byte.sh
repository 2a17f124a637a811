#!/bin/sh
# The host's half of vm/mtrace-sharing-byte: vm/mtrace-sharing's, at
# granularity byte (see there).
exec sh "$(dirname "$0")/mtrace-sharing.sh" "$1" byte
