// SPDX-License-Identifier: GPL-2.0
/*
 * mkmtrace: build an mtrace log fixture (tools/lib/mtrace_log.h) from a
 * description, as mkstream does for binary streams. One record a line,
 * "TYPE key=value..."; numbers in C notation; '#' starts a comment.
 *
 *   header [nr_cpus=N] [version=N] [magic=STR] [mode=N] [line_shift=N]
 *          [header_size=N] [nr_types=N] [rec_size.T=N]
 *   access cpu= ns= vaddr= ip= paddr= pid= size= flags=
 *          (size 8, flags 6 (paddr, shared) and pid 0xffffffff by default)
 *   switch cpu= ns= pid=
 *   raw    cpu= ns= type= size=        (a record of any type and size)
 *   cut    bytes=N                     (drop the last N bytes written)
 *
 * Every record line also takes rsize=N (written in hdr.size, the record
 * padded or cut to it). Values are written as given, in range or not.
 */
#include <string.h>

#include "mtrace_log.h"
#include "mkrec.h"

static int mtrace_line(const char *type, const char *l)
{
	if (!strcmp(type, "header")) {
		static const __u16 sizes[MTRACE_REC_NR_TYPES] =
			MTRACE_REC_SIZES;
		struct mtrace_log_header h = { 0 };
		const char *m = mkrec_val(l, "magic");

		memcpy(h.magic, MTRACE_LOG_MAGIC, 8);
		if (m)
			memcpy(h.magic, m, strlen(m) < 8 ? strlen(m) : 8);
		mkrec_header(&h, l, MTRACE_LOG_VERSION, sizes,
			     MTRACE_REC_NR_TYPES);
		h.mode = mkrec_num(l, "mode", MTRACE_MODE_ALL);
		h.line_shift = mkrec_num(l, "line_shift", MTRACE_LINE_SHIFT);
		mkrec_put_header(&h, sizeof(h), h.header_size);
	} else if (!strcmp(type, "access")) {
		struct mtrace_rec_access r = { 0 };

		mkrec_hdr(&r.hdr, l, MTRACE_REC_ACCESS, sizeof(r));
		r.vaddr = mkrec_num(l, "vaddr", 0);
		r.ip = mkrec_num(l, "ip", 0);
		r.flags = mkrec_num(l, "flags", MTRACE_F_PADDR | MTRACE_F_SHARED);
		r.paddr = mkrec_num(l, "paddr", r.flags & MTRACE_F_PADDR ?
				    r.vaddr & 0xfffffff : 0);
		r.pid = mkrec_num(l, "pid", MTRACE_PID_UNKNOWN);
		r.size = mkrec_num(l, "size", 8);
		mkrec_put(&r, sizeof(r), r.hdr.size);
	} else if (!strcmp(type, "switch")) {
		struct mtrace_rec_switch r = { 0 };

		mkrec_hdr(&r.hdr, l, MTRACE_REC_SWITCH, sizeof(r));
		r.pid = mkrec_num(l, "pid", 0);
		mkrec_put(&r, sizeof(r), r.hdr.size);
	} else {
		return -1;
	}
	return 0;
}

/* size= is the access's: hdr.size is rsize=. */
const struct mkrec_gen mkrec_gen = {
	.name = "mkmtrace",
	.max = 16 << 20,
	.hex_escapes = 0,
	.size_key = "rsize",
	.line = mtrace_line,
};
