/*
 * test-journal-entry.c - the entry being built: a big field kept whole,
 * the entry size and field count limits cutting an entry with one error
 * and its stored fields delivered as a partial entry.
 */

#include "config.h"

#include "journal-harness.h"

/* Export: a binary field over the entry limit is skipped exactly. */
static void
t_export_big_field(void **state)
{
	static const uint8_t head[] =
	    "A=1\nCOREDUMP\n\x01\0\0\x04\0\0\0\0";	/* 64 MiB + 1 */
	static const uint8_t tail[] = "\nB=2\n\nC=3\n\n";
	struct kl_journal_ops ops;
	struct kl_journal *j;
	struct kl_error err;
	struct coll c;
	uint8_t *z;
	size_t left;

	(void)state;
	memset(&c, 0, sizeof(c));
	ops.arg = &c;
	ops.entry = on_entry;
	ops.error = on_error;
	j = kl_journal_new(KL_UNIT_EXPORT, &ops, &err);
	assert_non_null(j);
	assert_int_equal(kl_journal_feed(j, head, sizeof(head) - 1, &err), 0);
	z = calloc(1, 1 << 20);
	assert_non_null(z);
	for (left = (64u << 20) + 1; left > 0; ) {
		size_t k = left < (1u << 20) ? left : (1u << 20);

		assert_int_equal(kl_journal_feed(j, z, k, &err), 0);
		left -= k;
	}
	free(z);
	assert_int_equal(kl_journal_feed(j, tail, sizeof(tail) - 1, &err),
	    0);
	assert_int_equal(kl_journal_end(j, &err), 0);
	assert_int_equal(kl_journal_stats(j)->skipped, (64u << 20) + 1);
	kl_journal_free(j);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): binary field "
	    "COREDUMP at offset 4: length 67108865 exceeds the 64 MiB entry "
	    "limit; field skipped");
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[0].partial, 1);
	assert_int_equal(c.e[0].nf, 2);
	IS(&c.e[0].f[1], "B", "2", 67108889, 1);
	assert_int_equal(c.e[1].partial, 0);
	coll_free(&c);
}

/* Export: the entry limit, then the next entry as usual. */
static void
t_export_entry_limit(void **state)
{
	struct kl_journal_ops ops;
	struct kl_journal *j;
	struct kl_error err;
	struct coll c;
	uint8_t *b;
	size_t n = 40u << 20, k;

	(void)state;
	memset(&c, 0, sizeof(c));
	ops.arg = &c;
	ops.entry = on_entry;
	ops.error = on_error;
	j = kl_journal_new(KL_UNIT_EXPORT, &ops, &err);
	assert_non_null(j);
	b = malloc(n + 2);
	assert_non_null(b);
	memset(b, 'x', n);
	b[n] = '\n';
	for (k = 0; k < 2; k++) {
		assert_int_equal(kl_journal_feed(j, k ? "B=" : "A=", 2, &err),
		    0);
		assert_int_equal(kl_journal_feed(j, b, n + 1, &err), 0);
	}
	free(b);
	assert_int_equal(kl_journal_feed(j, "C=c\n\nD=d\n\n", 10, &err), 0);
	assert_int_equal(kl_journal_end(j, &err), 0);
	kl_journal_free(j);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): entry exceeds "
	    "the 64 MiB limit at field B (offset 41943043); the rest of the "
	    "entry is dropped");
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[0].partial, 1);
	assert_int_equal(c.e[0].nf, 1);
	assert_int_equal(c.e[0].f[0].len, n);
	IS(&c.e[1].f[0], "D", "d", 2 * (n + 3) + 7, 1);
	assert_int_equal(c.e[1].partial, 0);
	coll_free(&c);
}

/* Export: the field limit. */
static void
t_export_field_limit(void **state)
{
	uint8_t *b = NULL;
	size_t n = 0, i;
	struct coll c;

	(void)state;
	for (i = 0; i < KL_JOURNAL_FIELDS_MAX + 2; i++)
		app(&b, &n, "F=x\n", 4);
	app(&b, &n, "\nG=y\n\n", 6);
	memset(&c, 0, sizeof(c));
	parse(KL_UNIT_EXPORT, b, n, 7, 1, &c);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): more than 4096 "
	    "fields at field F (offset 16384); the rest of the entry is "
	    "dropped");
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[0].nf, KL_JOURNAL_FIELDS_MAX);
	assert_int_equal(c.e[0].partial, 1);
	assert_int_equal(c.e[1].nf, 1);
	free(b);
	coll_free(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_export_big_field),
		cmocka_unit_test(t_export_entry_limit),
		cmocka_unit_test(t_export_field_limit),
	};

	return (cmocka_run_group_tests(tests, real_setup, real_teardown));
}
