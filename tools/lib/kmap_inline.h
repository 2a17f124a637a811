/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inline helpers the library and the tools share where a call per item
 * showed in their profiles: decimal and hexadecimal output and sorting of
 * small keys.
 */
#ifndef KMAP_INLINE_H
#define KMAP_INLINE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/*
 * The decimal digits of v: the bit length's log10 (1233 / 4096 ~ log10(2)),
 * corrected by one comparison.
 */
static inline __attribute__((always_inline)) int kmap_dec_len(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
		10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
		100000000000ULL, 1000000000000ULL, 10000000000000ULL,
		100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
		100000000000000000ULL, 1000000000000000000ULL,
		10000000000000000000ULL,
	};
	int t;

	if (v < 10)
		return 1;
	t = (64 - __builtin_clzll(v)) * 1233 >> 12;
	return t + 1 - (v < pow10[t]);
}

/* v in decimal at p, two digits a division, no NUL; returns the end. */
static inline __attribute__((always_inline)) char *kmap_put_dec(char *p,
								uint64_t v)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	int n;
	char *q;

	if (v < 10) {
		*p = '0' + v;
		return p + 1;
	}
	/* Most counts (an access line's): up to 4 digits, no length asked. */
	if (v < 100) {
		memcpy(p, pairs + 2 * v, 2);
		return p + 2;
	}
	if (v < 10000) {
		unsigned int hi = (unsigned int)v / 100, lo = (unsigned int)v % 100;
		int three = hi < 10;

		/* Of 3: hi's pair from its digit, lo's over the byte after. */
		memcpy(p, pairs + 2 * hi + three, 2);
		memcpy(p + 2 - three, pairs + 2 * lo, 2);
		return p + 4 - three;
	}
	n = kmap_dec_len(v);
	q = p + n;
	while (v >= 100) {
		q -= 2;
		memcpy(q, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(q - 2, pairs + 2 * v, 2);
	else
		q[-1] = '0' + v;
	return p + n;
}

/*
 * v in lowercase hexadecimal at p, without leading zeros, no NUL; returns
 * the end. Always stores 16 bytes at p (the digits, then whatever): p
 * needs room for them. SSE2 (every x86-64) spreads the 16 nibbles to
 * bytes at once; elsewhere two words of 8 digits each.
 */
static inline __attribute__((always_inline)) char *kmap_put_hex16(char *p,
								  uint64_t v)
{
	int n = v ? (67 - __builtin_clzll(v)) / 4 : 1;

	v <<= 4 * (16 - n);	/* the first digit to print at the top */
#ifdef __SSE2__
	{
		const __m128i low = _mm_set1_epi8(0x0f);
		__m128i x = _mm_cvtsi64_si128((long long)__builtin_bswap64(v));
		/* Each byte's high nibble, then its low one: 16 digits. */
		__m128i d = _mm_unpacklo_epi8(
			_mm_and_si128(_mm_srli_epi16(x, 4), low),
			_mm_and_si128(x, low));
		__m128i letter = _mm_cmpgt_epi8(d, _mm_set1_epi8(9));

		d = _mm_add_epi8(d, _mm_set1_epi8('0'));
		d = _mm_add_epi8(d, _mm_and_si128(letter,
						  _mm_set1_epi8('a' - '0' - 10)));
		_mm_storeu_si128((__m128i *)p, d);
	}
#else
	{
		uint64_t w[2], letters;
		int i;

		for (i = 0; i < 2; i++) {
			/* 8 digits: one nibble per byte, nibble i in byte i... */
			uint64_t x = (uint32_t)(v >> (32 - 32 * i));

			x = (x & 0xffff) | (x & 0xffff0000) << 16;
			x = (x & 0x000000ff000000ffULL) |
			    (x & 0x0000ff000000ff00ULL) << 8;
			x = (x & 0x000f000f000f000fULL) |
			    (x & 0x00f000f000f000f0ULL) << 4;
			/* ... the most significant first in memory, ASCII. */
			x = __builtin_bswap64(x);
			letters = (x + 0x0606060606060606ULL) >> 4 &
				  0x0101010101010101ULL;
			w[i] = x + 0x3030303030303030ULL +
			       letters * ('a' - '0' - 10);
		}
		memcpy(p, w, 16);
	}
#endif
	return p + n;
}

/*
 * KMAP_DEFINE_SORT(name, type, less, run) defines
 *
 *	static type *name(type *k, type *tmp, size_t n);
 *
 * which sorts k[0 .. n) by less(const type *, const type *) with the
 * comparison inline (qsort's call per comparison dominated a large
 * report's table): runs of @run by insertion, then merged pairwise
 * through tmp, room for n (unused, and may be NULL, when n <= run).
 * It returns where the sorted keys are: k or tmp. Stable.
 */
#define KMAP_DEFINE_SORT(name, type, less, run)				\
static type *name(type *k, type *tmp, size_t n)				\
{									\
	type *src = k, *dst = tmp, *t;					\
	size_t i, j, w;							\
									\
	for (i = 0; i < n; i += (run)) {				\
		size_t end = i + (run) < n ? i + (run) : n;		\
									\
		for (j = i + 1; j < end; j++) {				\
			type v = k[j];					\
			size_t q = j;					\
									\
			for (; q > i && less(&v, &k[q - 1]); q--)	\
				k[q] = k[q - 1];			\
			k[q] = v;					\
		}							\
	}								\
	for (w = (run); w < n; w *= 2) {				\
		for (i = 0; i < n; i += 2 * w) {			\
			size_t l = i, lend = i + w < n ? i + w : n;	\
			size_t r = lend;				\
			size_t rend = i + 2 * w < n ? i + 2 * w : n;	\
			size_t o = i;					\
									\
			while (l < lend && r < rend)			\
				dst[o++] = less(&src[r], &src[l]) ?	\
					   src[r++] : src[l++];		\
			while (l < lend)				\
				dst[o++] = src[l++];			\
			while (r < rend)				\
				dst[o++] = src[r++];			\
		}							\
		t = src;						\
		src = dst;						\
		dst = t;						\
	}								\
	return src;							\
}

#endif
