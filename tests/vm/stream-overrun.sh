#!/bin/sh
# A binary buffer far too small, filled while nobody reads it: records are
# lost, and the stream says so exactly: total_overruns equals the sum of
# the LOST records in the stream.
# vm/run: --append "memorizer_enabled_boot=no memorizer.stream_buf_size=128K kunit.enable=0"
. /vmrun/guest-lib.sh
cd /tmp
check "nothing lost yet" [ "$(cat $M/total_overruns)" = 0 ]
# An open cpu file turns the channel on; nobody reads it.
exec 3< $M/binary/cpu0
echo 1 > $M/memorizer_enabled
echo 1 > $M/memorizer_log_access
tar zcf /tmp/a.tgz /etc /bin
echo 0 > $M/memorizer_log_access
echo 0 > $M/memorizer_enabled
memorizer stream --binary -o /tmp/s.bin 2> /tmp/stream.err & c=$!
sleep 3
kill -INT $c
wait $c
exec 3<&-
cat /tmp/stream.err
lost=$(cat $M/total_overruns)
echo "total_overruns: $lost"
check "records were lost" [ "$lost" -gt 0 ]
inband=$(sed -n 's/.*lost records: \([0-9]*\).*/\1/p' /tmp/stream.err)
check "the LOST records in the stream add up to total_overruns" [ "$inband" = "$lost" ]
check "the stream still checks" memorizer check /tmp/s.bin
finish
