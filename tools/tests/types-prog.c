// SPDX-License-Identifier: GPL-2.0
/*
 * Struct types for kmap_types' unit test, built with -g: the test names
 * byte ranges of them and knows each member's place (x86-64 layout):
 * struct outer is 40 bytes, its members' offsets in the comments. Run, it
 * prints the return addresses of its three allocation calls, one a line,
 * then the address of global o, which the tests then ask the types of (built -O2, as a kernel is, so
 * that the DWARF says where variables live; not PIE, so that run-time
 * addresses are the DWARF's).
 */
#include <stdio.h>
#include <stdlib.h>

struct inner {
	int a;				/* 0..4 */
	short b[4];			/* 4..12 */
};

struct outer {
	long id;			/* 0..8 */
	struct inner in;		/* 8..20 */
	union {
		int u1;			/* 20..24 */
		char u2[4];
	};
	unsigned int f1 : 3, f2 : 5;	/* byte 24 */
	char tail[10];			/* 25..35, padding to 40 */
};

/* Named after kernel structs whose caches are named otherwise. */
struct file {
	long f_pos;			/* 0..8 */
	struct {
		void *mnt;		/* 8..16 */
		void *dentry;		/* 16..24 */
	} f_path;
};

struct cred {
	int usage;
	unsigned int uid, gid;
};

struct outer o;
struct file f;
struct cred c;

/* The allocator keeps its call site as the kmem tracepoints do. */
static void *sites[3];
static int nsites;

__attribute__((noinline)) void *test_alloc(unsigned long size)
{
	sites[nsites++] = __builtin_return_address(0);
	return calloc(1, size);
}

/* Call site 1: the result is kept in a struct outer *. */
__attribute__((noinline)) long make_outer(long id)
{
	struct outer *p = test_alloc(sizeof(*p));

	p->id = id;
	return p->id + p->in.a;
}

struct holder {
	void *buf;
	struct inner *last;
};

/*
 * Call site 2: the result goes straight to memory; the one struct in
 * scope of the size asked for is struct inner (struct holder is 16).
 */
__attribute__((noinline)) void refill(struct holder *h)
{
	struct inner *last = h->last;

	h->buf = test_alloc(sizeof(struct inner));
	if (last)
		last->a++;
}

/* Call site 3: a byte buffer, no struct of its size in scope. */
__attribute__((noinline)) void name_it(struct holder *h)
{
	char *name = test_alloc(7);

	name[0] = 'x';
	h->buf = name;
}

int main(void)
{
	struct holder h = { 0 };
	int i;

	make_outer(1);
	refill(&h);
	name_it(&h);
	for (i = 0; i < nsites; i++)
		printf("%p\n", sites[i]);
	printf("%p\n", (void *)&o);	/* a global of struct outer */
	return (int)(o.id + f.f_pos + c.usage);
}
