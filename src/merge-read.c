/*
 * merge-read.c - read a --report --json output for --merge.
 *
 * The output is JSON Lines: "template" events, one "merge_state" event,
 * its "merge_row" events (each row of the report as a line of
 * kl_report_write(), with the places of its examples) and the "summary"
 * last, every line ended by a newline.  Anything else (a line cut short,
 * a missing event, a count that does not match, a plain --json stream
 * without a merge state) is an error with its line number: a report
 * that merges is whole.  Nothing here prints or exits, so the fuzzer
 * (tests/fuzz/fuzz-merge.c) runs it as it is.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"

#define DEPTH_MAX	16		/* of nested JSON values */
#define OPTS_MAX	4096		/* options of a state */
#define COVER_MAX	65536		/* listings of a state */

enum jt { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

/* A JSON value. */
struct jv {
	enum jt		 t;
	int		 b;
	char		*s;		/* string or number text */
	size_t		 len;
	struct jv	*kid;		/* array items, object values */
	char		**key;		/* object keys */
	size_t		 n;
};

/* A JSON text being read. */
struct jp {
	const uint8_t	*p;
	size_t		 n, at;
	int		 bad;		/* malformed, or out of memory */
};

/* Free what a value holds. */
static void
jv_free(struct jv *v)
{
	size_t	i;

	for (i = 0; i < v->n; i++) {
		jv_free(&v->kid[i]);
		if (v->key != NULL)
			free(v->key[i]);
	}
	free(v->kid);
	free(v->key);
	free(v->s);
	memset(v, 0, sizeof(*v));
}

/* Skip white space. */
static void
ws(struct jp *j)
{
	while (j->at < j->n && (j->p[j->at] == ' ' || j->p[j->at] == '\t' ||
	    j->p[j->at] == '\r' || j->p[j->at] == '\n'))
		j->at++;
}

/* Append one byte to a growing string. */
static void
put(struct jp *j, char **s, size_t *len, size_t *cap, uint8_t c)
{
	char	*ns;

	if (j->bad)
		return;
	if (*len + 2 > *cap) {
		*cap = *cap == 0 ? 32 : *cap * 2;
		if ((ns = realloc(*s, *cap)) == NULL) {
			j->bad = 1;
			return;
		}
		*s = ns;
	}
	(*s)[(*len)++] = (char)c;
	(*s)[*len] = '\0';
}

/* Four hex digits at p; -1 when they are not. */
static long
hex4(const uint8_t *p)
{
	long	v = 0;
	int	i, d;

	for (i = 0; i < 4; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			d = p[i] - '0';
		else if ((p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'f')
			d = (p[i] | 0x20) - 'a' + 10;
		else
			return (-1);
		v = v * 16 + d;
	}
	return (v);
}

/* Read a string (at its quote) into v. */
static void
jstring(struct jp *j, struct jv *v)
{
	size_t	cap = 0;
	long	u, l;
	uint8_t	c;

	v->t = J_STR;
	j->at++;
	put(j, &v->s, &v->len, &cap, 0);
	v->len = 0;
	while (!j->bad) {
		if (j->at >= j->n) {
			j->bad = 1;
			return;
		}
		c = j->p[j->at++];
		if (c == '"')
			return;
		if (c < 0x20) {
			j->bad = 1;
			return;
		}
		if (c != '\\') {
			put(j, &v->s, &v->len, &cap, c);
			continue;
		}
		if (j->at >= j->n) {
			j->bad = 1;
			return;
		}
		c = j->p[j->at++];
		switch (c) {
		case '"': case '\\': case '/':
			break;
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case 'u':
			if (j->at + 4 > j->n || (u = hex4(j->p + j->at)) < 0) {
				j->bad = 1;
				return;
			}
			j->at += 4;
			if (u >= 0xd800 && u < 0xdc00) {
				if (j->at + 6 > j->n || j->p[j->at] != '\\' ||
				    j->p[j->at + 1] != 'u' ||
				    (l = hex4(j->p + j->at + 2)) < 0xdc00 ||
				    l > 0xdfff) {
					j->bad = 1;
					return;
				}
				j->at += 6;
				u = 0x10000 + ((u - 0xd800) << 10) +
				    (l - 0xdc00);
			} else if (u >= 0xdc00 && u < 0xe000) {
				j->bad = 1;
				return;
			}
			if (u < 0x80)
				put(j, &v->s, &v->len, &cap, (uint8_t)u);
			else if (u < 0x800) {
				put(j, &v->s, &v->len, &cap,
				    (uint8_t)(0xc0 | u >> 6));
				put(j, &v->s, &v->len, &cap,
				    (uint8_t)(0x80 | (u & 0x3f)));
			} else if (u < 0x10000) {
				put(j, &v->s, &v->len, &cap,
				    (uint8_t)(0xe0 | u >> 12));
				put(j, &v->s, &v->len, &cap,
				    (uint8_t)(0x80 | (u >> 6 & 0x3f)));
				put(j, &v->s, &v->len, &cap,
				    (uint8_t)(0x80 | (u & 0x3f)));
			} else {
				put(j, &v->s, &v->len, &cap,
				    (uint8_t)(0xf0 | u >> 18));
				put(j, &v->s, &v->len, &cap,
				    (uint8_t)(0x80 | (u >> 12 & 0x3f)));
				put(j, &v->s, &v->len, &cap,
				    (uint8_t)(0x80 | (u >> 6 & 0x3f)));
				put(j, &v->s, &v->len, &cap,
				    (uint8_t)(0x80 | (u & 0x3f)));
			}
			continue;
		default:
			j->bad = 1;
			return;
		}
		put(j, &v->s, &v->len, &cap, c);
	}
}

/* Is c a digit? */
static int
digit(uint8_t c)
{
	return (c >= '0' && c <= '9');
}

/* Read a number (its text is kept). */
static void
jnumber(struct jp *j, struct jv *v)
{
	size_t	from = j->at, cap = 0, i;

	v->t = J_NUM;
	if (j->at < j->n && j->p[j->at] == '-')
		j->at++;
	if (j->at >= j->n || !digit(j->p[j->at])) {
		j->bad = 1;
		return;
	}
	if (j->p[j->at] == '0')
		j->at++;
	else
		while (j->at < j->n && digit(j->p[j->at]))
			j->at++;
	if (j->at < j->n && j->p[j->at] == '.') {
		if (++j->at >= j->n || !digit(j->p[j->at])) {
			j->bad = 1;
			return;
		}
		while (j->at < j->n && digit(j->p[j->at]))
			j->at++;
	}
	if (j->at < j->n && (j->p[j->at] | 0x20) == 'e') {
		j->at++;
		if (j->at < j->n && (j->p[j->at] == '+' ||
		    j->p[j->at] == '-'))
			j->at++;
		if (j->at >= j->n || !digit(j->p[j->at])) {
			j->bad = 1;
			return;
		}
		while (j->at < j->n && digit(j->p[j->at]))
			j->at++;
	}
	put(j, &v->s, &v->len, &cap, 0);
	v->len = 0;
	for (i = from; i < j->at; i++)
		put(j, &v->s, &v->len, &cap, j->p[i]);
}

/* Does the text at the cursor start with word? */
static int
lit(struct jp *j, const char *word)
{
	size_t	n = strlen(word);

	if (j->n - j->at < n || memcmp(j->p + j->at, word, n) != 0)
		return (0);
	j->at += n;
	return (1);
}

static void	jvalue(struct jp *, struct jv *, int);

/* Add a slot to an array or object. */
static struct jv *
slot(struct jp *j, struct jv *v, size_t *cap)
{
	struct jv	*nk;
	char		**nkey;

	if (v->n == *cap) {
		*cap = *cap == 0 ? 4 : *cap * 2;
		if ((nk = realloc(v->kid, *cap * sizeof(*nk))) == NULL) {
			j->bad = 1;
			return (NULL);
		}
		v->kid = nk;
		if (v->t == J_OBJ) {
			if ((nkey = realloc(v->key, *cap *
			    sizeof(*nkey))) == NULL) {
				j->bad = 1;
				return (NULL);
			}
			v->key = nkey;
		}
	}
	memset(&v->kid[v->n], 0, sizeof(v->kid[v->n]));
	if (v->t == J_OBJ)
		v->key[v->n] = NULL;
	return (&v->kid[v->n++]);
}

/* Read an array or an object (at its bracket). */
static void
jlist(struct jp *j, struct jv *v, int depth)
{
	struct jv	 k, *it;
	size_t		 cap = 0;
	uint8_t		 close;

	v->t = j->p[j->at] == '[' ? J_ARR : J_OBJ;
	close = v->t == J_ARR ? ']' : '}';
	j->at++;
	ws(j);
	if (j->at < j->n && j->p[j->at] == close) {
		j->at++;
		return;
	}
	while (!j->bad) {
		ws(j);
		if (v->t == J_OBJ) {
			memset(&k, 0, sizeof(k));
			if (j->at >= j->n || j->p[j->at] != '"') {
				j->bad = 1;
				return;
			}
			jstring(j, &k);
			if ((it = slot(j, v, &cap)) == NULL) {
				jv_free(&k);
				return;
			}
			v->key[v->n - 1] = k.s;
			if (j->bad)
				return;
			ws(j);
			if (j->at >= j->n || j->p[j->at] != ':') {
				j->bad = 1;
				return;
			}
			j->at++;
		} else if ((it = slot(j, v, &cap)) == NULL)
			return;
		jvalue(j, it, depth + 1);
		ws(j);
		if (j->bad || j->at >= j->n) {
			j->bad = 1;
			return;
		}
		if (j->p[j->at] == close) {
			j->at++;
			return;
		}
		if (j->p[j->at] != ',') {
			j->bad = 1;
			return;
		}
		j->at++;
	}
}

/* Read any value. */
static void
jvalue(struct jp *j, struct jv *v, int depth)
{
	ws(j);
	if (j->at >= j->n || depth > DEPTH_MAX) {
		j->bad = 1;
		return;
	}
	switch (j->p[j->at]) {
	case '"':
		jstring(j, v);
		break;
	case '[':
	case '{':
		jlist(j, v, depth);
		break;
	case 't':
	case 'f':
		v->t = J_BOOL;
		v->b = j->p[j->at] == 't';
		if (!lit(j, v->b ? "true" : "false"))
			j->bad = 1;
		break;
	case 'n':
		v->t = J_NULL;
		if (!lit(j, "null"))
			j->bad = 1;
		break;
	default:
		jnumber(j, v);
		break;
	}
}

/* Parse one line as a JSON object; -1 when it is not one. */
static int
jparse(const uint8_t *p, size_t n, struct jv *v)
{
	struct jp	j;

	memset(v, 0, sizeof(*v));
	memset(&j, 0, sizeof(j));
	j.p = p;
	j.n = n;
	ws(&j);
	if (j.at >= n || p[j.at] != '{')
		return (-1);
	jvalue(&j, v, 0);
	ws(&j);
	if (j.bad || j.at != n) {
		jv_free(v);
		return (-1);
	}
	return (0);
}

/* The member key of object v, or NULL. */
static const struct jv *
jget(const struct jv *v, const char *key)
{
	size_t	i;

	if (v == NULL || v->t != J_OBJ)
		return (NULL);
	for (i = 0; i < v->n; i++)
		if (v->key[i] != NULL && strcmp(v->key[i], key) == 0)
			return (&v->kid[i]);
	return (NULL);
}

/* A non-negative integer; -1 when v is not one. */
static int
ju64(const struct jv *v, uint64_t *out)
{
	uint64_t	x = 0;
	size_t		i;

	if (v == NULL || v->t != J_NUM || v->len == 0 || v->len > 20)
		return (-1);
	for (i = 0; i < v->len; i++) {
		if (!digit((uint8_t)v->s[i]) || x > (UINT64_MAX - 9) / 10)
			return (-1);
		x = x * 10 + (uint64_t)(v->s[i] - '0');
	}
	*out = x;
	return (0);
}

/* Is v the string s? */
static int
jis(const struct jv *v, const char *s)
{
	return (v != NULL && v->t == J_STR && strlen(s) == v->len &&
	    memcmp(v->s, s, v->len) == 0);
}

/* Read an array of n counters into out; -1 when it is not one. */
static int
jcounts(const struct jv *v, uint64_t *out, size_t n)
{
	size_t	i;

	if (v == NULL || v->t != J_ARR || v->n != n)
		return (-1);
	for (i = 0; i < n; i++)
		if (ju64(&v->kid[i], &out[i]) == -1)
			return (-1);
	return (0);
}

/* Free a state. */
void
mstate_free(struct mstate *st)
{
	size_t	i;

	free(st->version);
	for (i = 0; i < st->nopts; i++)
		free(st->opts[i]);
	free(st->opts);
	for (i = 0; i < st->ncover; i++)
		free(st->cover[i].have);
	free(st->cover);
	memset(st, 0, sizeof(*st));
}

/* Read the totals object; -1 when malformed. */
static int
read_totals(const struct jv *v, struct totals *t)
{
	static const char *const key[] = {
		"inputs", "skipped_binary", "errors", "bytes", "lines",
		"findings", "boots", "unhashed", "slides"
	};
	uint64_t	*at[9];
	size_t		 i;

	at[0] = &t->inputs;
	at[1] = &t->skipped_binary;
	at[2] = &t->errors;
	at[3] = &t->bytes;
	at[4] = &t->lines;
	at[5] = &t->findings;
	at[6] = &t->boots;
	at[7] = &t->unhashed;
	at[8] = &t->slides;
	for (i = 0; i < 9; i++)
		if (ju64(jget(v, key[i]), at[i]) == -1)
			return (-1);
	if (jcounts(jget(v, "region"), t->region, KL_REGION_COUNT) == -1 ||
	    jcounts(jget(v, "suppressed"), t->suppressed,
	    KL_SUP_COUNT) == -1 ||
	    jcounts(jget(v, "disclosed"), t->disclosed,
	    KL_REGION_COUNT) == -1)
		return (-1);
	return (0);
}

/* Read a merge_state event into st; a message when malformed. */
static const char *
read_state(const struct jv *v, struct mstate *st)
{
	const struct jv	*o, *c, *h;
	uint64_t	 x, k;
	size_t		 i, m;

	if (ju64(jget(v, "format"), &x) == -1 || x != MERGE_FORMAT)
		return ("merge state of another format");
	if ((o = jget(v, "version")) == NULL || o->t != J_STR ||
	    (st->version = strdup(o->s)) == NULL)
		return ("merge state without a version");
	if ((o = jget(v, "options")) == NULL || o->t != J_ARR ||
	    o->n > OPTS_MAX)
		return ("merge state without options");
	if (o->n > 0 && (st->opts = calloc(o->n, sizeof(char *))) == NULL)
		return ("out of memory");
	for (i = 0; i < o->n; i++) {
		if (o->kid[i].t != J_STR ||
		    memchr(o->kid[i].s, '\0', o->kid[i].len) != NULL ||
		    (st->opts[i] = strdup(o->kid[i].s)) == NULL)
			return ("merge state with a bad option");
		st->nopts++;
	}
	if ((o = jget(v, "cover")) == NULL || o->t != J_ARR || o->n == 0 ||
	    o->n > COVER_MAX)
		return ("merge state without its inputs");
	if ((st->cover = calloc(o->n, sizeof(*st->cover))) == NULL)
		return ("out of memory");
	for (i = 0; i < o->n; i++) {
		c = &o->kid[i];
		st->ncover++;
		if ((h = jget(c, "hash")) == NULL || h->t != J_STR ||
		    h->len != 16 || sscanf(h->s, "%16" SCNx64,
		    &st->cover[i].hash) != 1 ||
		    ju64(jget(c, "inputs"), &st->cover[i].inputs) == -1 ||
		    ju64(jget(c, "n"), &x) == -1 || x > SHARD_MAX ||
		    (h = jget(c, "have")) == NULL || h->t != J_ARR)
			return ("merge state with bad inputs");
		st->cover[i].n = (unsigned)x;
		if (x == 0 ? h->n != 0 : h->n == 0 || h->n >= x)
			return ("merge state with bad shards");
		if (x == 0)
			continue;
		if ((st->cover[i].have = calloc(x, 1)) == NULL)
			return ("out of memory");
		for (m = 0; m < h->n; m++) {
			if (ju64(&h->kid[m], &k) == -1 || k < 1 || k > x ||
			    st->cover[i].have[k - 1])
				return ("merge state with bad shards");
			st->cover[i].have[k - 1] = 1;
		}
	}
	if (ju64(jget(v, "errors"), &st->errors) == -1 ||
	    (o = jget(v, "leaked")) == NULL || o->t != J_BOOL ||
	    ju64(jget(v, "rows"), &st->rows) == -1)
		return ("merge state without its counts");
	st->leaked = o->b;
	if (read_totals(jget(v, "totals"), &st->tot) == -1)
		return ("merge state with bad totals");
	return (NULL);
}

/* Read a merge_row event into rep; a message when malformed. */
static const char *
read_row(const struct jv *v, struct kl_report *rep, struct kl_report *one)
{
	const struct jv		*r;
	struct kl_report_row	*row;
	struct kl_error		 err;
	uint64_t		 first, last;

	if (ju64(jget(v, "first"), &first) == -1 ||
	    ju64(jget(v, "last"), &last) == -1 ||
	    (r = jget(v, "row")) == NULL || r->t != J_STR)
		return ("merge row without its fields");
	kl_report_clear(one);
	memset(&err, 0, sizeof(err));
	if (kl_report_read(one, (const uint8_t *)r->s, r->len, &err) == -1)
		return ("malformed merge row");
	if (kl_report_count(one) != 1)
		return ("malformed merge row");
	row = kl_report_rows(one)[0];
	if (row->first.path == NULL || row->last.path == NULL ||
	    row->count == 0 || first > last)
		return ("merge row without its examples");
	row->first.ord = first;
	row->last.ord = last;
	if (kl_report_merge_any(rep, one) == -1)
		return ("out of memory");
	return (NULL);
}

/* Does the summary agree with the state? */
static int
summary_agrees(const struct jv *v, const struct mstate *st)
{
	uint64_t	x[5];

	if (ju64(jget(v, "inputs"), &x[0]) == -1 ||
	    ju64(jget(v, "errors"), &x[1]) == -1 ||
	    ju64(jget(v, "bytes"), &x[2]) == -1 ||
	    ju64(jget(v, "findings"), &x[3]) == -1 ||
	    ju64(jget(v, "templates"), &x[4]) == -1)
		return (0);
	return (x[0] == st->tot.inputs && x[1] == st->tot.errors &&
	    x[2] == st->tot.bytes && x[3] == st->tot.findings &&
	    x[4] == st->rows);
}

/*
 * Read one --report --json output at the start of p[0..n) (a stream may
 * hold several, one after the other) into st and rep (its rows merged
 * in); *used is set to its length.  Returns 0, or -1 with *line (its
 * line, 0: none) and msg.
 */
int
merge_read(const uint8_t *p, size_t n, struct mstate *st,
    struct kl_report *rep, size_t *used, uint64_t *line, char *msg,
    size_t msgsize)
{
	struct kl_report	*one;
	struct jv		 v;
	const struct jv		*type;
	const char		*bad = NULL;
	const uint8_t		*nl;
	size_t			 at = 0, len;
	uint64_t		 no = 0, rows = 0;
	int			 state = 0, summary = 0;

	memset(st, 0, sizeof(*st));
	*line = 0;
	if ((one = kl_report_new()) == NULL) {
		snprintf(msg, msgsize, "out of memory");
		return (-1);
	}
	*used = 0;
	/* Up to the summary: what follows is the next report of a stream. */
	while (at < n && bad == NULL && !summary) {
		no++;
		if ((nl = memchr(p + at, '\n', n - at)) == NULL) {
			bad = "cut short: the last line has no newline";
			break;
		}
		len = (size_t)(nl - (p + at));
		if (jparse(p + at, len, &v) == -1) {
			bad = "not a JSON object (cut short or corrupt)";
			break;
		}
		type = jget(&v, "type");
		if (jis(type, "template")) {
			if (state)
				bad = "a template event after the merge state";
		} else if (jis(type, "merge_state")) {
			if (state)
				bad = "a second merge state";
			else if ((bad = read_state(&v, st)) == NULL)
				state = 1;
		} else if (jis(type, "merge_row")) {
			if (!state)
				bad = "a merge row before the merge state";
			else if (++rows > st->rows)
				bad = "more merge rows than the state says";
			else
				bad = read_row(&v, rep, one);
		} else if (jis(type, "summary")) {
			summary = 1;
			if (!state)
				bad = "no merge state: not the output of "
				    "--report --json of this version";
			else if (rows != st->rows)
				bad = "fewer merge rows than the state says";
			else if (!summary_agrees(&v, st))
				bad = "the summary does not match the merge "
				    "state";
		} else if (type != NULL && type->t == J_STR)
			bad = "a plain --json event: --merge takes the "
			    "output of --report --json";
		else
			bad = "not a --report --json event";
		jv_free(&v);
		at += len + 1;
	}
	kl_report_free(one);
	if (bad == NULL && !summary)
		bad = n == 0 ? "empty" : "cut short: no summary";
	*used = at;
	if (bad == NULL && kl_report_count(rep) != st->rows)
		bad = "merge rows repeat a template";
	if (bad != NULL) {
		*line = no;
		snprintf(msg, msgsize, "%s", bad);
		return (-1);
	}
	return (0);
}
