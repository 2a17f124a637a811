#!/bin/sh
# kmap_offsets: kmap's lines, each object line with its allocator kind and
# slab cache, each access line with the bytes of the object its
# instruction touched. The test module's objects (1999 bytes, of its
# cache memorizer_test) are
# stored to at words j % 8 and loaded from likewise, so WRITES stores
# touch bytes [0, 8 * min(WRITES, 8)) and READS loads [0, 8 * min(READS,
# 8)), exactly. Tracing is off while both files are read, so the two hold
# the same records and counts; only frees (recorded whatever the mode: a
# process that exits between the reads frees pages found earlier) may
# close an object in between, so the free fields are left out of the
# comparison.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0"
. /vmrun/guest-lib.sh
cd /tmp
modprobe memorizer_test_module || echo "modprobe failed"
cp /bin/busybox /tmp/busybox-trig
echo 1 > $M/clear_object_list
echo 1 > $M/memorizer_log_access
M=$M /tmp/busybox-trig sh -c '
	T=/sys/kernel/debug/memorizer_test
	echo $$ > $M/memorizer_enabled
	echo "20 7 5" > $T/run
	echo "5 9 3" > $T/run
	echo 0 > $M/memorizer_enabled'
echo 0 > $M/memorizer_log_access
cat $M/kmap > /out/kmap
cat $M/kmap_offsets > /out/kmap_offsets

# Every access line has six fields, the range non-empty and inside the
# object (its size as requested, or the usable size no further than the
# next power of two a slab or page rounds it to).
ranges_sane() {
	awk -F, '
	/^[0-9a-f]/ { size = $4; next }
	{ if (NF != 6 || $5 + 0 >= $6 + 0) { print "bad range: " $0; exit 1 }
	  lim = 1; while (lim < size) lim *= 2
	  if (lim < 4096) lim = 4096
	  if ($6 + 0 > lim) { print "range past the object (" size "): " $0; exit 1 } }' "$1"
}

# Every object line has ten fields: a kind the kinds file names, and a
# cache name only for slab objects (the executable holds no comma).
kinds_sane() {
	awk -F, '
	BEGIN { split("kmalloc kmem_cache kmalloc_large vmalloc pages global percpu stack", k, " ")
		for (i in k) kind[k[i]] = 1 }
	/^[0-9a-f]/ { if (NF != 10 || !($9 in kind) ||
			  ($10 != "" && $9 != "kmalloc" && $9 != "kmem_cache")) {
			print "bad object line: " $0; exit 1 } }' "$1"
}

unfreed() { awk -F, -v OFS=, '/^[0-9a-f]/ { $6 = 0; $7 = 0 } 1' "$1"; }
unfreed /out/kmap > /tmp/kmap.unfreed
sed -E 's/^(  [0-9a-f]+,[0-9]+,[0-9]+,[0-9]+),[0-9]+,[0-9]+$/\1/
	s/^([0-9a-f][^,]*(,[^,]*){7}),[^,]*,[^,]*$/\1/' \
	/out/kmap_offsets > /tmp/kmap.cut
unfreed /tmp/kmap.cut > /tmp/kmap.cut.unfreed
check "kmap is the seeds' format" kmap_valid /out/kmap
check "kmap_offsets is kmap plus two fields per object and access line" \
	cmp -s /tmp/kmap.unfreed /tmp/kmap.cut.unfreed
check "every object line names its kind, and its cache if a slab's" \
	kinds_sane /out/kmap_offsets
check "the test objects are kmem_cache objects of cache memorizer_test" \
	[ "$(awk -F, '$4 == 1999 && $8 == "busybox-trig" && $9 == "kmem_cache" &&
		$10 == "memorizer_test"' /out/kmap_offsets | wc -l)" = 25 ]
check "test objects' 7 stores over [0, 56), 5 loads over [0, 40)" \
	[ "$(test_objects /out/kmap_offsets 7 5 56 40)" = 20 ]
check "test objects' 9 stores over [0, 64), 3 loads over [0, 24)" \
	[ "$(test_objects /out/kmap_offsets 9 3 64 24)" = 5 ]
check "every range non-empty and inside its object" \
	ranges_sane /out/kmap_offsets
finish
