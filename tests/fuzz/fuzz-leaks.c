/*
 * fuzz-leaks.c - libFuzzer harness for the leak-sources parser and
 * matcher (lib/leaks.c).
 *
 * The input is split at the first "\n\n\n": what comes before is a
 * leak-sources file, what comes after is log text.  The file is parsed
 * (from an exact-size copy, so that ASan sees a read past it); an error
 * must name the file and a line within it.  When it loads, every line
 * of the log text (and, when there is none, the file's own lines) is
 * matched with the keyed matcher and with the run-every-pattern
 * reference: the keyed hits must be the reference's hits whose key is
 * in the line (a fuzzed key need not be one the pattern requires), with
 * the same entries, spans and values; spans must
 * lie within the line, values must be set, and an entry's key must be
 * in every line it matches.  A broken invariant aborts.
 *
 * Seeds (corpus/leaks/): data/leak-sources with lines of tests/data,
 * small files with continuation lines, quoted keys, size suffixes, and
 * files with each parser error.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define MAXHITS 8

/* Abort unless c holds. */
static void
check(int c)
{
	if (!c)
		abort();
}

/* Do two hit lists agree? */
static int
same(const struct kl_leak_hit *a, const struct kl_leak_hit *b, int n)
{
	size_t j;
	int i;

	for (i = 0; i < n; i++) {
		if (a[i].entry != b[i].entry || a[i].off != b[i].off ||
		    a[i].len != b[i].len || a[i].nvalues != b[i].nvalues)
			return (0);
		for (j = 0; j < a[i].nvalues; j++)
			if (a[i].v[j].value != b[i].v[j].value ||
			    a[i].v[j].off != b[i].v[j].off ||
			    a[i].v[j].len != b[i].v[j].len ||
			    a[i].v[j].overflow != b[i].v[j].overflow ||
			    strcmp(a[i].v[j].name, b[i].v[j].name) != 0)
				return (0);
	}
	return (1);
}

/* Match one line both ways and check the hits. */
static void
match_line(struct kl_leakmatch *m, const uint8_t *line, size_t len)
{
	struct kl_leak_hit a[MAXHITS], b[MAXHITS];
	uint8_t *copy;
	size_t j;
	int n, r, i, k;

	/* exactly len bytes, so that ASan sees a read past */
	copy = malloc(len == 0 ? 1 : len);
	check(copy != NULL);
	if (len > 0)
		memcpy(copy, line, len);
	n = kl_leak_match(m, copy, len, a, MAXHITS);
	r = kl_leak_match_all(m, copy, len, b, MAXHITS);
	check(n >= 0 && r >= n);
	/*
	 * A fuzzed file's key need not be in every line its pattern
	 * matches: the keyed hits are the reference's whose key is there.
	 */
	if (r > MAXHITS)
		r = MAXHITS;
	for (i = k = 0; i < r; i++)
		if (kl_memmem(copy, len, b[i].entry->key,
		    strlen(b[i].entry->key)) != NULL)
			b[k++] = b[i];
	if (n <= MAXHITS)
		check(k == n);
	if (n > MAXHITS)
		n = MAXHITS;
	if (k > n)
		k = n;
	check(same(a, b, k));
	for (i = 0; i < n; i++) {
		const struct kl_leak_entry *e = a[i].entry;

		check(a[i].off <= len && a[i].len <= len - a[i].off);
		check(a[i].nvalues <= KL_LEAK_VALUES_MAX);
		check(kl_memmem(copy, len, e->key, strlen(e->key)) != NULL);
		for (j = 0; j < a[i].nvalues; j++) {
			check(a[i].v[j].name != NULL);
			check(a[i].v[j].off <= len &&
			    a[i].v[j].len <= len - a[i].v[j].off);
			check(!a[i].v[j].overflow || a[i].v[j].value == 0);
		}
	}
	free(copy);
}

/* Match every line of text. */
static void
match_text(struct kl_leakmatch *m, const uint8_t *d, size_t n)
{
	const uint8_t *nl;

	while (n > 0) {
		nl = memchr(d, '\n', n);
		match_line(m, d, nl == NULL ? n : (size_t)(nl - d));
		if (nl == NULL)
			break;
		n -= (size_t)(nl - d) + 1;
		d = nl + 1;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct kl_leak_entry *e;
	struct kl_leakmatch *m;
	struct kl_leakdb *db;
	struct kl_error err;
	const uint8_t *sep;
	size_t flen, i, lines = 1;
	uint8_t *file;

	sep = kl_memmem(data, size, "\n\n\n", 3);
	flen = sep == NULL ? size : (size_t)(sep - data);
	file = malloc(flen == 0 ? 1 : flen);
	check(file != NULL);
	if (flen > 0)
		memcpy(file, data, flen);
	for (i = 0; i < flen; i++)
		lines += file[i] == '\n';
	db = kl_leakdb_load_mem(file, flen, "fuzz", &err);
	if (db == NULL) {
		check(err.code == KL_EFORMAT || err.code == KL_ENOMEM);
		check(strncmp(err.msg, "fuzz", 4) == 0);
		check(err.line <= lines);
		free(file);
		return (0);
	}
	check(kl_leakdb_count(db) > 0);
	for (i = 0; i < kl_leakdb_count(db); i++) {
		e = kl_leakdb_entry(db, i);
		check(e->id != NULL && e->key != NULL && strlen(e->key) >= 2);
		check(e->pattern != NULL && e->explain != NULL);
		check(e->families != 0 && e->discloses != 0);
		check(e->line >= 1 && e->line <= lines);
	}
	check(kl_leakdb_entry(db, i) == NULL);
	m = kl_leakmatch_new(db);
	check(m != NULL);
	if (sep != NULL)
		match_text(m, sep + 3, size - flen - 3);
	else
		match_text(m, file, flen);
	kl_leakmatch_free(m);
	kl_leakdb_free(db);
	free(file);
	return (0);
}
