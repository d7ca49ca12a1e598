/*
 * print-merge.c - the merge state of a --report --json output: the
 * "merge_state" event (version, options, the listing and shards it
 * covers, errors, totals) and one "merge_row" event per row, which
 * --merge (merge.c, merge-read.c) reads back.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"

/* Is word the long option name (or a prefix getopt_long took for it)? */
int
merge_is_opt(const char *word, const char *name, int *arg)
{
	const char	*eq;
	size_t		 n;

	if (word[0] != '-' || word[1] != '-' || word[2] == '\0')
		return (0);
	eq = strchr(word + 2, '=');
	n = eq != NULL ? (size_t)(eq - (word + 2)) : strlen(word + 2);
	if (n == 0 || strncmp(word + 2, name, n) != 0 || n > strlen(name))
		return (0);
	*arg = eq == NULL;
	return (1);
}

/*
 * The options of the run that change its report: every word before the
 * operands but --shard, -j, --jobs, -s, --no-messages, --merge and --.
 */
static size_t
report_opts(const struct cli *cli, const char **out)
{
	const char	*w;
	size_t		 n = 0;
	int		 i, end, next;

	end = cli->argc - cli->noperands;
	for (i = 1; i < end; i++) {
		w = cli->argv[i];
		next = 0;
		if (merge_is_opt(w, "shard", &next) ||
		    merge_is_opt(w, "jobs", &next)) {
			i += next;
			continue;
		}
		if (merge_is_opt(w, "no-messages", &next) ||
		    merge_is_opt(w, "merge", &next) || strcmp(w, "--") == 0 ||
		    strcmp(w, "-s") == 0)
			continue;
		if (w[0] == '-' && w[1] == 'j') {
			i += w[2] == '\0';
			continue;
		}
		if (out != NULL)
			out[n] = w;
		n++;
	}
	return (n);
}

/* Order listings: hash, size, shards. */
static int
cover_cmp(const void *a, const void *b)
{
	const struct mcover	*x = a, *y = b;

	if (x->hash != y->hash)
		return (x->hash < y->hash ? -1 : 1);
	if (x->inputs != y->inputs)
		return (x->inputs < y->inputs ? -1 : 1);
	if (x->n != y->n)
		return (x->n < y->n ? -1 : 1);
	return (0);
}

/* Is every shard of c in? */
int
merge_cover_complete(const struct mcover *c)
{
	unsigned	i;

	for (i = 0; i < c->n; i++)
		if (!c->have[i])
			return (0);
	return (1);
}

/* Write the listings: complete ones as whole, in order. */
static void
print_cover(struct mcover *c, size_t n)
{
	size_t		i;
	unsigned	k;
	const char	*sep;

	for (i = 0; i < n; i++)
		if (c[i].n > 0 && merge_cover_complete(&c[i])) {
			free(c[i].have);
			c[i].have = NULL;
			c[i].n = 0;
		}
	qsort(c, n, sizeof(*c), cover_cmp);
	fputs(",\"cover\":[", stdout);
	for (i = 0; i < n; i++) {
		printf("%s{\"hash\":\"%016" PRIx64 "\",\"inputs\":%" PRIu64
		    ",\"n\":%u,\"have\":[", i > 0 ? "," : "", c[i].hash,
		    c[i].inputs, c[i].n);
		sep = "";
		for (k = 0; k < c[i].n; k++)
			if (c[i].have[k]) {
				printf("%s%u", sep, k + 1);
				sep = ",";
			}
		fputs("]}", stdout);
	}
	putchar(']');
}

/* Write counters as a JSON array. */
static void
print_counts(const char *key, const uint64_t *v, size_t n)
{
	size_t	i;

	printf(",\"%s\":[", key);
	for (i = 0; i < n; i++)
		printf("%s%" PRIu64, i > 0 ? "," : "", v[i]);
	putchar(']');
}

/* Collect bytes of a row (kl_report_write()). */
static int
row_bytes(void *arg, const void *p, size_t n)
{
	struct buf	*b = arg;

	buf_reserve(b, b->len + n + 1);
	memcpy(b->p + b->len, p, n);
	b->len += n;
	return (0);
}

/* Write one row (line[0..n) of kl_report_write()) as an event. */
static void
print_row(const struct kl_report_row *r, const char *line, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t	i;
	uint8_t	c;

	printf("{\"type\":\"merge_row\",\"first\":%" PRIu64 ",\"last\":%"
	    PRIu64 ",\"row\":\"", r->first.ord, r->last.ord);
	for (i = 0; i < n; i++) {
		c = (uint8_t)line[i];
		if (c >= 0x80) {
			/* A byte the row format reads as \xNN too. */
			printf("\\\\x%c%c", hex[c >> 4], hex[c & 0xf]);
		} else if (c < 0x20) {
			printf("\\u%04x", c);
		} else if (c == '"' || c == '\\') {
			putchar('\\');
			putchar(c);
		} else
			putchar(c);
	}
	fputs("\"}\n", stdout);
}

/*
 * The merge state and rows of the report rep (--report --json), before
 * its summary: of this run (errors and leaked), or of the merge (merged,
 * what the merged reports say; NULL for this run).
 */
void
merge_state_print(const struct cli *cli, struct kl_report *rep,
    const struct totals *t, uint64_t errors, int leaked,
    struct mstate *merged)
{
	struct kl_report_row	**row;
	struct mcover		  own, *cover;
	struct buf		  b = { NULL, 0, 0 };
	const char		**opts;
	const char		 *nl;
	size_t			  i, n, ncover, at, end;
	unsigned		  k;

	if (merged != NULL) {
		cover = merged->cover;
		ncover = merged->ncover;
		errors = merged->errors;
		leaked = merged->leaked;
	} else {
		memset(&own, 0, sizeof(own));
		shard_listing(&own.inputs, &own.hash, &k, &own.n);
		own.have = xmalloc(own.n);
		memset(own.have, 0, own.n);
		own.have[k - 1] = 1;
		cover = &own;
		ncover = 1;
	}
	n = report_opts(cli, NULL);
	opts = xreallocarray(NULL, n + 1, sizeof(*opts));
	(void)report_opts(cli, opts);
	printf("{\"type\":\"merge_state\",\"format\":%d,\"version\":",
	    MERGE_FORMAT);
	report_json_str(PACKAGE_VERSION, strlen(PACKAGE_VERSION));
	fputs(",\"options\":[", stdout);
	for (i = 0; i < n; i++) {
		if (i > 0)
			putchar(',');
		report_json_str(opts[i], strlen(opts[i]));
	}
	putchar(']');
	free(opts);
	print_cover(cover, ncover);
	printf(",\"errors\":%" PRIu64 ",\"leaked\":%s,\"rows\":%zu",
	    errors, leaked ? "true" : "false", kl_report_count(rep));
	printf(",\"totals\":{\"inputs\":%" PRIu64 ",\"skipped_binary\":%"
	    PRIu64 ",\"errors\":%" PRIu64 ",\"bytes\":%" PRIu64
	    ",\"lines\":%" PRIu64 ",\"findings\":%" PRIu64 ",\"boots\":%"
	    PRIu64 ",\"unhashed\":%" PRIu64 ",\"slides\":%" PRIu64,
	    t->inputs, t->skipped_binary, t->errors, t->bytes, t->lines,
	    t->findings, t->boots, t->unhashed, t->slides);
	print_counts("region", t->region, KL_REGION_COUNT);
	print_counts("suppressed", t->suppressed, KL_SUP_COUNT);
	print_counts("disclosed", t->disclosed, KL_REGION_COUNT);
	fputs("}}\n", stdout);
	if (merged == NULL)
		free(own.have);

	/* Every row, ranked; the examples masked as the report shows them. */
	row = kl_report_rows(rep);
	n = kl_report_count(rep);
	for (i = 0; i < n && !cli->show_addresses; i++) {
		(void)kl_mask_addr(row[i]->first.text, row[i]->first.textlen);
		(void)kl_mask_addr(row[i]->last.text, row[i]->last.textlen);
	}
	(void)kl_report_write(rep, row_bytes, &b);
	for (i = 0, at = 0; i < n && at < b.len; i++) {
		nl = memchr(b.p + at, '\n', b.len - at);
		end = nl != NULL ? (size_t)(nl - b.p) : b.len;
		print_row(row[i], b.p + at, end - at);
		at = end + 1;
	}
	buf_free(&b);
	out_check();
}
