/*
 * baseline.c - --baseline FILE: the templates an earlier run reported.
 *
 * FILE is the output of an earlier "--report --json" (JSON Lines: the
 * "fingerprint" of each "template" event) or of "--sarif" (a SARIF log:
 * the "kleakscan/v1" partial fingerprint of each result).  The file is
 * read whole and parsed by a small strict JSON parser; anything that is
 * not one of those two (unreadable, not JSON, no summary event or no
 * runs, a fingerprint that is not 16 hex digits) is a fatal error: a
 * baseline is never silently empty.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleakscan.h"

#define BASELINE_MAX	(1024u << 20)	/* bytes of a baseline file */
#define DEPTH_MAX	64		/* nesting of JSON values */
#define KEY_MAX		64		/* bytes of a key kept */
#define SARIF_KEY	"kleakscan/v1"

/* The parser. */
struct jp {
	const char	*p;
	const char	*e;
	const char	*why;		/* the first error, or NULL */
	int		 depth;
	char		 key[DEPTH_MAX][KEY_MAX];	/* key of each level */
	/* Top-level JSON Lines object: its type and fingerprint. */
	char		 type[16];
	char		 fp[KL_FP_LEN + 1];
	int		 have_fp;
	int		 sarif_version;	/* "version": "2.1.0" at the top */
	int		 runs;		/* "runs" at the top */
	int		 templates;	/* "templates" at the top */
};

static struct {
	char		(*fp)[KL_FP_LEN + 1];
	size_t		  n;
	size_t		  cap;
} bl;

/* Remember a fingerprint. */
static int
add_fp(const char *s, size_t n)
{
	size_t	i;

	if (n != KL_FP_LEN)
		return (-1);
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' &&
		    s[i] <= 'f')))
			return (-1);
	if (bl.n == bl.cap) {
		bl.cap = bl.cap == 0 ? 256 : bl.cap * 2;
		bl.fp = xreallocarray(bl.fp, bl.cap, sizeof(*bl.fp));
	}
	memcpy(bl.fp[bl.n], s, n);
	bl.fp[bl.n][n] = '\0';
	bl.n++;
	return (0);
}

/* Skip blanks. */
static void
ws(struct jp *j)
{
	while (j->p < j->e && (*j->p == ' ' || *j->p == '\t' ||
	    *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

/* Fail with why (the first one counts). */
static int
fail(struct jp *j, const char *why)
{
	if (j->why == NULL)
		j->why = why;
	return (-1);
}

/* Parse a string into out (size bytes, cut), its length in *n. */
static int
str(struct jp *j, char *out, size_t size, size_t *n)
{
	size_t	k = 0;
	int	i;
	char	c;

	if (j->p >= j->e || *j->p != '"')
		return (fail(j, "a string expected"));
	j->p++;
	while (j->p < j->e && *j->p != '"') {
		c = *j->p++;
		if ((unsigned char)c < 0x20)
			return (fail(j, "a control byte in a string"));
		if (c == '\\') {
			if (j->p >= j->e)
				break;
			c = *j->p++;
			if (c == 'u') {
				for (i = 0; i < 4; i++)
					if (j->p >= j->e || strchr(
					    "0123456789abcdefABCDEF",
					    *j->p++) == NULL ||
					    j->p[-1] == '\0')
						return (fail(j, "a bad \\u"));
				c = '?';
			} else if (strchr("\"\\/bfnrt", c) == NULL || c == '\0')
				return (fail(j, "a bad escape"));
		}
		if (out != NULL && k + 1 < size)
			out[k] = c;
		k++;
	}
	if (j->p >= j->e)
		return (fail(j, "an unterminated string"));
	j->p++;
	if (out != NULL)
		out[k < size ? k : size - 1] = '\0';
	*n = k;
	return (0);
}

static int	value(struct jp *);

/* Is the key path runs[].results[].partialFingerprints.SARIF_KEY? */
static int
sarif_fp(const struct jp *j)
{
	return (j->depth == 6 && strcmp(j->key[1], "runs") == 0 &&
	    strcmp(j->key[3], "results") == 0 &&
	    strcmp(j->key[5], "partialFingerprints") == 0 &&
	    strcmp(j->key[6], SARIF_KEY) == 0);
}

/* Parse a string value at the current key path. */
static int
str_value(struct jp *j)
{
	char	b[64];
	size_t	n;

	if (str(j, b, sizeof(b), &n) == -1)
		return (-1);
	if (j->depth == 1 && strcmp(j->key[1], "type") == 0) {
		n = n < sizeof(j->type) - 1 ? n : sizeof(j->type) - 1;
		memcpy(j->type, b, n);
		j->type[n] = '\0';
	}
	if (j->depth == 1 && strcmp(j->key[1], "fingerprint") == 0) {
		if (n != KL_FP_LEN)
			return (fail(j, "a fingerprint that is not 16 hex "
			    "digits"));
		memcpy(j->fp, b, n + 1);
		j->have_fp = 1;
	}
	if (j->depth == 1 && strcmp(j->key[1], "version") == 0 &&
	    strcmp(b, "2.1.0") == 0)
		j->sarif_version = 1;
	if (sarif_fp(j) && add_fp(b, n) == -1)
		return (fail(j, "a fingerprint that is not 16 hex digits"));
	return (0);
}

/* Parse an object or an array. */
static int
compound(struct jp *j)
{
	char	open = *j->p, close = open == '{' ? '}' : ']';
	size_t	n;

	if (++j->depth >= DEPTH_MAX)
		return (fail(j, "nested too deep"));
	j->p++;
	ws(j);
	if (j->p < j->e && *j->p == close) {
		j->p++;
		j->depth--;
		return (0);
	}
	for (;;) {
		ws(j);
		if (open == '{') {
			if (str(j, j->key[j->depth], KEY_MAX, &n) == -1)
				return (-1);
			if (j->depth == 1 && strcmp(j->key[1], "runs") == 0)
				j->runs = 1;
			if (j->depth == 1 &&
			    strcmp(j->key[1], "templates") == 0)
				j->templates = 1;
			ws(j);
			if (j->p >= j->e || *j->p != ':')
				return (fail(j, "':' expected"));
			j->p++;
		} else
			j->key[j->depth][0] = '\0';
		if (value(j) == -1)
			return (-1);
		ws(j);
		if (j->p < j->e && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->e && *j->p == close) {
			j->p++;
			j->depth--;
			return (0);
		}
		return (fail(j, open == '{' ? "',' or '}' expected" :
		    "',' or ']' expected"));
	}
}

/* Parse a literal or a number. */
static int
scalar(struct jp *j)
{
	static const char *const lit[] = { "true", "false", "null" };
	const char	*s = j->p;
	size_t		 i, n;

	for (i = 0; i < 3; i++) {
		n = strlen(lit[i]);
		if ((size_t)(j->e - j->p) >= n && memcmp(j->p, lit[i], n) ==
		    0) {
			j->p += n;
			return (0);
		}
	}
	if (j->p < j->e && *j->p == '-')
		j->p++;
	while (j->p < j->e && strchr("0123456789.eE+-", *j->p) != NULL &&
	    *j->p != '\0')
		j->p++;
	if (j->p == s || (j->p - s == 1 && *s == '-'))
		return (fail(j, "a value expected"));
	return (0);
}

/* Parse one value. */
static int
value(struct jp *j)
{
	size_t	n;

	ws(j);
	if (j->p >= j->e)
		return (fail(j, "a value expected"));
	if (*j->p == '{' || *j->p == '[')
		return (compound(j));
	if (*j->p == '"') {
		if (j->depth > 0)
			return (str_value(j));
		return (str(j, NULL, 0, &n));
	}
	return (scalar(j));
}

/* The line number of p in the buffer from b. */
static unsigned long
line_of(const char *b, const char *p)
{
	unsigned long	n = 1;

	for (; b < p; b++)
		if (*b == '\n')
			n++;
	return (n);
}

/* Read the whole file; exits 2 when it cannot. */
static char *
slurp(const char *path, size_t *np)
{
	struct stat	st;
	char		*b;
	size_t		n = 0, cap = 1 << 16;
	ssize_t		r;
	int		fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		log_fatal("%s: %s", path, strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
		log_fatal("%s: is a directory", path);
	b = xmalloc(cap);
	for (;;) {
		if (n == cap) {
			if (cap >= BASELINE_MAX)
				log_fatal("%s: larger than %u MiB", path,
				    BASELINE_MAX >> 20);
			cap *= 2;
			b = xreallocarray(b, cap, 1);
		}
		do
			r = read(fd, b + n, cap - n);
		while (r == -1 && errno == EINTR);
		if (r == -1)
			log_fatal("%s: %s", path, strerror(errno));
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*np = n;
	return (b);
}

/* qsort and bsearch order of fingerprints. */
static int
cmp_fp(const void *a, const void *b)
{
	return (strcmp(a, b));
}

/* Load --baseline FILE; exits 2 when it is not a report or SARIF log. */
void
baseline_load(const char *path)
{
	struct jp	*j;
	char		*b;
	size_t		 n;
	int		 values = 0, lines = 0, sarif = 0;

	b = slurp(path, &n);
	j = xmalloc(sizeof(*j));
	memset(j, 0, sizeof(*j));
	j->p = b;
	j->e = b + n;
	for (;;) {
		ws(j);
		if (j->p >= j->e)
			break;
		if (*j->p != '{')
			log_fatal("%s:%lu: not a --report --json output or a "
			    "SARIF log: a JSON object expected", path,
			    line_of(b, j->p));
		j->type[0] = '\0';
		j->have_fp = 0;
		j->templates = 0;
		j->depth = 0;
		if (value(j) == -1)
			log_fatal("%s:%lu: malformed JSON: %s", path,
			    line_of(b, j->p), j->why);
		values++;
		if (strcmp(j->type, "template") == 0) {
			if (!j->have_fp || add_fp(j->fp, strlen(j->fp)) == -1)
				log_fatal("%s:%lu: a template event without "
				    "its fingerprint", path, line_of(b, j->p));
			lines++;
		} else if (strcmp(j->type, "summary") == 0) {
			/* A plain --json run has a summary too: not this. */
			if (!j->templates)
				log_fatal("%s:%lu: a summary without "
				    "\"templates\": not a --report --json "
				    "output", path, line_of(b, j->p));
			lines++;
		}
		if (j->sarif_version && j->runs)
			sarif = 1;
	}
	if (!(sarif && values == 1) && lines == 0)
		log_fatal("%s: not a --report --json output (no template or "
		    "summary event) or a SARIF 2.1.0 log", path);
	free(j);
	free(b);
	qsort(bl.fp, bl.n, sizeof(*bl.fp), cmp_fp);
}

/* Is the fingerprint in the baseline? */
int
baseline_has(const char *fp)
{
	char	key[KL_FP_LEN + 1];

	if (bl.n == 0 || strlen(fp) != KL_FP_LEN)
		return (0);
	memcpy(key, fp, sizeof(key));
	return (bsearch(key, bl.fp, bl.n, sizeof(*bl.fp), cmp_fp) != NULL);
}
