/*
 * test-hbuf.c - big buffers the kernel may back with huge pages
 * (lib/hbuf.c): sizes, alignment, zeroed memory, growth that keeps the
 * bytes, and the advice the kernel's smaps shows.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "kleak.h"
#include "kleak-int.h"

#define MIB	((size_t)1 << 20)

/* Every byte of p[0, n) is c. */
static int
all(const uint8_t *p, size_t n, uint8_t c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != c)
			return (0);
	return (1);
}

/* Sizes round up to 2 MiB, 2 MiB aligned, zeroed; nothing for 0. */
static void
t_alloc(void **state)
{
	static const size_t sizes[] = { 1, 4096, 2 * MIB - 1, 2 * MIB,
		2 * MIB + 1, 9 * MIB };
	uint8_t *p;
	size_t i, cap;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		cap = 0;
		p = kl_hb_alloc(sizes[i], &cap);
		assert_non_null(p);
		assert_int_equal(cap % (2 * MIB), 0);
		assert_true(cap >= sizes[i] && cap - sizes[i] < 2 * MIB);
		assert_int_equal((uintptr_t)p % (2 * MIB), 0);
		assert_true(all(p, cap, 0));
		memset(p, 0xa5, cap);	/* all of it is ours */
		kl_hb_free(p, cap);
	}
	cap = 7;
	assert_null(kl_hb_alloc(0, &cap));
	assert_int_equal(cap, 7);
	assert_null(kl_hb_alloc(SIZE_MAX - MIB, &cap));
	kl_hb_free(NULL, 0);
}

/* Growth keeps the used bytes, at least doubles, and stays put when
 * there is room. */
static void
t_grow(void **state)
{
	void *p = NULL, *q;
	size_t cap = 0, i;

	(void)state;
	assert_int_equal(kl_hb_grow(&p, &cap, 0, 100), 0);
	assert_non_null(p);
	assert_int_equal(cap, 2 * MIB);
	for (i = 0; i < cap; i++)
		((uint8_t *)p)[i] = (uint8_t)(i * 7);
	q = p;
	assert_int_equal(kl_hb_grow(&p, &cap, cap, cap), 0);
	assert_ptr_equal(p, q);		/* room enough: not moved */
	assert_int_equal(kl_hb_grow(&p, &cap, 2 * MIB, 2 * MIB + 1), 0);
	assert_int_equal(cap, 4 * MIB);	/* twice */
	for (i = 0; i < 2 * MIB; i++)
		if (((uint8_t *)p)[i] != (uint8_t)(i * 7))
			fail_msg("byte %zu lost in growth", i);
	assert_true(all((uint8_t *)p + 2 * MIB, 2 * MIB, 0));
	assert_int_equal(kl_hb_grow(&p, &cap, 10, 11 * MIB), 0);
	assert_int_equal(cap, 12 * MIB);
	assert_int_equal(((uint8_t *)p)[9], 63);
	q = p;
	assert_int_equal(kl_hb_grow(&p, &cap, 0, SIZE_MAX), -1);
	assert_ptr_equal(p, q);		/* failed: unchanged */
	assert_int_equal(cap, 12 * MIB);
	kl_hb_free(p, cap);
}

/*
 * Where the kernel offers transparent huge pages at all, the mapping
 * is eligible for them (the MADV_HUGEPAGE advice took), as smaps says.
 */
static void
t_advice(void **state)
{
	char line[256], want[64], mode[128];
	FILE *f;
	uint8_t *p;
	size_t cap;
	int in = 0, seen = 0;

	(void)state;
#ifdef KL_HB_HEAP
	skip();		/* heap blocks, for AddressSanitizer */
#endif
	f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (f == NULL || fgets(mode, sizeof(mode), f) == NULL ||
	    strstr(mode, "[never]") != NULL) {
		if (f != NULL)
			fclose(f);
		skip();
	}
	fclose(f);
	p = kl_hb_alloc(4 * MIB, &cap);
	assert_non_null(p);
	snprintf(want, sizeof(want), "%lx-", (unsigned long)(uintptr_t)p);
	if ((f = fopen("/proc/self/smaps", "r")) == NULL) {
		kl_hb_free(p, cap);
		skip();
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, want, strlen(want)) == 0)
			in = 1;
		else if (in && strncmp(line, "THPeligible:", 12) == 0) {
			assert_non_null(strstr(line, "1"));
			seen = 1;
			break;
		}
	}
	fclose(f);
	kl_hb_free(p, cap);
	if (!in)
		fail_msg("no mapping at %s in smaps", want);
	if (!seen)
		skip();		/* a kernel without THPeligible */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_alloc),
		cmocka_unit_test(t_grow),
		cmocka_unit_test(t_advice),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
