// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: how fast a host core is right now.
 *
 * A paired round of make bench runs one QEMU on each of the two host cores
 * at the same time. When one core is slower than the other (a neighbour on
 * the same physical core, a frequency cap), each round's ratio is off by
 * that factor, in the direction of the side that got the slow core, and
 * the cores are swapped every round. bench.sh runs this program on both
 * cores at once before each round and records the two times, so that a
 * table can be read against them.
 *
 * Prints the median of five passes of a fixed dependent loop, in ns.
 */
#include <stdio.h>
#include <time.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int main(void)
{
	unsigned long long t[5], v;
	int pass, i, j;

	for (pass = 0; pass < 5; pass++) {
		unsigned long long t0 = now_ns();
		unsigned long x = 1, k;

		for (k = 0; k < 20000000; k++)
			x = x * 6364136223846793005ul + 1442695040888963407ul;
		t[pass] = now_ns() - t0 + (x == 42);	/* keeps x alive */
	}
	for (i = 1; i < 5; i++)
		for (j = i; j > 0 && t[j - 1] > t[j]; j--) {
			v = t[j];
			t[j] = t[j - 1];
			t[j - 1] = v;
		}
	printf("%llu\n", t[2]);
	return 0;
}
