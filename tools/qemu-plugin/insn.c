// SPDX-License-Identifier: GPL-2.0
/*
 * Which guest instructions change address translation (mtrace-plugin.h):
 * the plugin looks physical pages up again after one runs. Decoded from
 * the instruction's bytes at translation: the legacy prefixes, a REX
 * prefix, then the opcode.
 */
#include "mtrace-plugin.h"

static int is_legacy_prefix(unsigned char b)
{
	switch (b) {
	case 0x26: case 0x2e: case 0x36: case 0x3e:	/* segments */
	case 0x64: case 0x65:
	case 0x66: case 0x67:				/* sizes */
	case 0xf0: case 0xf2: case 0xf3:		/* lock, rep */
		return 1;
	}
	return 0;
}

int mtrace_insn_changes_translation(const unsigned char *insn, size_t len)
{
	size_t i = 0;
	unsigned char modrm;

	while (i < len && is_legacy_prefix(insn[i]))
		i++;
	if (i < len && (insn[i] & 0xf0) == 0x40)	/* REX */
		i++;
	if (i + 1 >= len || insn[i] != 0x0f)
		return 0;
	switch (insn[i + 1]) {
	case 0x22:	/* mov to CR0, CR3, CR4, CR8 */
	case 0x30:	/* wrmsr */
	case 0xaa:	/* rsm */
		return 1;
	case 0x38:	/* 66 0f 38 82: invpcid */
		return i + 2 < len && insn[i + 2] == 0x82;
	case 0x01:
		if (i + 2 >= len)
			return 0;
		modrm = insn[i + 2];
		/* 0f 01 /7 with memory: invlpg; /6: lmsw (CR0's low bits). */
		if ((modrm >> 3 & 7) == 7 && modrm >> 6 != 3)
			return 1;
		if ((modrm >> 3 & 7) == 6)
			return 1;
		/* 0f 01 fe, ff: invlpgb, tlbsync (not swapgs, rdtscp: f8, f9) */
		return modrm == 0xfe || modrm == 0xff;
	}
	return 0;
}
