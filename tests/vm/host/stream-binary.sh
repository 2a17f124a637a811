#!/bin/sh
# The host's half of vm/stream-binary (tests/run runs it after the guest's,
# with the guest's --out directory): the stream the collector wrote checks,
# converts to a kmap, and holds every test-module object exactly once with
# its exact counts. The stream is deleted when every check passes (it is
# hundreds of MB a run) and kept for a look when one fails.
. "$(dirname "$0")/../../lib/guest-lib.sh"
out=$1
memorizer=${MEMORIZER:-out/bin/memorizer}
made=$(cat "$out/test-objects-made")
check "the stream checks" "$memorizer" check "$out/s.bin"
"$memorizer" text -o "$out/s.kmap" "$out/s.bin" 2> "$out/text.err"
text_rc=$?
cat "$out/text.err"
echo "memorizer text: exit $text_rc, $(wc -c < "$out/s.kmap") bytes"
check "the stream converts to text" [ $text_rc = 0 ]
check "its text is a kmap" kmap_valid "$out/s.kmap"
n=$(test_objects "$out/s.kmap" 7 5)
all=$(test_objects_any "$out/s.kmap")
echo "test objects: $all in the stream, $n with exact counts, $made made"
check "every test object, with exact counts" [ "$n" = "$made" ]
check "each exactly once" [ "$all" = "$made" ]
finish && rm -f "$out/s.bin" "$out/s.kmap"
