#!/bin/sh
# Every allocation API Memorizer hooks, called from a module as modules
# call them (kernel/mm/memorizer/memorizer_test_module.c, "apis"): by the
# test module built in the tree, and by the same source built out of tree
# against the kernel (memorizer_oot, scripts/build-kernel.sh). Each API's
# objects are recorded with the module function that allocated them as
# call site and free site, the size asked for, the writing process, and
# exactly the loads and stores they got.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0"
. /vmrun/guest-lib.sh
cd /tmp
cp /bin/busybox /tmp/busybox-trig
W=3
R=2

# Function, objects it allocates, their size. api_alloc_percpu's area and
# the module's globals are found objects (alloc_ip their own address), not
# allocations: apis_exact passes them by, module_global checks one.
cat > /tmp/expected <<'EOF'
api_kmalloc 1 2001
api_kzalloc 1 2002
api_kcalloc 1 2001
api_kmalloc_array 1 2004
api_kmalloc_node 1 2005
api_kmemdup 1 2006
api_krealloc 1 250
api_kmalloc_large 1 20008
api_kmem_cache_alloc 1 1999
api_kmem_cache_zalloc 1 1999
api_kmem_cache_alloc_node 1 1999
api_kmem_cache_alloc_bulk 3 1999
api_vmalloc 1 12297
api_vzalloc 1 4106
api_vmalloc_node 1 8203
api_alloc_pages 1 8192
api_alloc_page 1 4096
api_alloc_pages_node 1 16384
api___alloc_pages 1 8192
api___alloc_pages_node 1 4096
api___get_free_pages 1 16384
api___get_free_page 1 4096
api_get_zeroed_page 1 4096
api_folio_alloc 1 8192
api___folio_alloc 1 16384
api___folio_alloc_node 1 4096
EOF

# apis_kmap MODULE: load MODULE, trace one pass through its apis file
# (mode 3, accesses on), keep the kmap and the module's text symbols.
apis_kmap() {
	modprobe "$1" || return 1
	echo 1 > $M/clear_dead_objects
	echo 1 > $M/memorizer_log_access
	/tmp/busybox-trig sh -c "echo \$\$ > /tmp/$1.pid
		echo 3 > $M/memorizer_enabled
		echo '$W $R' > /sys/kernel/debug/memorizer_test/apis
		echo 0 > $M/memorizer_enabled" || return 1
	echo 0 > $M/memorizer_log_access
	cat $M/kmap > /out/$1.kmap
	# Kernel and module addresses print with 16 hex digits: they compare
	# as strings.
	grep "\[$1\]\$" /proc/kallsyms | awk '$2 ~ /^[tT]$/ { print $1, $3 }' |
		sort > /out/$1.syms
	grep "\[$1\]\$" /proc/kallsyms | awk '$3 == "test_global" { print $1 }' \
		> /out/$1.global
	rmmod "$1"
	cat $M/kmap > /out/$1.gone.kmap
}

# module_global MODULE: its test_global is a found object at its own
# address of 96 bytes (its ELF size: 64, and the 32-byte redzone that
# clang's KASAN adds), pid 0, "global", live while the module is, with exactly
# the stores and loads of one touch(); after rmmod the same record is
# freed, its free site in the kernel's delete_module.
module_global() {
	a=$(cat /out/$1.global)
	[ -n "$a" ] || { echo "no test_global in /proc/kallsyms"; return 1; }
	awk -F, -v a="$a" -v pid="$(cat /tmp/$1.pid)" -v w=$W -v r=$R '
	function bad(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg; err = 1 }
	/^[0-9a-f]/ { cur = ($1 == a); if (cur) { n++; line = $0 }; next }
	cur { split(substr($0, 3), x, ",")
		if (x[2] == pid && x[3] == w && x[4] == 0) st++
		else if (x[2] == pid && x[3] == 0 && x[4] == r) ld++
		else bad("test_global accessed " $0) }
	END {
		if (n != 1) { printf "%d records of test_global, want 1\n", n; exit 1 }
		split(line, o, ",")
		want = a ",0," a ",96,"
		if (substr(line, 1, length(want)) != want || o[8] != "global" || o[6] != 0 || o[7] != 0)
			bad("test_global: " line ", want " want "J,0,0,global")
		if (st != 1 || ld != 1) bad(st " store lines and " ld " load lines of " w " and " r ", want 1 and 1")
		exit err
	}' /out/$1.kmap || return 1
	gone=$(awk -F, -v a="$a" '/^[0-9a-f]/ && $1 == a' /out/$1.gone.kmap)
	[ "$(echo "$gone" | wc -l)" = 1 ] || { echo "test_global after rmmod: $gone"; return 1; }
	free_jiffies=$(echo "$gone" | cut -d, -f6)
	free_ip=$(echo "$gone" | cut -d, -f7)
	[ "$free_jiffies" != 0 ] || { echo "test_global not freed at rmmod: $gone"; return 1; }
	site=$(awk -v ip="$free_ip" '$2 ~ /^[tT]$/ && $1 <= ip && $1 > best { best = $1; name = $3 }
		END { print name }' /proc/kallsyms)
	case $site in
	*delete_module*) ;;
	*) echo "test_global freed at $free_ip ($site), want delete_module"; return 1 ;;
	esac
}

# apis_exact MODULE: every expected object, and nothing else from the
# module's functions, with exact sites, size, pid and counts.
apis_exact() {
	awk -F, -v pid="$(cat /tmp/$1.pid)" -v w=$W -v r=$R -v kmap=/out/$1.kmap '
	function bad(msg) { printf "%s:%d: %s\n", kmap, FNR, msg; err = 1 }
	# The module function an address falls in, or "" outside the module.
	function fn(ip,   i) {
		for (i = nsym; i >= 1; i--) if (ip >= sym[i]) return name[i]
		return ""
	}
	function end_object() {
		if (cur && (stores != 1 || loads != 1))
			bad(cur " object: " stores " store lines and " loads " load lines, want 1 and 1")
		cur = ""
	}
	FILENAME == "/tmp/expected" { split($0, e, " "); want[e[1]] = e[2]; size[e[1]] = e[3]; next }
	FILENAME ~ /\.syms$/ { split($0, s, " "); nsym++; sym[nsym] = s[1]; name[nsym] = s[2]; next }
	/^[0-9a-f]/ {
		end_object()
		f = fn($1)
		if (f == "" || $1 == $3) next	# found: not allocated
		if (!(f in want)) { bad("object from " f ", which records none"); next }
		cur = f; stores = loads = 0; got[f]++
		if ($4 != size[f]) bad(f " object of " $4 " bytes, want " size[f])
		if ($2 != pid) bad(f " object of pid " $2 ", want " pid)
		if ($8 != "busybox-trig") bad(f " object of " $8)
		if (fn($7) != f) bad(f " object freed at " $7 " (" fn($7) ")")
		next
	}
	cur {
		split(substr($0, 3), a, ",")
		g = fn(a[1])
		if (g == "test_store") {
			stores++
			if (a[2] != pid || a[3] != w || a[4] != 0) bad(cur " stores: " a[2] "," a[3] "," a[4] ", want " pid "," w ",0")
		} else if (g == "test_load") {
			loads++
			if (a[2] != pid || a[3] != 0 || a[4] != r) bad(cur " loads: " a[2] "," a[3] "," a[4] ", want " pid ",0," r)
		} else if (g != "") {
			bad(cur " object accessed from " g)
		}
	}
	END {
		end_object()
		for (f in want)
			if (got[f] + 0 != want[f]) { printf "%s: %d objects from %s, want %d\n", kmap, got[f], f, want[f]; err = 1 }
		exit err
	}' /tmp/expected /out/$1.syms /out/$1.kmap
}

# module_space_twice MODULE: load MODULE, touch it and unload it twice
# with every context traced, so that its memory is allocated while
# Memorizer records allocations and the second load may reuse the first's
# addresses. While it is loaded the kmap checks (no object overlaps
# another); after, the objects in module space are its globals, found,
# each freed at rmmod. Its memory is no object: an image, as the kernel's,
# whose objects are its globals.
module_space_twice() {
	echo 1 > $M/clear_object_list
	echo 1 > $M/memorizer_log_access
	echo 1 > $M/memorizer_enabled
	ok=1
	for i in 1 2; do
		modprobe "$1" && echo '1 1' > /sys/kernel/debug/memorizer_test/apis &&
			cat $M/kmap > /out/$1.loaded$i.kmap && rmmod "$1" || ok=0
	done
	echo 0 > $M/memorizer_enabled
	echo 0 > $M/memorizer_log_access
	[ $ok = 1 ] || return 1
	cat $M/kmap > /out/$1.twice.kmap
	kmap_valid /out/$1.loaded1.kmap && kmap_valid /out/$1.loaded2.kmap &&
		kmap_valid /out/$1.twice.kmap || return 1
	# Fields: alloc_ip,pid,addr,size,alloc_jiffies,free_jiffies,...
	awk -F, '/^[0-9a-f]/ && $3 >= "ffffffffa0000000" && $3 < "ffffffffff000000" {
		n++
		if ($1 != $3) { print FILENAME ":" FNR ": allocated in module space: " $0; err = 1 }
		else if ($6 == 0) { print FILENAME ":" FNR ": global live after rmmod: " $0; err = 1 }
	}
	END {
		if (!n) { print FILENAME ": no global of the module found"; err = 1 }
		exit err
	}' /out/$1.twice.kmap
}

check "the in-tree test module runs every API" apis_kmap memorizer_test_module
check "its kmap parses" kmap_valid /out/memorizer_test_module.kmap
check "each API's objects exact (in-tree module)" apis_exact memorizer_test_module
check "its global found exact, and freed at rmmod" module_global memorizer_test_module
check "the out-of-tree build runs every API" apis_kmap memorizer_oot
check "its kmap parses" kmap_valid /out/memorizer_oot.kmap
check "each API's objects exact (out-of-tree module)" apis_exact memorizer_oot
check "its global found exact, and freed at rmmod" module_global memorizer_oot
check "module space holds only globals, freed, after two loads" \
	module_space_twice memorizer_test_module
finish
