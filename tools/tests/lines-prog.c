// SPDX-License-Identifier: GPL-2.0
/*
 * A program whose DWARF line table has rows of line 0, for the test of
 * libkmap's file:line (kmap_sym_source()): built by clang with -O0, as
 * the kernel is built by clang, each function in a section (a sequence)
 * of its own. mark_zero starts code of line 0 (g += 2) after line 17's
 * (g *= 3); all of h is of line 0, with no line before it in its
 * sequence. Run, it prints both marks' addresses.
 */
#include <stdio.h>

int g;

__attribute__((noinline)) int f(int x)
{
	g = x;
	g *= 3;
#line 0
	__asm__ volatile(".globl mark_zero\nmark_zero:"); g += 2;
#line 21
	return g;
}

#line 0
__attribute__((noinline)) int h(int x) { __asm__ volatile(".globl mark_none\nmark_none:"); return x + g; }
#line 27

extern char mark_zero[], mark_none[];

int main(void)
{
	printf("%lx %lx\n", (unsigned long)mark_zero, (unsigned long)mark_none);
	return f(1) + h(2) == 0;
}
