// SPDX-License-Identifier: GPL-2.0
/*
 * Struct types for kmap_types' unit test, built with -g: the test names
 * byte ranges of them and knows each member's place (x86-64 layout):
 * struct outer is 40 bytes, its members' offsets in the comments.
 */
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

int main(void)
{
	return (int)(o.id + f.f_pos + c.usage);
}
