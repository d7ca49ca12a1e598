/*
 * fuzz-report.c - libFuzzer harness for the report rows a worker ships
 * to the parent (kl_report_read(), lib/report.c).
 *
 * Each input line is read into a report; a line that is accepted must
 * write back (kl_report_write()) as lines that read again into a report
 * that writes the same bytes: reading is a function of the text, and a
 * row survives the trip.  Seeds (corpus/report/): rows written by
 * kleakscan --report -j 2 for ../shared/corpus/syzkaller/report/472 and
 * qemu/x86_64-6.1.0-57-amd64-boot1/console.log.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Abort unless c holds. */
static void
check(int c)
{
	if (!c)
		abort();
}

/* Bytes written by kl_report_write(). */
struct out {
	uint8_t	*p;
	size_t	 n;
	size_t	 cap;
};

/*
 * Append to an out.  The buffer doubles: a realloc() per field made
 * ASan fill and quarantine a fresh copy each time, 98 % of the time.
 */
static int
put(void *arg, const void *p, size_t n)
{
	struct out *o = arg;

	if (o->n + n > o->cap) {
		o->cap = o->cap * 2 > o->n + n ? o->cap * 2 : o->n + n + 4096;
		o->p = realloc(o->p, o->cap);
		check(o->p != NULL);
	}
	memcpy(o->p + o->n, p, n);
	o->n += n;
	return (0);
}

/* Read every line of p[0..n) into rep. */
static void
read_all(struct kl_report *rep, const uint8_t *p, size_t n)
{
	struct kl_error err;
	const uint8_t *e, *nl;
	size_t len;

	if (n == 0)
		return;
	e = p + n;
	while (p < e) {
		nl = memchr(p, '\n', (size_t)(e - p));
		len = nl != NULL ? (size_t)(nl - p) : (size_t)(e - p);
		memset(&err, 0, sizeof(err));
		if (kl_report_read(rep, p, len, &err) == -1)
			check(err.code == KL_EFORMAT && err.msg[0] != '\0');
		if (nl == NULL)
			break;
		p = nl + 1;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kl_report *a, *b, *c;
	struct out o1 = { NULL, 0, 0 }, o2 = { NULL, 0, 0 }, o3 = { NULL, 0, 0 };

	a = kl_report_new();
	b = kl_report_new();
	c = kl_report_new();
	check(a != NULL && b != NULL && c != NULL);
	read_all(a, data, size);
	check(kl_report_write(a, put, &o1) == 0);
	read_all(b, o1.p, o1.n);
	check(kl_report_count(b) == kl_report_count(a));
	check(kl_report_write(b, put, &o2) == 0);
	check(o1.n == o2.n && (o1.n == 0 || memcmp(o1.p, o2.p, o1.n) == 0));
	/* ranking is a total order: rows come out the same twice */
	(void)kl_report_rows(b);
	check(kl_report_merge(c, b) == 0);
	check(kl_report_write(c, put, &o3) == 0);
	check(o3.n == o2.n);
	free(o1.p);
	free(o2.p);
	free(o3.p);
	kl_report_free(a);
	kl_report_free(b);
	kl_report_free(c);
	return (0);
}
