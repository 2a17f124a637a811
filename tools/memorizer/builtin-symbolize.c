// SPDX-License-Identifier: GPL-2.0
/* memorizer symbolize: kernel addresses to function+offset (file:line). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

static const struct opt opts[] = {
	{ "vmlinux", 0, "FILE", "Symbols and, when it has DWARF, file:line from this vmlinux (libdw)." },
	{ "system-map", 0, "FILE", "Symbols from this System.map or kallsyms file. Default: /proc/kallsyms." },
	{ 0 },
};

static int one(struct kmap_sym *sym, const char *s, const char *where)
{
	char *end, out[1024];
	unsigned long long ip;

	if (!strncmp(s, "0x", 2))
		s += 2;
	errno = 0;
	ip = strtoull(s, &end, 16);
	if (end == s || *end || errno || strlen(s) > 16) {
		error("%s'%s' is not a hexadecimal address", where, s);
		return 1;
	}
	kmap_sym_describe(sym, ip, out, sizeof(out));
	printf("%llx %s\n", ip, out);
	return 0;
}

static int run(int argc, char **argv)
{
	struct optparse p;
	const char *vmlinux = NULL, *system_map = NULL;
	struct kmap_sym *sym;
	int idx, rc = 0, failed;

	optparse_init(&p, &cmd_symbolize, argc, argv);
	while ((idx = opt_next(&p)) >= 0) {
		if (opt_is(&p, idx, "vmlinux"))
			vmlinux = p.arg;
		else if (opt_is(&p, idx, "system-map"))
			system_map = p.arg;
	}
	if (idx == -2)
		return 0;
	if (idx == -3)
		return 2;
	if (!vmlinux && !system_map)
		system_map = "/proc/kallsyms";
	sym = open_symbols(vmlinux, system_map, &failed);
	if (failed)
		return 1;
	if (p.nops) {
		for (idx = 0; idx < p.nops; idx++)
			rc |= one(sym, p.ops[idx], "");
	} else {
		char line[256], where[64];
		unsigned long n = 0;

		while (fgets(line, sizeof(line), stdin)) {
			size_t len = strlen(line);

			n++;
			snprintf(where, sizeof(where), "<stdin>:%lu: ", n);
			if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
				error("%sline too long", where);
				rc = 1;
				break;
			}
			line[strcspn(line, " \t\r\n")] = 0;
			if (!line[0])
				continue;
			rc |= one(sym, line, where);
		}
	}
	kmap_sym_close(sym);
	if (fflush(stdout)) {
		error("write error");
		rc = 1;
	}
	return rc;
}

const struct cmd cmd_symbolize = {
	.name = "symbolize",
	.summary = "name kernel addresses: function+offset, file:line",
	.synopsis = "[--vmlinux FILE | --system-map FILE] [ADDRESS...]",
	.description =
"Prints each ADDRESS (hexadecimal, with or without 0x; one per line on "
"standard input when none is given) followed by the function containing "
"it, as function+0xOFFSET/0xSIZE, and \"at FILE:LINE\" when the vmlinux "
"given has DWARF line tables (read with elfutils' libdw). An address in no "
"known function is printed bare. Without --vmlinux or --system-map the "
"running kernel's /proc/kallsyms is used (as root: it hides addresses "
"otherwise), which is right inside the guest; on the host give the "
"guest kernel's out/vmlinux or out/System.map. The static build has no "
"libdw and takes --system-map only.",
	.opts = opts,
	.examples =
"  $ memorizer symbolize --system-map out/System.map ffffffff812a4e74\n"
"  $ cut -d, -f1 tar.kmap | grep -v '^ ' | sort -u | memorizer symbolize --vmlinux out/vmlinux",
	.run = run,
};
