// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz: this host's TSC frequency in kHz, measured against
 * CLOCK_MONOTONIC_RAW over 200 ms. Under TCG a guest's TSC is the host's
 * (QEMU reads the host's counter), and vm/run passes the figure to the
 * guest as tsc_early_khz: on a loaded host the guest's own calibration
 * against the emulated PIT can come out 13 times too low, and then the
 * guest's clock runs 13 times too fast and its lockup detectors fire on
 * CPUs that are merely slow.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* A (TSC, time) pair read close together: of 50 tries, the tightest. */
static void sample(uint64_t *tsc, double *ns)
{
	double best = 1e18;
	int i;

	for (i = 0; i < 50; i++) {
		double a = now_ns();
		uint64_t t = __rdtsc();
		double b = now_ns();

		if (b - a < best) {
			best = b - a;
			*tsc = t;
			*ns = (a + b) / 2;
		}
	}
}

int main(void)
{
	struct timespec pause = { 0, 200000000 };
	uint64_t t0, t1;
	double n0, n1;

	sample(&t0, &n0);
	nanosleep(&pause, NULL);
	sample(&t1, &n1);
	if (n1 <= n0 || t1 <= t0)
		return 1;
	printf("%llu\n", (unsigned long long)((t1 - t0) / ((n1 - n0) / 1e6)));
	return 0;
}
