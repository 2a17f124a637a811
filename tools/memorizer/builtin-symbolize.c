// SPDX-License-Identifier: GPL-2.0
/* memorizer symbolize: kernel addresses to function+offset (file:line). */
#include <string.h>

#include "builtin.h"

static const char *vmlinux, *system_map;

static const struct opt opts[] = {
	OPT__VMLINUX(&vmlinux, "Symbols and, when it has DWARF, file:line from this vmlinux (libdw)."),
	OPT__SYSTEM_MAP(&system_map, "Symbols from this System.map or kallsyms file. Default: /proc/kallsyms."),
	OPT_END(),
};

static int one(struct kmap_sym *sym, const char *s, size_t len,
	       const char *where)
{
	const char *digits = s;
	char out[1024], shown[64];
	uint64_t ip;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		digits += 2;
	if (kmap_parse_hex(digits, len - (digits - s), &ip)) {
		snprintf(shown, sizeof(shown), "%.*s%s", len > 40 ? 40 : (int)len,
			 s, len > 40 ? "..." : "");
		error("%s'%s' is not a hexadecimal address (1 to 16 digits, optionally after 0x)",
		      where, shown);
		return 1;
	}
	kmap_sym_describe(sym, ip, out, sizeof(out));
	printf("%llx %s\n", (unsigned long long)ip, out);
	return 0;
}

/*
 * Addresses on standard input, one per line (blank lines skipped, text
 * after the first blank ignored). A line is at most LINE_MAX_LEN bytes
 * and holds no NUL: anything else is not a list of addresses.
 */
#define LINE_MAX_LEN	255

static int from_stdin(struct kmap_sym *sym)
{
	char line[LINE_MAX_LEN + 1], where[64];
	unsigned long n = 0;
	size_t len;
	int c, rc = 0;

	do {
		len = 0;
		n++;
		snprintf(where, sizeof(where), "<stdin>:%lu: ", n);
		while ((c = getchar()) != EOF && c != '\n') {
			if (c == 0) {
				error("%sa NUL byte: not a list of addresses", where);
				return 1;
			}
			if (len == LINE_MAX_LEN) {
				error("%sline longer than %d bytes", where,
				      LINE_MAX_LEN);
				return 1;
			}
			line[len++] = (char)c;
		}
		line[len] = 0;
		len = strcspn(line, " \t\r");
		if (len)
			rc |= one(sym, line, len, where);
	} while (c != EOF);
	if (ferror(stdin)) {
		error("<stdin>: %m");
		rc = 1;
	}
	return rc;
}

int cmd_symbolize(int argc, char **argv)
{
	struct kmap_sym *sym;
	int i, rc = 0, failed;

	if (!vmlinux && !system_map)
		system_map = "/proc/kallsyms";
	sym = open_symbols(vmlinux, system_map, &failed);
	if (failed)
		return 1;
	if (argc) {
		for (i = 0; i < argc; i++)
			rc |= one(sym, argv[i], strlen(argv[i]), "");
	} else {
		rc = from_stdin(sym);
	}
	kmap_sym_close(sym);
	return rc;
}

const struct cmd cmd_symbolize_desc = {
	.name = "symbolize",
	.summary = "name kernel addresses: function+offset, file:line",
	.synopsis = "[--vmlinux FILE | --system-map FILE] [ADDRESS...]",
	.description =
"Prints each ADDRESS (hexadecimal, with or without 0x; one per line on "
"standard input when none is given) followed by the function containing "
"it, as function+0xOFFSET/0xSIZE, and \"at FILE:LINE\" when the vmlinux "
"given has DWARF line tables (read with elfutils' libdw). Code the "
"compiler made for no source line (a line table row of line 0) is at the "
"line of the row before it in its sequence that has one, as debuggers "
"say, or \"at FILE\" alone when none has. An address in no "
"known function is printed bare. Without --vmlinux or --system-map the "
"running kernel's /proc/kallsyms is used (as root: it hides addresses "
"otherwise), which is right inside the guest; on the host give the "
"guest kernel's out/vmlinux or out/System.map. The static build has no "
"libdw and takes --system-map only.",
	.opts = opts,
	.examples =
"  $ memorizer symbolize --system-map out/System.map ffffffff812a4e74\n"
"  $ cut -d, -f1 tar.kmap | grep -v '^ ' | sort -u | memorizer symbolize --vmlinux out/vmlinux",
	.run = cmd_symbolize,
};
