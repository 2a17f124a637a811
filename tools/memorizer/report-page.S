/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HTML report's page (report-html.c), embedded: REPORT_PAGE is the
 * template tools/Makefile inlined from tools/memorizer/report/ and d3's
 * modules (npm), one file with a data mark. Ended by a NUL not counted.
 */
	.section .rodata
	.balign 16
	.globl report_page
	.globl report_page_end
report_page:
	.incbin REPORT_PAGE
report_page_end:
	.byte 0
	.section .note.GNU-stack,"",@progbits
