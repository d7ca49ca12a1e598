/*
 * leaks-parse.c - the data file of the known leak sources
 * (data/leak-sources): its stanzas read and checked, and each entry's
 * pattern compiled once (JIT when allowed) into struct lentry, for the
 * key index and matcher of leaks.c.
 */
#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8

#include <pcre2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "leaks-int.h"

/* A stanza being read. */
struct stanza {
	uint64_t	 line;		/* of its first key */
	char		*val[9];	/* by key index, NULL when absent */
	uint64_t	 vline[9];
	int		 last;		/* key of the line before, -1 */
};

static const char *const keyname[] = {
	"id", "arch", "class", "discloses", "fixed", "key", "pattern",
	"explain", NULL
};
enum { K_ID, K_ARCH, K_CLASS, K_DISCLOSES, K_FIXED, K_KEY, K_PATTERN,
	K_EXPLAIN, K_COUNT };

static const char *const famname[] = {
	NULL, "x86", "arm64", "arm", "ppc", "riscv", "mips", "loongarch",
	"s390", "sparc"
};
static const char *const discname[] = {
	"text", "modules", "direct-map", "vmalloc", "vmemmap", "physical",
	"layout"
};


/*
 * The bytes a message that le's pattern matches can start with, in
 * le->fb.  A pattern PCRE2 finds anchored and that starts with '^'
 * matches at offset 0 only: its first byte is the first byte of the
 * same pattern without the '^', which PCRE2 knows (the code unit every
 * match starts with, or its start bitmap, both what it uses itself to
 * skip starting offsets).  Anything else may start with any byte.
 */
static void
first_bytes(struct lentry *le)
{
	const uint8_t *bm;
	pcre2_code *re;
	uint32_t opts = 0, type = 0, cu = 0;
	PCRE2_SIZE erroff;
	int rc, c;

	memset(le->fb, 0xff, sizeof(le->fb));
	if (pcre2_pattern_info(le->re, PCRE2_INFO_ALLOPTIONS, &opts) != 0 ||
	    (opts & PCRE2_ANCHORED) == 0 || le->pub.pattern[0] != '^')
		return;
	if ((re = pcre2_compile((PCRE2_SPTR)le->pub.pattern + 1,
	    PCRE2_ZERO_TERMINATED, PCRE2_NEVER_UTF | PCRE2_NEVER_UCP, &rc,
	    &erroff, NULL)) == NULL)
		return;
	if (pcre2_pattern_info(re, PCRE2_INFO_FIRSTCODETYPE, &type) == 0 &&
	    type == 1 &&
	    pcre2_pattern_info(re, PCRE2_INFO_FIRSTCODEUNIT, &cu) == 0 &&
	    cu < 256) {
		/* Either case: the caseless flag is not reported. */
		memset(le->fb, 0, sizeof(le->fb));
		le->fb[cu >> 6] |= (uint64_t)1 << (cu & 63);
		if (cu < 128 && ((cu | 0x20) >= 'a' && (cu | 0x20) <= 'z')) {
			cu ^= 0x20;
			le->fb[cu >> 6] |= (uint64_t)1 << (cu & 63);
		}
	} else if (type == 0 && pcre2_pattern_info(re,
	    PCRE2_INFO_FIRSTBITMAP, &bm) == 0 && bm != NULL) {
		memset(le->fb, 0, sizeof(le->fb));
		for (c = 0; c < 256; c++)
			if (bm[c / 8] & (1u << (c % 8)))
				le->fb[c >> 6] |= (uint64_t)1 << (c & 63);
	}
	pcre2_code_free(re);
}

/* Set err to "name:line: message". */
void
kl_leaks_seterr(struct kl_error *err, const char *name, uint64_t line,
    const char *fmt, ...)
{
	char what[200];
	va_list ap;

	if (err == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	kl_error_clear(err);
	if (line > 0)
		kl_error_set(err, KL_EFORMAT, 0, "%s:%llu: %s", name,
		    (unsigned long long)line, what);
	else
		kl_error_set(err, KL_EFORMAT, 0, "%s: %s", name, what);
	err->line = line;
}

/* Set err to out of memory. */
void
kl_leaks_nomem(struct kl_error *err)
{
	kl_error_clear(err);
	kl_error_set(err, KL_ENOMEM, 0, "out of memory");
}

/* A NUL-terminated copy of b[0..n). */
static char *
dupb(const uint8_t *b, size_t n)
{
	char *s;

	if ((s = malloc(n + 1)) == NULL)
		return (NULL);
	if (n > 0)
		memcpy(s, b, n);
	s[n] = '\0';
	return (s);
}

/* Is c a blank (space or tab)? */
static int
blank(uint8_t c)
{
	return (c == ' ' || c == '\t');
}

/* Free the strings of a stanza and empty it. */
static void
stanza_clear(struct stanza *st)
{
	size_t i;

	for (i = 0; i < K_COUNT; i++) {
		free(st->val[i]);
		st->val[i] = NULL;
		st->vline[i] = 0;
	}
	st->line = 0;
	st->last = -1;
}

/* Look a word up in a table of names; -1 when absent. */
static int
lookup(const char *const *tab, size_t n, const char *w, size_t wl)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tab[i] != NULL && strlen(tab[i]) == wl &&
		    memcmp(tab[i], w, wl) == 0)
			return ((int)i);
	return (-1);
}

/*
 * Parse a space-separated list of names into a bit set; "any" (alone)
 * gives all bits of all.  Returns -1 with the bad word in *bad.
 */
static int
parse_set(const char *s, const char *const *tab, size_t n, unsigned all,
    unsigned *out, const char **bad, size_t *badlen)
{
	const char *w;
	size_t wl;
	unsigned set = 0;
	int i, words = 0, any = 0;

	for (;;) {
		while (blank((uint8_t)*s))
			s++;
		if (*s == '\0')
			break;
		w = s;
		while (*s != '\0' && !blank((uint8_t)*s))
			s++;
		wl = (size_t)(s - w);
		words++;
		if (all != 0 && wl == 3 && memcmp(w, "any", 3) == 0) {
			any = 1;
			continue;
		}
		if ((i = lookup(tab, n, w, wl)) < 0) {
			*bad = w;
			*badlen = wl;
			return (-1);
		}
		set |= 1u << i;
	}
	if (any && words > 1) {
		*bad = "any";
		*badlen = 3;
		return (-1);
	}
	*out = any ? all : set;
	return (0);
}

/* Read a group name's size suffix. */
static enum vkind
name_kind(const char *s, size_t *stem)
{
	size_t n = strlen(s);

	*stem = n;
	if (n > 3 && strcmp(s + n - 3, "_kb") == 0) {
		*stem = n - 3;
		return (VK_KB);
	}
	if (n > 3 && strcmp(s + n - 3, "_mb") == 0) {
		*stem = n - 3;
		return (VK_MB);
	}
	if (n > 4 && strcmp(s + n - 4, "_dec") == 0) {
		*stem = n - 4;
		return (VK_DEC);
	}
	return (VK_HEX);
}

/* Compile an entry's pattern and list its named groups. */
static int
compile(struct kl_leakdb *db, struct lentry *le, const char *name,
    uint64_t pline, struct kl_error *err)
{
	PCRE2_UCHAR msg[128];
	PCRE2_SIZE erroff;
	PCRE2_SPTR tab, p;
	uint32_t count, esize, cap;
	size_t i, j, stem;
	int rc;

	le->re = pcre2_compile((PCRE2_SPTR)le->pub.pattern,
	    PCRE2_ZERO_TERMINATED, PCRE2_NEVER_UTF | PCRE2_NEVER_UCP, &rc,
	    &erroff, NULL);
	if (le->re == NULL) {
		pcre2_get_error_message(rc, msg, sizeof(msg));
		kl_leaks_seterr(err, name, pline,
		    "pattern of '%s': %s at offset %zu",
		    le->pub.id, (char *)msg, (size_t)erroff);
		return (-1);
	}
	(void)pcre2_pattern_info(le->re, PCRE2_INFO_NAMECOUNT, &count);
	(void)pcre2_pattern_info(le->re, PCRE2_INFO_NAMEENTRYSIZE, &esize);
	(void)pcre2_pattern_info(le->re, PCRE2_INFO_NAMETABLE, &tab);
	(void)pcre2_pattern_info(le->re, PCRE2_INFO_CAPTURECOUNT, &cap);
	if (count > KL_LEAK_VALUES_MAX) {
		kl_leaks_seterr(err, name, pline,
		    "pattern of '%s': more than %d "
		    "named groups", le->pub.id, KL_LEAK_VALUES_MAX);
		return (-1);
	}
	for (i = 0; i < count; i++) {
		p = tab + (size_t)i * esize;
		le->g[i].num = (p[0] << 8) | p[1];
		le->g[i].kind = name_kind((const char *)p + 2, &stem);
		if ((le->g[i].name = dupb(p + 2, stem)) == NULL) {
			kl_leaks_nomem(err);
			return (-1);
		}
		le->ngroups = i + 1;
		/* insertion sort by group number: pattern order */
		for (j = i; j > 0 && le->g[j - 1].num > le->g[j].num; j--) {
			struct group t = le->g[j];

			le->g[j] = le->g[j - 1];
			le->g[j - 1] = t;
		}
	}
	if (cap > db->maxcap)
		db->maxcap = cap;
	/* JIT may be refused (no executable memory): interpret then. */
	le->jit = getenv("KLEAKSCAN_NO_JIT") == NULL &&
	    pcre2_jit_compile(le->re, PCRE2_JIT_COMPLETE) == 0;
	first_bytes(le);
	return (0);
}

/* Check one value of a stanza; k is its key. */
static int
check_value(struct stanza *st, int k, struct lentry *le, const char *name,
    struct kl_error *err)
{
	const char *v = st->val[k], *bad = NULL;
	size_t badlen = 0;
	unsigned set;
	int i;

	switch (k) {
	case K_ID:
		for (i = 0; v[i] != '\0'; i++)
			if (!((v[i] >= 'a' && v[i] <= 'z') ||
			    (v[i] >= '0' && v[i] <= '9') || v[i] == '-'))
				break;
		if (v[i] != '\0' || i == 0 || i > 64) {
			kl_leaks_seterr(err, name, st->vline[k], "bad id '%s'",
			    v);
			return (-1);
		}
		le->pub.id = v;
		break;
	case K_ARCH:
		if (parse_set(v, famname, sizeof(famname) / sizeof(famname[0]),
		    (1u << (sizeof(famname) / sizeof(famname[0]))) - 1,
		    &set, &bad, &badlen) == -1 || set == 0) {
			kl_leaks_seterr(err, name, st->vline[k],
			    "unknown arch '%.*s'",
			    (int)badlen, bad == NULL ? "" : bad);
			return (-1);
		}
		le->pub.families = set;
		break;
	case K_DISCLOSES:
		if (parse_set(v, discname, sizeof(discname) /
		    sizeof(discname[0]), 0, &set, &bad, &badlen) == -1 ||
		    set == 0) {
			kl_leaks_seterr(err, name, st->vline[k],
			    "unknown disclosure '%.*s'", (int)badlen,
			    bad == NULL ? "" : bad);
			return (-1);
		}
		le->pub.discloses = set;
		break;
	case K_CLASS:
		if (strcmp(v, "virtual") == 0)
			le->pub.class = KL_LCLASS_VIRTUAL;
		else if (strcmp(v, "physical") == 0)
			le->pub.class = KL_LCLASS_PHYSICAL;
		else if (strcmp(v, "layout") == 0)
			le->pub.class = KL_LCLASS_LAYOUT;
		else {
			kl_leaks_seterr(err, name, st->vline[k],
			    "unknown class '%s'",
			    v);
			return (-1);
		}
		break;
	case K_FIXED:
		if (strcmp(v, "-") == 0) {
			free(st->val[k]);
			st->val[k] = NULL;
			v = NULL;
		}
		le->pub.fixed = v;
		break;
	case K_KEY:
		if (strlen(v) < 2) {
			kl_leaks_seterr(err, name, st->vline[k],
			    "key '%s' is shorter than 2 bytes", v);
			return (-1);
		}
		le->pub.key = v;
		break;
	case K_PATTERN:
		le->pub.pattern = v;
		break;
	case K_EXPLAIN:
		le->pub.explain = v;
		break;
	}
	return (0);
}

/* Turn a complete stanza into the next entry. */
static int
stanza_end(struct kl_leakdb *db, struct stanza *st, const char *name,
    struct kl_error *err)
{
	struct lentry *le;
	size_t i;
	int k;

	if (st->line == 0)
		return (0);
	if (st->val[K_ID] == NULL) {
		kl_leaks_seterr(err, name, st->line, "entry without 'id'");
		return (-1);
	}
	for (k = 0; k < K_COUNT; k++)
		if (st->val[k] == NULL) {
			kl_leaks_seterr(err, name, st->line,
			    "entry '%s' has no '%s'",
			    st->val[K_ID], keyname[k]);
			return (-1);
		}
	for (i = 0; i < db->n; i++)
		if (strcmp(db->e[i].pub.id, st->val[K_ID]) == 0) {
			kl_leaks_seterr(err, name, st->vline[K_ID],
			    "duplicate id '%s' (line %llu)", st->val[K_ID],
			    (unsigned long long)db->e[i].pub.line);
			return (-1);
		}
	if (db->n == LEAKDB_MAX) {
		kl_leaks_seterr(err, name, st->line, "more than %d entries",
		    LEAKDB_MAX);
		return (-1);
	}
	le = &db->e[db->n];
	memset(le, 0, sizeof(*le));
	le->pub.line = st->vline[K_ID];
	for (k = 0; k < K_COUNT; k++)
		if (check_value(st, k, le, name, err) == -1)
			return (-1);
	/* the entry owns its strings from here; the parsed ones go */
	db->n++;
	for (k = 0; k < K_COUNT; k++) {
		if (k == K_ARCH || k == K_CLASS || k == K_DISCLOSES)
			free(st->val[k]);
		st->val[k] = NULL;
	}
	if (compile(db, le, name, st->vline[K_PATTERN], err) == -1)
		return (-1);
	stanza_clear(st);
	return (0);
}

/* Append b[0..n) to a stanza value, joined by sep (0: none). */
static int
append(char **v, const uint8_t *b, size_t n, char sep)
{
	size_t ol = strlen(*v), nl;
	char *s;

	if (kl_add(ol, n + 2, &nl) == -1 || (s = realloc(*v, nl)) == NULL)
		return (-1);
	if (sep != '\0')
		s[ol++] = sep;
	memcpy(s + ol, b, n);
	s[ol + n] = '\0';
	*v = s;
	return (0);
}

/* Read one non-blank, non-comment line into the stanza. */
static int
parse_line(struct stanza *st, const uint8_t *b, size_t n, uint64_t line,
    const char *name, struct kl_error *err)
{
	size_t i, kl;
	int k;

	if (blank(b[0])) {
		/* a continuation of the value above */
		if (st->last < 0) {
			kl_leaks_seterr(err, name, line,
			    "continuation line without "
			    "a key above");
			return (-1);
		}
		while (n > 0 && blank(b[0])) {
			b++;
			n--;
		}
		while (n > 0 && blank(b[n - 1]))
			n--;
		if (append(&st->val[st->last], b, n,
		    st->last == K_PATTERN || st->last == K_KEY ? '\0' :
		    ' ') == -1) {
			kl_leaks_nomem(err);
			return (-1);
		}
		return (0);
	}
	for (i = 0; i < n && b[i] != ':'; i++)
		;
	kl = i;
	if (i == n) {
		kl_leaks_seterr(err, name, line, "expected 'key: value'");
		return (-1);
	}
	if ((k = lookup(keyname, K_COUNT, (const char *)b, kl)) < 0) {
		kl_leaks_seterr(err, name, line, "unknown key '%.*s'",
		    (int)(kl > 32 ? 32 : kl), (const char *)b);
		return (-1);
	}
	if (st->val[k] != NULL) {
		kl_leaks_seterr(err, name, line,
		    "duplicate key '%s' (line %llu)",
		    keyname[k], (unsigned long long)st->vline[k]);
		return (-1);
	}
	b += kl + 1;
	n -= kl + 1;
	while (n > 0 && blank(b[0])) {
		b++;
		n--;
	}
	while (n > 0 && blank(b[n - 1]))
		n--;
	/* a quoted key keeps its blanks */
	if (k == K_KEY && n >= 2 && b[0] == '"' && b[n - 1] == '"') {
		b++;
		n -= 2;
	}
	if (n == 0) {
		kl_leaks_seterr(err, name, line, "empty value of '%s'",
		    keyname[k]);
		return (-1);
	}
	if ((st->val[k] = dupb(b, n)) == NULL) {
		kl_leaks_nomem(err);
		return (-1);
	}
	st->vline[k] = line;
	if (st->line == 0)
		st->line = line;
	st->last = k;
	return (0);
}

/* Parse the whole file into db->e. */
int
kl_leaks_parse(struct kl_leakdb *db, const uint8_t *buf, size_t len,
    const char *name, struct kl_error *err)
{
	struct stanza st;
	const uint8_t *b, *nl, *next;
	size_t n, rest = len;
	uint64_t line = 0;
	int rc = 0;

	memset(&st, 0, sizeof(st));
	st.last = -1;
	for (b = buf; rest > 0 && rc == 0; b = next) {
		line++;
		nl = memchr(b, '\n', rest);
		n = nl == NULL ? rest : (size_t)(nl - b);
		next = nl == NULL ? b + n : nl + 1;
		rest -= (size_t)(next - b);
		if (n > 0 && b[n - 1] == '\r')
			n--;
		if (n > KL_LEAKDB_LINE_MAX) {
			kl_leaks_seterr(err, name, line,
			    "line longer than %d bytes",
			    KL_LEAKDB_LINE_MAX);
			rc = -1;
		} else if (memchr(b, '\0', n) != NULL) {
			kl_leaks_seterr(err, name, line, "NUL byte");
			rc = -1;
		} else if (n > 0 && b[0] == '#') {
			/* a comment does not end a stanza */
		} else {
			size_t i;

			for (i = 0; i < n && blank(b[i]); i++)
				;
			if (i == n)
				rc = stanza_end(db, &st, name, err);
			else
				rc = parse_line(&st, b, n, line, name, err);
		}
	}
	if (rc == 0)
		rc = stanza_end(db, &st, name, err);
	stanza_clear(&st);
	if (rc == 0 && db->n == 0) {
		kl_leaks_seterr(err, name, 0, "no entries");
		rc = -1;
	}
	return (rc);
}
