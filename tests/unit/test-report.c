/*
 * test-report.c - findings aggregated by template (lib/report.c).
 *
 * Occurrences are built from lines of ../shared/corpus
 * (syzkaller/report/472:7 and 661:7, two KASAN access lines of different
 * tasks and sizes: one template).  Merging unit reports must equal one
 * report of the same occurrences, and the text lines of
 * kl_report_write() read back by kl_report_read() must give the same
 * rows, byte for byte when written again.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kleak.h"

#define L1 "[   50.517125][    C1] Read of size 8 at addr ffff8881d411fca8 " \
	"by task swapper/1/0"
#define L2 "[   54.510560][ T3608] Read of size 1 at addr ffff88806c856a40 " \
	"by task syz-executor371/3608"
#define L3 "ffffffff85200000 T startup_64"

/* Add one occurrence of line s. */
static void
add(struct kl_report *rep, const char *s, const char *path, unsigned boot,
    const char *host, enum kl_region r, enum kl_severity sev)
{
	static const char *const members[] = { "inner.log" };
	struct kl_template t;
	struct kl_report_occ o;

	kl_template_make((const uint8_t *)s, strlen(s), 0, &t);
	t.tclass = kl_template_class(&t, "object-address", r, NULL);
	kl_template_fingerprint(&t);
	memset(&o, 0, sizeof(o));
	o.t = &t;
	o.region = r;
	o.severity = sev;
	o.arch = KL_ARCH_X86_64;
	o.boot = boot;
	o.host = host;
	o.path = path;
	o.members = members;
	o.nmembers = 1;
	o.line = 7;
	o.ts = "50.517125";
	o.text = (const uint8_t *)s;
	o.textlen = strlen(s);
	o.source = "kasan-access";
	o.fixed = NULL;
	assert_int_equal(kl_report_add(rep, &o), 0);
}

/* Collect kl_report_write() output. */
struct sink {
	char	*p;
	size_t	 n;
};

/* Append bytes to a sink. */
static int
collect(void *arg, const void *p, size_t n)
{
	struct sink *s = arg;

	s->p = realloc(s->p, s->n + n + 1);
	assert_non_null(s->p);
	memcpy(s->p + s->n, p, n);
	s->n += n;
	s->p[s->n] = '\0';
	return (0);
}

/* Two units, two boots in one: counts, spread, sets and examples. */
static void
test_merge(void **state)
{
	struct kl_report *all, *u;
	struct kl_report_row **row;

	(void)state;
	all = kl_report_new();
	u = kl_report_new();
	/* a boot's release comes when it ends, after its occurrences */
	add(u, L1, "a.log", 0, "hostA", KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	assert_int_equal(kl_report_boot(u, 0, "4.15.0-rc8+"), 0);
	add(u, L2, "a.log", 1, "hostA", KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	add(u, L2, "a.log", 1, "hostA", KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	assert_int_equal(kl_report_boot(u, 1, "6.1.0"), 0);
	assert_int_equal(kl_report_boot(u, 2, "7.0"), 0);
	assert_int_equal(kl_report_merge(all, u), 0);
	kl_report_clear(u);
	add(u, L3, "b.log", 0, "hostB", KL_REGION_TEXT, KL_SEV_HIGH);
	add(u, L1, "b.log", 0, "hostB", KL_REGION_VMALLOC, KL_SEV_MEDIUM);
	assert_int_equal(kl_report_merge(all, u), 0);
	assert_int_equal(kl_report_count(all), 2);
	row = kl_report_rows(all);
	/* report class before file class */
	assert_string_equal(row[0]->t.text,
	    "Read of size %d at addr %x by task %s/%d");
	assert_int_equal(row[0]->t.tclass, KL_TC_REPORT);
	assert_int_equal(row[0]->count, 4);
	assert_int_equal(row[0]->inputs, 2);
	assert_int_equal(row[0]->boots, 3);
	assert_int_equal(row[0]->hosts.n, 2);
	assert_string_equal(row[0]->hosts.v[0], "hostA");
	assert_int_equal(row[0]->releases.n, 2);
	assert_string_equal(row[0]->releases.v[0], "4.15.0-rc8+");
	assert_int_equal(row[0]->regions, (1u << KL_REGION_DIRECT_MAP) |
	    (1u << KL_REGION_VMALLOC));
	assert_string_equal(row[0]->first.path, "a.log");
	assert_string_equal(row[0]->last.path, "b.log");
	assert_string_equal(row[0]->source, "kasan-access");
	assert_null(row[0]->fixed);
	assert_int_equal(row[1]->t.tclass, KL_TC_FILE);
	assert_int_equal(row[1]->severity, KL_SEV_HIGH);
	kl_report_free(u);
	kl_report_free(all);
}

/* Rows written as text and read back are the same rows. */
static void
test_roundtrip(void **state)
{
	struct kl_report *a, *b;
	struct kl_error err;
	struct sink s1 = { NULL, 0 }, s2 = { NULL, 0 };
	char *line, *nl;

	(void)state;
	a = kl_report_new();
	b = kl_report_new();
	add(a, L1, "a\tb\\c\n.log", 0, "h", KL_REGION_DIRECT_MAP,
	    KL_SEV_MEDIUM);
	add(a, "odd \001\177 bytes at ffffffff81000000", "x", 2, "h",
	    KL_REGION_TEXT, KL_SEV_HIGH);
	add(a, L3, "x", 2, "h", KL_REGION_TEXT, KL_SEV_HIGH);
	assert_int_equal(kl_report_boot(a, 2, "6.1.0-57-amd64"), 0);
	assert_int_equal(kl_report_write(a, collect, &s1), 0);
	for (line = s1.p; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
		memset(&err, 0, sizeof(err));
		assert_int_equal(kl_report_read(b, (uint8_t *)line,
		    (size_t)(nl - line), &err), 0);
	}
	assert_int_equal(kl_report_count(b), 3);
	assert_int_equal(kl_report_write(b, collect, &s2), 0);
	assert_int_equal(s1.n, s2.n);
	assert_memory_equal(s1.p, s2.p, s1.n);
	/* reading merges: twice the counts */
	for (line = s1.p; (nl = strchr(line, '\n')) != NULL; line = nl + 1)
		assert_int_equal(kl_report_read(b, (uint8_t *)line,
		    (size_t)(nl - line), &err), 0);
	assert_int_equal(kl_report_rows(b)[0]->count, 2);
	free(s1.p);
	free(s2.p);
	kl_report_free(a);
	kl_report_free(b);
}

/* Malformed lines are errors, not rows. */
static void
test_malformed(void **state)
{
	static const char *const bad[] = {
		"", "T1", "T2\t0\t0\tx\t1\t1\t1\t0\t1\t1\t1\t\\N\t\\N\t0\t0\t0\t0",
		"T1\t9\t0\tx\t1\t1\t1\t0\t1\t1\t1\t\\N\t\\N\t0\t0\t0\t0",
		"T1\t0\t0\tx\t1\t1\t1\t0\t1\t1\t1\t\\N\t\\N\t0\t0\t0",
		"T1\t0\t0\tx\t1\t1\t1\t0\t1\t1\t1\t\\N\t\\N\t0\t0\t0\t0\textra",
		"T1\t0\t0\t\\q\t1\t1\t1\t0\t1\t1\t1\t\\N\t\\N\t0\t0\t0\t0",
		"T1\t0\t0\tx\t-1\t1\t1\t0\t1\t1\t1\t\\N\t\\N\t0\t0\t0\t0",
		"T1\t0\t0\tx\t1\t1\t1\t0\t1\t1\t1\t\\N\t\\N\t99999999\t0\t0\t0",
		"T1\t0\t0\tx\t1\t1\t1\t0\t1\t1\t1\t\\N\t\\N\t0\t0\t1\t\\N\t0\t1"
		    "\t\\N\t0\tt\t0",
	};
	struct kl_report *r;
	struct kl_error err;
	size_t i;

	(void)state;
	r = kl_report_new();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		assert_int_equal(kl_report_read(r, (const uint8_t *)bad[i],
		    strlen(bad[i]), &err), -1);
		assert_int_equal(err.code, KL_EFORMAT);
	}
	assert_int_equal(kl_report_count(r), 0);
	/* the smallest good line */
	assert_int_equal(kl_report_read(r, (const uint8_t *)
	    "T1\t0\t0\tx\t1\t1\t1\t0\t1\t1\t1\t\\N\t\\N\t0\t0\t0\t0",
	    strlen("T1\t0\t0\tx\t1\t1\t1\t0\t1\t1\t1\t\\N\t\\N\t0\t0\t0\t0"),
	    &err), 0);
	assert_int_equal(kl_report_count(r), 1);
	kl_report_free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_malformed),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
