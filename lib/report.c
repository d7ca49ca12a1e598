/*
 * report.c - findings aggregated by message template.
 *
 * A report holds one row per template (struct kl_report_row): how many
 * findings, in how many units (inputs), boot segments and hosts, the
 * regions, architectures and kernel releases seen, the known leak source,
 * and the first and last example.  Memory grows with the templates, not
 * with the findings: a row keeps two examples, its hosts and releases.
 *
 * A caller fills one report per unit with kl_report_add() (occurrences
 * in the unit's order, boot segments ascending) and kl_report_boot()
 * (the release of a segment, once it ended), then merges it into the
 * report of the run with kl_report_merge(), units in input order.  Rows
 * merge one by one: counts add up, sets unite, the first example is the
 * earliest, the last the latest.  kl_report_write() gives the rows as
 * lines of text and kl_report_read() merges such a line back, so that a
 * worker process can ship its units' rows to the parent: the rows are
 * the same as one process makes, byte for byte.
 *
 * The line format (version "T1"): fields separated by tabs; strings with
 * \\, \t, \n and \xNN for other control bytes, \N for none.  Fields:
 * T1, class, template flags, template, count, inputs, boots, unhashed,
 * regions, arches, severity, source, fixed, the hosts (a count, then
 * each), the releases (the same), then each example: 0, or 1 then path,
 * member count, members, line, time, cut, text.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

#define ROWS_MIN	64	/* slots of a new hash table */
#define FIELDS_MAX	(64 + 2 * KL_INPUT_DEPTH_MAX + 2 * 4096)
#define SET_MAX		65536	/* strings of a set a line may carry */

struct kl_report {
	struct kl_report_row	**row;		/* in insertion order */
	size_t			  n;
	size_t			  cap;
	size_t			 *slot;		/* hash table: index + 1 */
	size_t			  nslot;	/* a power of two */
	int			  sorted;	/* row[] is ranked */
};

/* realloc for n elements of size, checked; NULL on overflow too. */
static void *
grow(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		return (NULL);
	return (realloc(p, n * size));
}

/* A new, empty report; NULL when out of memory. */
struct kl_report *
kl_report_new(void)
{
	return (calloc(1, sizeof(struct kl_report)));
}

/* Free a string set's strings. */
static void
set_free(struct kl_strset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* Free an example's strings. */
static void
ex_free(struct kl_report_ex *e)
{
	size_t i;

	free(e->path);
	for (i = 0; i < e->nmembers; i++)
		free(e->members[i]);
	free(e->members);
	free(e->ts);
	free(e->text);
	memset(e, 0, sizeof(*e));
}

/* Free a row. */
static void
row_free(struct kl_report_row *r)
{
	if (r == NULL)
		return;
	set_free(&r->hosts);
	set_free(&r->releases);
	free(r->source);
	free(r->fixed);
	ex_free(&r->first);
	ex_free(&r->last);
	free(r);
}

/* Drop every row, keep the report. */
void
kl_report_clear(struct kl_report *rep)
{
	size_t i;

	for (i = 0; i < rep->n; i++)
		row_free(rep->row[i]);
	rep->n = 0;
	if (rep->slot != NULL)
		memset(rep->slot, 0, rep->nslot * sizeof(*rep->slot));
	rep->sorted = 0;
}

/* Free a report and its rows. */
void
kl_report_free(struct kl_report *rep)
{
	if (rep == NULL)
		return;
	kl_report_clear(rep);
	free(rep->row);
	free(rep->slot);
	free(rep);
}

/* The number of rows. */
size_t
kl_report_count(const struct kl_report *rep)
{
	return (rep->n);
}

/* Do two templates match: class and bytes? */
static int
same(const struct kl_template *a, const struct kl_template *b)
{
	return (a->hash == b->hash && a->tclass == b->tclass &&
	    a->len == b->len && memcmp(a->text, b->text, a->len) == 0);
}

/* Rebuild the hash table with nslot slots; -1 when out of memory. */
static int
rehash(struct kl_report *rep, size_t nslot)
{
	size_t *slot, i, h;

	if ((slot = calloc(nslot, sizeof(*slot))) == NULL)
		return (-1);
	for (i = 0; i < rep->n; i++) {
		h = (size_t)rep->row[i]->t.hash & (nslot - 1);
		while (slot[h] != 0)
			h = (h + 1) & (nslot - 1);
		slot[h] = i + 1;
	}
	free(rep->slot);
	rep->slot = slot;
	rep->nslot = nslot;
	return (0);
}

/* The row of template t, created when new (*made set); NULL: no memory. */
static struct kl_report_row *
find(struct kl_report *rep, const struct kl_template *t, int *made)
{
	struct kl_report_row *r, **nr;
	size_t h, cap;

	*made = 0;
	if (rep->nslot == 0 && rehash(rep, ROWS_MIN) == -1)
		return (NULL);
	h = (size_t)t->hash & (rep->nslot - 1);
	while (rep->slot[h] != 0) {
		r = rep->row[rep->slot[h] - 1];
		if (same(&r->t, t))
			return (r);
		h = (h + 1) & (rep->nslot - 1);
	}
	if (rep->n == rep->cap) {
		cap = rep->cap == 0 ? ROWS_MIN : rep->cap * 2;
		if ((nr = grow(rep->row, cap, sizeof(*nr))) == NULL)
			return (NULL);
		rep->row = nr;
		rep->cap = cap;
	}
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return (NULL);
	r->t = *t;
	r->lastboot = -1;
	rep->row[rep->n++] = r;
	rep->slot[h] = rep->n;
	rep->sorted = 0;
	*made = 1;
	if (rep->n * 2 > rep->nslot && rehash(rep, rep->nslot * 2) == -1)
		return (NULL);
	return (r);
}

/* A copy of s[0..n) with a NUL; NULL when out of memory. */
static char *
dupn(const void *s, size_t n)
{
	char *p;

	if ((p = malloc(n + 1)) == NULL)
		return (NULL);
	if (n > 0)
		memcpy(p, s, n);
	p[n] = '\0';
	return (p);
}

/* Add s[0..n) to a set; -1 when out of memory. */
static int
set_add(struct kl_strset *s, const char *str, size_t n)
{
	size_t lo = 0, hi = s->n, mid, cap;
	char **nv;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strncmp(s->v[mid], str, n);
		if (c == 0 && s->v[mid][n] != '\0')
			c = 1;
		if (c == 0)
			return (0);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (s->n == s->cap) {
		cap = s->cap == 0 ? 4 : s->cap * 2;
		if ((nv = grow(s->v, cap, sizeof(*nv))) == NULL)
			return (-1);
		s->v = nv;
		s->cap = cap;
	}
	memmove(s->v + lo + 1, s->v + lo, (s->n - lo) * sizeof(*s->v));
	if ((s->v[lo] = dupn(str, n)) == NULL) {
		memmove(s->v + lo, s->v + lo + 1, (s->n - lo) * sizeof(*s->v));
		return (-1);
	}
	s->n++;
	return (0);
}

/* Unite set b into a. */
static int
set_unite(struct kl_strset *a, const struct kl_strset *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (set_add(a, b->v[i], strlen(b->v[i])) == -1)
			return (-1);
	return (0);
}

/* Set an example; -1 when out of memory. */
static int
ex_set(struct kl_report_ex *e, const char *path, const char *const *members,
    size_t nmembers, uint64_t line, const char *ts, const uint8_t *text,
    size_t textlen, int cut)
{
	size_t i;

	ex_free(e);
	e->line = line;
	e->cut = cut || textlen > KL_REPORT_TEXT_MAX;
	if (textlen > KL_REPORT_TEXT_MAX)
		textlen = KL_REPORT_TEXT_MAX;
	if ((e->path = dupn(path, strlen(path))) == NULL)
		return (-1);
	if (ts != NULL && (e->ts = dupn(ts, strlen(ts))) == NULL)
		return (-1);
	if ((e->text = (uint8_t *)dupn(text, textlen)) == NULL)
		return (-1);
	e->textlen = textlen;
	if (nmembers > 0) {
		if ((e->members = calloc(nmembers, sizeof(char *))) == NULL)
			return (-1);
		for (i = 0; i < nmembers; i++) {
			if ((e->members[i] = dupn(members[i],
			    strlen(members[i]))) == NULL)
				return (-1);
			e->nmembers++;
		}
	}
	return (0);
}

/* Copy example b into a. */
static int
ex_copy(struct kl_report_ex *a, const struct kl_report_ex *b)
{
	if (ex_set(a, b->path, (const char *const *)b->members,
	    b->nmembers, b->line, b->ts, b->text, b->textlen, b->cut) == -1)
		return (-1);
	a->ord = b->ord;
	return (0);
}

/*
 * Keep the lesser of two optional strings in *into; -1 when out of
 * memory.  A row's source and fix are chosen this way whatever the order
 * its occurrences come in, so that --merge of shards gives the bytes of
 * one run (rows that several sources match, such as arm64's "sp :" line
 * of both the sp and the register-dump sources, keep the same one).
 */
static int
str_least(char **into, const char *s)
{
	if (s == NULL || (*into != NULL && strcmp(*into, s) <= 0))
		return (0);
	free(*into);
	*into = NULL;
	return ((*into = dupn(s, strlen(s))) == NULL ? -1 : 0);
}

/*
 * Add one occurrence.  The report is one unit's: every row counts one
 * input, and a boot segment other than the row's last counts one more
 * boot.  Returns -1 when out of memory.
 */
int
kl_report_add(struct kl_report *rep, const struct kl_report_occ *o)
{
	struct kl_report_row *r;
	int made;

	if ((r = find(rep, o->t, &made)) == NULL)
		return (-1);
	r->count++;
	r->inputs = 1;
	if (r->lastboot != (long)o->boot) {
		r->boots++;
		r->lastboot = (long)o->boot;
	}
	if (o->unhashed)
		r->unhashed++;
	if ((unsigned)o->region < 32)
		r->regions |= 1u << o->region;
	if ((unsigned)o->arch < 32)
		r->arches |= UINT32_C(1) << o->arch;
	if (o->severity > r->severity)
		r->severity = o->severity;
	if (o->host != NULL && set_add(&r->hosts, o->host,
	    strlen(o->host)) == -1)
		return (-1);
	if (str_least(&r->source, o->source) == -1 ||
	    str_least(&r->fixed, o->fixed) == -1)
		return (-1);
	if (made && ex_set(&r->first, o->path, o->members, o->nmembers,
	    o->line, o->ts, o->text, o->textlen, 0) == -1)
		return (-1);
	if (ex_set(&r->last, o->path, o->members, o->nmembers, o->line, o->ts,
	    o->text, o->textlen, 0) == -1)
		return (-1);
	if (made)
		r->first.ord = o->ord;
	r->last.ord = o->ord;
	return (0);
}

/* A boot segment ended: its release (or NULL) goes to its rows. */
int
kl_report_boot(struct kl_report *rep, unsigned boot, const char *release)
{
	size_t i;

	if (release == NULL || release[0] == '\0')
		return (0);
	for (i = 0; i < rep->n; i++)
		if (rep->row[i]->lastboot == (long)boot &&
		    set_add(&rep->row[i]->releases, release,
		    strlen(release)) == -1)
			return (-1);
	return (0);
}

/*
 * Add the counts and sets of row b to the row of its template in rep (made
 * if new): what merge_row() and merge_row_any() share.  That row, or NULL
 * when out of memory.
 */
static struct kl_report_row *
merge_counts(struct kl_report *rep, const struct kl_report_row *b)
{
	struct kl_report_row *a;
	int made;

	if ((a = find(rep, &b->t, &made)) == NULL)
		return (NULL);
	a->t.flags |= b->t.flags;
	a->count += b->count;
	a->inputs += b->inputs;
	a->boots += b->boots;
	a->unhashed += b->unhashed;
	a->regions |= b->regions;
	a->arches |= b->arches;
	if (b->severity > a->severity)
		a->severity = b->severity;
	if (set_unite(&a->hosts, &b->hosts) == -1 ||
	    set_unite(&a->releases, &b->releases) == -1)
		return (NULL);
	if (str_least(&a->source, b->source) == -1 ||
	    str_least(&a->fixed, b->fixed) == -1)
		return (NULL);
	return (a);
}

/* Merge row b into rep, as the later one. */
static int
merge_row(struct kl_report *rep, const struct kl_report_row *b)
{
	struct kl_report_row *a;

	if ((a = merge_counts(rep, b)) == NULL)
		return (-1);
	if (a->first.path == NULL && b->first.path != NULL &&
	    ex_copy(&a->first, &b->first) == -1)
		return (-1);
	if (b->last.path != NULL && ex_copy(&a->last, &b->last) == -1)
		return (-1);
	return (0);
}

/* Merge the rows of b (a later unit) into a; -1 when out of memory. */
int
kl_report_merge(struct kl_report *a, const struct kl_report *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (merge_row(a, b->row[i]) == -1)
			return (-1);
	return (0);
}

/*
 * Does example a come before b: the input's place in the listing, then
 * path, members, line and text, so that the order is total.
 */
static int
ex_before(const struct kl_report_ex *a, const struct kl_report_ex *b)
{
	size_t i;
	int c;

	if (a->ord != b->ord)
		return (a->ord < b->ord);
	if ((c = strcmp(a->path, b->path)) != 0)
		return (c < 0);
	for (i = 0; i < a->nmembers && i < b->nmembers; i++)
		if ((c = strcmp(a->members[i], b->members[i])) != 0)
			return (c < 0);
	if (a->nmembers != b->nmembers)
		return (a->nmembers < b->nmembers);
	if (a->line != b->line)
		return (a->line < b->line);
	if ((a->ts == NULL) != (b->ts == NULL))
		return (a->ts == NULL);
	if (a->ts != NULL && (c = strcmp(a->ts, b->ts)) != 0)
		return (c < 0);
	if (a->cut != b->cut)
		return (a->cut < b->cut);
	if (a->textlen != b->textlen)
		return (a->textlen < b->textlen);
	return (memcmp(a->text, b->text, a->textlen) < 0);
}

/* Merge row b into rep in no order: the examples by their place. */
static int
merge_row_any(struct kl_report *rep, const struct kl_report_row *b)
{
	struct kl_report_row *a;

	if ((a = merge_counts(rep, b)) == NULL)
		return (-1);
	if (b->first.path != NULL && (a->first.path == NULL ||
	    ex_before(&b->first, &a->first)) && ex_copy(&a->first,
	    &b->first) == -1)
		return (-1);
	if (b->last.path != NULL && (a->last.path == NULL ||
	    ex_before(&a->last, &b->last)) && ex_copy(&a->last,
	    &b->last) == -1)
		return (-1);
	return (0);
}

/*
 * Merge the rows of b into a whatever their order (--merge): counts add
 * up, sets unite, the first example is the one earliest in the listing
 * (ex_before()), the last the latest; the result is the same in any
 * order and grouping.  -1 when out of memory.
 */
int
kl_report_merge_any(struct kl_report *a, const struct kl_report *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (merge_row_any(a, b->row[i]) == -1)
			return (-1);
	return (0);
}

/*
 * The report order: class (pointers first), severity (highest first),
 * spread (inputs, boots, hosts: most first), count (most first), then
 * fingerprint and template, so that the order is total.
 */
int
kl_report_cmp(const struct kl_report_row *a, const struct kl_report_row *b)
{
	int c;

	if (a->t.tclass != b->t.tclass)
		return (a->t.tclass < b->t.tclass ? -1 : 1);
	if (a->severity != b->severity)
		return (a->severity > b->severity ? -1 : 1);
	if (a->inputs != b->inputs)
		return (a->inputs > b->inputs ? -1 : 1);
	if (a->boots != b->boots)
		return (a->boots > b->boots ? -1 : 1);
	if (a->hosts.n != b->hosts.n)
		return (a->hosts.n > b->hosts.n ? -1 : 1);
	if (a->count != b->count)
		return (a->count > b->count ? -1 : 1);
	if ((c = strcmp(a->t.fp, b->t.fp)) != 0)
		return (c);
	if (a->t.len != b->t.len)
		return (a->t.len < b->t.len ? -1 : 1);
	return (memcmp(a->t.text, b->t.text, a->t.len));
}

/* qsort's view of kl_report_cmp. */
static int
cmp_rows(const void *a, const void *b)
{
	return (kl_report_cmp(*(struct kl_report_row *const *)a,
	    *(struct kl_report_row *const *)b));
}

/* The rows, ranked (kl_report_count() of them). */
struct kl_report_row **
kl_report_rows(struct kl_report *rep)
{
	if (!rep->sorted && rep->n > 0) {
		qsort(rep->row, rep->n, sizeof(*rep->row), cmp_rows);
		(void)rehash(rep, rep->nslot);
		rep->sorted = 1;
	}
	return (rep->row);
}

/* A writer of lines. */
struct wr {
	int	(*out)(void *, const void *, size_t);
	void	 *arg;
	int	  rc;
};

/* Write bytes. */
static void
w_raw(struct wr *w, const void *p, size_t n)
{
	if (w->rc == 0 && n > 0 && w->out(w->arg, p, n) != 0)
		w->rc = -1;
}

/* Write a field separator and an escaped string (NULL: \N). */
static void
w_str(struct wr *w, const void *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const uint8_t *p = s;
	char e[4];
	size_t i, from = 0;

	w_raw(w, "\t", 1);
	if (s == NULL) {
		w_raw(w, "\\N", 2);
		return;
	}
	for (i = 0; i < n; i++) {
		if (p[i] >= 0x20 && p[i] != 0x7f && p[i] != '\\')
			continue;
		w_raw(w, p + from, i - from);
		from = i + 1;
		if (p[i] == '\\')
			w_raw(w, "\\\\", 2);
		else if (p[i] == '\t')
			w_raw(w, "\\t", 2);
		else if (p[i] == '\n')
			w_raw(w, "\\n", 2);
		else {
			e[0] = '\\';
			e[1] = 'x';
			e[2] = hex[p[i] >> 4];
			e[3] = hex[p[i] & 0xf];
			w_raw(w, e, 4);
		}
	}
	w_raw(w, p + from, n - from);
}

/* Write a C string field (or \N). */
static void
w_cstr(struct wr *w, const char *s)
{
	w_str(w, s, s != NULL ? strlen(s) : 0);
}

/* Write a number field. */
static void
w_num(struct wr *w, uint64_t v)
{
	char b[24];
	size_t i = sizeof(b);

	do
		b[--i] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	w_raw(w, "\t", 1);
	w_raw(w, b + i, sizeof(b) - i);
}

/* Write a set: its size, then its strings. */
static void
w_set(struct wr *w, const struct kl_strset *s)
{
	size_t i;

	w_num(w, s->n);
	for (i = 0; i < s->n; i++)
		w_cstr(w, s->v[i]);
}

/* Write an example: 0, or 1 and its fields. */
static void
w_ex(struct wr *w, const struct kl_report_ex *e)
{
	size_t i;

	w_num(w, e->path != NULL);
	if (e->path == NULL)
		return;
	w_cstr(w, e->path);
	w_num(w, e->nmembers);
	for (i = 0; i < e->nmembers; i++)
		w_cstr(w, e->members[i]);
	w_num(w, e->line);
	w_cstr(w, e->ts);
	w_num(w, (uint64_t)e->cut);
	w_str(w, e->text, e->textlen);
}

/* Write every row as a line of text to out; -1 when out fails. */
int
kl_report_write(const struct kl_report *rep,
    int (*out)(void *, const void *, size_t), void *arg)
{
	const struct kl_report_row *r;
	struct wr w;
	size_t i;

	w.out = out;
	w.arg = arg;
	w.rc = 0;
	for (i = 0; i < rep->n && w.rc == 0; i++) {
		r = rep->row[i];
		w_raw(&w, "T1", 2);
		w_num(&w, (uint64_t)r->t.tclass);
		w_num(&w, r->t.flags);
		w_str(&w, r->t.text, r->t.len);
		w_num(&w, r->count);
		w_num(&w, r->inputs);
		w_num(&w, r->boots);
		w_num(&w, r->unhashed);
		w_num(&w, r->regions);
		w_num(&w, r->arches);
		w_num(&w, (uint64_t)r->severity);
		w_cstr(&w, r->source);
		w_cstr(&w, r->fixed);
		w_set(&w, &r->hosts);
		w_set(&w, &r->releases);
		w_ex(&w, &r->first);
		w_ex(&w, &r->last);
		w_raw(&w, "\n", 1);
	}
	return (w.rc);
}

/* A reader of one line's fields. */
struct rd {
	const uint8_t	*p;
	size_t		 n;
	size_t		 at;		/* next field starts here */
	uint8_t		*buf;		/* the field, unescaped */
	size_t		 len;
	int		 null;		/* the field was \N */
	int		 bad;
};

/* Read the next field into r->buf; 0 at the end or on a bad escape. */
static int
r_next(struct rd *r)
{
	size_t i, e;
	int h, l;

	if (r->bad || r->at > r->n) {
		r->bad = 1;
		return (0);
	}
	for (e = r->at; e < r->n && r->p[e] != '\t'; e++)
		;
	r->len = 0;
	r->null = e - r->at == 2 && r->p[r->at] == '\\' &&
	    r->p[r->at + 1] == 'N';
	for (i = r->at; i < e && !r->null; i++) {
		if (r->p[i] != '\\') {
			r->buf[r->len++] = r->p[i];
			continue;
		}
		if (++i >= e) {
			r->bad = 1;
			return (0);
		}
		switch (r->p[i]) {
		case '\\':
			r->buf[r->len++] = '\\';
			break;
		case 't':
			r->buf[r->len++] = '\t';
			break;
		case 'n':
			r->buf[r->len++] = '\n';
			break;
		case 'x':
			if (i + 2 >= e || (h = kl_hex_value(r->p[i + 1])) < 0 ||
			    (l = kl_hex_value(r->p[i + 2])) < 0) {
				r->bad = 1;
				return (0);
			}
			r->buf[r->len++] = (uint8_t)(h << 4 | l);
			i += 2;
			break;
		default:
			r->bad = 1;
			return (0);
		}
	}
	r->buf[r->len] = '\0';
	r->at = e + 1;
	return (1);
}

/* Read a number field. */
static uint64_t
r_num(struct rd *r)
{
	uint64_t v = 0;
	size_t i;

	if (!r_next(r) || r->null || r->len == 0 || r->len > 20) {
		r->bad = 1;
		return (0);
	}
	for (i = 0; i < r->len; i++) {
		if (r->buf[i] < '0' || r->buf[i] > '9' ||
		    v > (UINT64_MAX - 9) / 10) {
			r->bad = 1;
			return (0);
		}
		v = v * 10 + (uint64_t)(r->buf[i] - '0');
	}
	return (v);
}

/* Read a string field as a new C string (NULL for \N); -1: no memory. */
static int
r_str(struct rd *r, char **s)
{
	*s = NULL;
	if (!r_next(r))
		return (0);
	if (r->null)
		return (0);
	if (memchr(r->buf, '\0', r->len) != NULL) {
		r->bad = 1;
		return (0);
	}
	return ((*s = dupn(r->buf, r->len)) == NULL ? -1 : 0);
}

/* Read a set. */
static int
r_set(struct rd *r, struct kl_strset *s)
{
	uint64_t n, i;

	n = r_num(r);
	if (n > SET_MAX)
		r->bad = 1;
	for (i = 0; i < n && !r->bad; i++) {
		if (!r_next(r) || r->null ||
		    memchr(r->buf, '\0', r->len) != NULL) {
			r->bad = 1;
			break;
		}
		if (set_add(s, (const char *)r->buf, r->len) == -1)
			return (-1);
	}
	return (0);
}

/* Read an example. */
static int
r_ex(struct rd *r, struct kl_report_ex *e)
{
	uint64_t have, n, i;

	have = r_num(r);
	if (have == 0 || r->bad)
		return (0);
	if (r_str(r, &e->path) == -1)
		return (-1);
	n = r_num(r);
	if (e->path == NULL || n > KL_INPUT_DEPTH_MAX) {
		r->bad = 1;
		return (0);
	}
	if (n > 0 && (e->members = calloc(n, sizeof(char *))) == NULL)
		return (-1);
	for (i = 0; i < n && !r->bad; i++) {
		if (r_str(r, &e->members[i]) == -1)
			return (-1);
		e->nmembers++;
		if (e->members[i] == NULL)
			r->bad = 1;
	}
	e->line = r_num(r);
	if (r_str(r, &e->ts) == -1)
		return (-1);
	e->cut = r_num(r) != 0;
	if (!r_next(r) || r->null || r->len > KL_REPORT_TEXT_MAX) {
		r->bad = 1;
		return (0);
	}
	if ((e->text = (uint8_t *)dupn(r->buf, r->len)) == NULL)
		return (-1);
	e->textlen = r->len;
	return (0);
}

/*
 * Merge one line of kl_report_write() output (without its newline) into
 * rep.  Returns -1 with err set when it is malformed or out of memory.
 */
int
kl_report_read(struct kl_report *rep, const uint8_t *p, size_t n,
    struct kl_error *err)
{
	struct kl_report_row *row;
	struct rd r;
	uint64_t v;
	int rc = -1;

	memset(&r, 0, sizeof(r));
	r.p = p;
	r.n = n;
	if ((r.buf = malloc(n + 1)) == NULL ||
	    (row = calloc(1, sizeof(*row))) == NULL) {
		free(r.buf);
		kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
		return (-1);
	}
	if (!r_next(&r) || r.len != 2 || memcmp(r.buf, "T1", 2) != 0)
		r.bad = 1;
	v = r_num(&r);
	if (v >= KL_TC_COUNT)
		r.bad = 1;
	row->t.tclass = (enum kl_tclass)v;
	row->t.flags = (unsigned)r_num(&r);
	if (!r_next(&r) || r.null || r.len > KL_TPL_MAX)
		r.bad = 1;
	else {
		memcpy(row->t.text, r.buf, r.len);
		row->t.len = r.len;
	}
	row->count = r_num(&r);
	row->inputs = r_num(&r);
	row->boots = r_num(&r);
	row->unhashed = r_num(&r);
	row->regions = (unsigned)r_num(&r);
	row->arches = (uint32_t)r_num(&r);
	v = r_num(&r);
	if (v >= KL_SEV_COUNT)
		r.bad = 1;
	row->severity = (enum kl_severity)v;
	if (r_str(&r, &row->source) == -1 || r_str(&r, &row->fixed) == -1 ||
	    r_set(&r, &row->hosts) == -1 || r_set(&r, &row->releases) == -1 ||
	    r_ex(&r, &row->first) == -1 || r_ex(&r, &row->last) == -1) {
		kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
		goto out;
	}
	if (r.bad || r.at != n + 1) {
		kl_error_set(err, KL_EFORMAT, 0, "malformed report row");
		goto out;
	}
	kl_template_fingerprint(&row->t);
	if (merge_row(rep, row) == -1) {
		kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
		goto out;
	}
	rc = 0;
out:
	row_free(row);
	free(r.buf);
	return (rc);
}
