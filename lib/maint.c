/*
 * maint.c - who receives a patch to a file: a kernel tree's MAINTAINERS
 * and .mailmap read as the tree's scripts/get_maintainer.pl reads them
 * by default (--no-git: no history), in C.
 *
 * MAINTAINERS is a list of sections: a title line, then "T:\tvalue"
 * lines.  As get_maintainer.pl does:
 *   - F: and X: values become regular expressions ('.' is "\.", '*' is
 *     ".*", '?' is '.'), and one naming a directory of the tree gains a
 *     trailing '/'; a value ending in '/' matches every path under it,
 *     another one the paths of as many '/' that it matches from the
 *     start;
 *   - a section one of whose X: patterns matches the file is skipped;
 *     else each F: that matches sets the section's depth (the slashes
 *     of the pattern, one more without a trailing '/', -1 for "*"; the
 *     last match wins), an N: regex that matches the path sets it to 0;
 *   - the sections are taken deepest first (get_maintainer.pl leaves
 *     equal depths in hash order; here, in file order), then the K:
 *     sections whose regex matches the file's text (in the order of
 *     their line numbers as strings, as its sort does);
 *   - of each section, M: and R: addresses go to the people, L: lists
 *     (not subscribers-only ones) to the lists, each once (by name or
 *     address, case folded); .mailmap rewrites names and addresses;
 *     Linus Torvalds (its "chief penguin") is dropped.
 * The regular expressions are Perl's, compiled with PCRE2 (the K: and
 * N: ones extended, as /x).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "kleak.h"
#include "kleak-int.h"

#define MT_LINE_MAX	4096	/* bytes of a MAINTAINERS line kept */
#define MT_OVEC		8	/* captures of the fixed patterns */
#define PENGUIN		"Linus Torvalds <torvalds@linux-foundation.org>"

/* One line of MAINTAINERS as get_maintainer.pl keeps it. */
struct tv {
	char		 type;		/* 'F', 'M' ..., 0: a title */
	char		*val;		/* converted for F: and X: */
	pcre2_code	*re;		/* compiled when first used */
	int		 bad;		/* it would not compile */
};

/* A .mailmap entry: key (an address, or "name <address>") to value. */
struct mmap {
	char		*key;
	char		*name;		/* or NULL */
	char		*addr;		/* or NULL */
};

/* The fixed patterns of get_maintainer.pl this file needs. */
enum { RX_TAG, RX_E1, RX_E2, RX_E3, RX_QUOTE, RX_MM1, RX_MM2, RX_MM3,
    RX_MM4, RX_COUNT };
static const char *const rx_src[RX_COUNT] = {
	"^([A-Z]):\\s*(.*)",			/* a tag line */
	"^([^<]+)<(.+\\@.*)>.*$",		/* parse_email */
	"^\\s*<(.+\\@\\S*)>.*$",
	"^(.+\\@\\S*).*$",
	"[^\\w \\-]",				/* a name to quote */
	"^([^<]+)<([^>]+)>$",			/* read_mailmap */
	"^<([^>]+)>\\s*<([^>]+)>$",
	"^(.+)<([^>]+)>\\s*<([^>]+)>$",
	"^(.+)<([^>]+)>\\s*(.+)\\s*<([^>]+)>$",
};

struct kl_maint {
	struct tv		*tv;
	size_t			 ntv;
	struct mmap		*mm;
	size_t			 nmm;
	pcre2_code		*rx[RX_COUNT];
	pcre2_match_data	*md;
};

/* A growable list of strings, each once (case folded if fold). */
struct slist {
	char		**v;
	size_t		  n;
	size_t		  cap;
};

/* A copy of s[0..n); NULL when out of memory. */
static char *
dupn(const char *s, size_t n)
{
	char *p;

	if ((p = malloc(n + 1)) == NULL)
		return (NULL);
	memcpy(p, s, n);
	p[n] = '\0';
	return (p);
}

/* Match re against s; the captures in m->md.  1, 0 or -1 (error). */
static int
rx(struct kl_maint *m, pcre2_code *re, const char *s)
{
	int rc;

	rc = pcre2_match(re, (PCRE2_SPTR)s, strlen(s), 0, 0, m->md, NULL);
	return (rc >= 0 ? 1 : rc == PCRE2_ERROR_NOMATCH ? 0 : -1);
}

/* Capture i of the last match of s, a new string ("" when unset). */
static char *
cap(struct kl_maint *m, const char *s, int i)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(m->md);

	if (ov[2 * i] == PCRE2_UNSET)
		return (dupn("", 0));
	return (dupn(s + ov[2 * i], ov[2 * i + 1] - ov[2 * i]));
}

/* Trim blanks at both ends of s, in place (Perl's s/^\s+|\s+$//g). */
static void
trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
	    s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == '\f' ||
	    s[n - 1] == '\v'))
		n--;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
	    s[i] == '\r' || s[i] == '\f' || s[i] == '\v'))
		i++;
	memmove(s, s + i, n - i);
	s[n - i] = '\0';
}

/*
 * A name as format_email() and parse_email() leave it: trimmed, one
 * quote dropped at each end, quoted again (inner quotes escaped) when
 * it has a byte that is not a word byte, a blank or '-'.  A new string.
 */
static char *
name_norm(struct kl_maint *m, const char *in)
{
	char *s, *q;
	size_t n, i, k;

	if ((s = dupn(in, strlen(in))) == NULL)
		return (NULL);
	trim(s);
	n = strlen(s);
	if (n > 0 && s[0] == '"')
		memmove(s, s + 1, n--);
	if (n > 0 && s[n - 1] == '"')
		s[--n] = '\0';
	if (rx(m, m->rx[RX_QUOTE], s) != 1)
		return (s);
	if ((q = malloc(2 * n + 3)) == NULL) {
		free(s);
		return (NULL);
	}
	k = 0;
	q[k++] = '"';
	for (i = 0; i < n; i++) {
		if (s[i] == '"' && (i == 0 || s[i - 1] != '\\'))
			q[k++] = '\\';
		q[k++] = s[i];
	}
	q[k++] = '"';
	q[k] = '\0';
	free(s);
	return (q);
}

/* format_email(name, address, 1): "name <address>", or the address. */
static char *
fmt_email(struct kl_maint *m, const char *name, const char *addr)
{
	char *n, *a, *out;
	size_t len;

	if ((n = name_norm(m, name)) == NULL)
		return (NULL);
	if ((a = dupn(addr, strlen(addr))) == NULL) {
		free(n);
		return (NULL);
	}
	trim(a);
	len = strlen(n) + strlen(a) + 4;
	if ((out = malloc(len)) != NULL) {
		if (n[0] == '\0')
			memcpy(out, a, strlen(a) + 1);
		else {
			memcpy(out, n, strlen(n));
			memcpy(out + strlen(n), " <", 2);
			memcpy(out + strlen(n) + 2, a, strlen(a));
			memcpy(out + strlen(n) + 2 + strlen(a), ">", 2);
		}
	}
	free(n);
	free(a);
	return (out);
}

/* parse_email(): the name and the address of s (new strings). */
static int
parse_email(struct kl_maint *m, const char *s, char **name, char **addr)
{
	char *n = NULL, *a = NULL, *t;

	if (rx(m, m->rx[RX_E1], s) == 1) {
		n = cap(m, s, 1);
		a = cap(m, s, 2);
	} else if (rx(m, m->rx[RX_E2], s) == 1)
		a = cap(m, s, 1);
	else if (rx(m, m->rx[RX_E3], s) == 1)
		a = cap(m, s, 1);
	if (n == NULL)
		n = dupn("", 0);
	if (a == NULL)
		a = dupn("", 0);
	if (n == NULL || a == NULL || (t = name_norm(m, n)) == NULL) {
		free(n);
		free(a);
		return (-1);
	}
	free(n);
	trim(a);
	*name = t;
	*addr = a;
	return (0);
}

/* The last .mailmap value of key, or NULL (its name or its address). */
static const struct mmap *
mm_find(const struct kl_maint *m, const char *key, int want_name)
{
	size_t i;

	for (i = m->nmm; i-- > 0;)
		if (strcmp(m->mm[i].key, key) == 0 &&
		    (want_name ? m->mm[i].name : m->mm[i].addr) != NULL)
			return (&m->mm[i]);
	return (NULL);
}

/* mailmap_email(): s with .mailmap's name and address; a new string. */
static char *
mailmap_email(struct kl_maint *m, const char *s)
{
	const struct mmap *en, *ea;
	char *name, *addr, *email, *out;

	if (parse_email(m, s, &name, &addr) != 0)
		return (NULL);
	if ((email = fmt_email(m, name, addr)) == NULL) {
		free(name);
		free(addr);
		return (NULL);
	}
	en = mm_find(m, email, 1);
	ea = mm_find(m, email, 0);
	if (en == NULL && ea == NULL) {
		en = mm_find(m, addr, 1);
		ea = mm_find(m, addr, 0);
	}
	out = fmt_email(m, en != NULL ? en->name : name,
	    ea != NULL ? ea->addr : addr);
	free(email);
	free(name);
	free(addr);
	return (out);
}

/* Add a .mailmap entry; -1 when out of memory. */
static int
mm_add(struct kl_maint *m, char *key, const char *name, const char *addr)
{
	struct mmap *nm;

	if (key == NULL)
		return (-1);
	if ((nm = realloc(m->mm, (m->nmm + 1) * sizeof(*nm))) == NULL) {
		free(key);
		return (-1);
	}
	m->mm = nm;
	nm = &m->mm[m->nmm];
	nm->key = key;
	nm->name = name != NULL ? dupn(name, strlen(name)) : NULL;
	nm->addr = addr != NULL ? dupn(addr, strlen(addr)) : NULL;
	m->nmm++;
	if ((name != NULL && nm->name == NULL) ||
	    (addr != NULL && nm->addr == NULL))
		return (-1);
	return (0);
}

/*
 * A "real name <address>" of a .mailmap line, parsed as read_mailmap()
 * does: the name's trailing blanks cut, then parse_email().
 */
static int
mm_real(struct kl_maint *m, char *rname, const char *raddr, char **name,
    char **addr)
{
	char *t;
	size_t n = strlen(rname);
	int rc;

	while (n > 0 && (rname[n - 1] == ' ' || rname[n - 1] == '\t'))
		rname[--n] = '\0';
	if ((t = malloc(n + strlen(raddr) + 4)) == NULL)
		return (-1);
	memcpy(t, rname, n);
	memcpy(t + n, " <", 2);
	memcpy(t + n + 2, raddr, strlen(raddr));
	memcpy(t + n + 2 + strlen(raddr), ">", 2);
	rc = parse_email(m, t, name, addr);
	free(t);
	return (rc);
}

/* Read one .mailmap line (comment and blanks stripped); -1: no memory. */
static int
mm_line(struct kl_maint *m, char *l)
{
	char *c[5] = { NULL }, *rn = NULL, *ra = NULL, *wn = NULL,
	    *wa = NULL;
	int i, rc = 0;

	if (rx(m, m->rx[RX_MM1], l) == 1) {
		c[1] = cap(m, l, 1);
		c[2] = cap(m, l, 2);
		if (c[1] == NULL || c[2] == NULL ||
		    mm_real(m, c[1], c[2], &rn, &ra) != 0)
			rc = -1;
		else
			rc = mm_add(m, dupn(ra, strlen(ra)), rn, NULL);
	} else if (rx(m, m->rx[RX_MM2], l) == 1) {
		c[1] = cap(m, l, 1);
		c[2] = cap(m, l, 2);
		rc = c[1] == NULL || c[2] == NULL ? -1 :
		    mm_add(m, dupn(c[2], strlen(c[2])), NULL, c[1]);
	} else if (rx(m, m->rx[RX_MM3], l) == 1) {
		for (i = 1; i <= 3; i++)
			c[i] = cap(m, l, i);
		if (c[1] == NULL || c[2] == NULL || c[3] == NULL ||
		    mm_real(m, c[1], c[2], &rn, &ra) != 0)
			rc = -1;
		else
			rc = mm_add(m, dupn(c[3], strlen(c[3])), rn, ra);
	} else if (rx(m, m->rx[RX_MM4], l) == 1) {
		for (i = 1; i <= 4; i++)
			c[i] = cap(m, l, i);
		if (c[1] == NULL || c[2] == NULL || c[3] == NULL ||
		    c[4] == NULL || mm_real(m, c[1], c[2], &rn, &ra) != 0 ||
		    mm_real(m, c[3], c[4], &wn, &wa) != 0)
			rc = -1;
		else
			rc = mm_add(m, fmt_email(m, wn, wa), rn, ra);
	}
	for (i = 0; i < 5; i++)
		free(c[i]);
	free(rn);
	free(ra);
	free(wn);
	free(wa);
	return (rc);
}

/* Read .mailmap; -1 when out of memory. */
static int
mm_read(struct kl_maint *m, const char *p, size_t len)
{
	const char *e = p + len, *nl;
	char *l, *h;

	for (; p < e; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
			nl = e;
		if ((l = dupn(p, (size_t)(nl - p))) == NULL)
			return (-1);
		if ((h = strchr(l, '#')) != NULL)
			*h = '\0';
		trim(l);
		if (l[0] != '\0' && memchr(p, '\0', (size_t)(nl - p)) ==
		    NULL && mm_line(m, l) != 0) {
			free(l);
			return (-1);
		}
		free(l);
	}
	return (0);
}

/* Convert an F: or X: value to its pattern, as read_maintainer_file(). */
static char *
convert_pattern(const char *v, int (*isdir)(void *, const char *),
    void *arg)
{
	char *out;
	size_t i, k = 0, n = strlen(v);

	if ((out = malloc(2 * n + 2)) == NULL)
		return (NULL);
	for (i = 0; i < n; i++) {
		if (v[i] == '.') {
			out[k++] = '\\';
			out[k++] = '.';
		} else if (v[i] == '*') {
			out[k++] = '.';
			out[k++] = '*';
		} else if (v[i] == '?')
			out[k++] = '.';
		else
			out[k++] = v[i];
	}
	out[k] = '\0';
	/* A directory of the tree (tested on the converted value). */
	if (k > 0 && out[k - 1] != '/' && isdir != NULL && isdir(arg, out)) {
		out[k++] = '/';
		out[k] = '\0';
	}
	return (out);
}

/* Read MAINTAINERS into m->tv; -1 when out of memory. */
static int
mt_read(struct kl_maint *m, const char *p, size_t len,
    int (*isdir)(void *, const char *), void *arg)
{
	const char *e = p + len, *nl;
	struct tv *ntv;
	char *l, *v;
	size_t n, room = 0;

	for (; p < e; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
			nl = e;
		n = (size_t)(nl - p);
		if (n > MT_LINE_MAX)
			n = MT_LINE_MAX;
		if ((l = dupn(p, n)) == NULL)
			return (-1);
		if (m->ntv == room) {
			room = room ? room * 2 : 4096;
			if ((ntv = realloc(m->tv, room * sizeof(*ntv))) ==
			    NULL) {
				free(l);
				return (-1);
			}
			m->tv = ntv;
		}
		memset(&m->tv[m->ntv], 0, sizeof(m->tv[m->ntv]));
		if (rx(m, m->rx[RX_TAG], l) == 1) {
			if ((v = cap(m, l, 2)) == NULL) {
				free(l);
				return (-1);
			}
			m->tv[m->ntv].type = l[0];
			if (l[0] == 'F' || l[0] == 'X') {
				m->tv[m->ntv].val = convert_pattern(v, isdir,
				    arg);
				free(v);
				if (m->tv[m->ntv].val == NULL) {
					free(l);
					return (-1);
				}
			} else
				m->tv[m->ntv].val = v;
			m->ntv++;
		} else {
			/* A title, unless blank or a comment. */
			v = l + strspn(l, " \t\r\f\v");
			if (*v != '\0' && *v != '#') {
				m->tv[m->ntv].val = l;
				l = NULL;
				m->ntv++;
			}
		}
		free(l);
	}
	return (0);
}

/* Free what m holds. */
void
kl_maint_free(struct kl_maint *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->ntv; i++) {
		free(m->tv[i].val);
		pcre2_code_free(m->tv[i].re);
	}
	free(m->tv);
	for (i = 0; i < m->nmm; i++) {
		free(m->mm[i].key);
		free(m->mm[i].name);
		free(m->mm[i].addr);
	}
	free(m->mm);
	for (i = 0; i < RX_COUNT; i++)
		pcre2_code_free(m->rx[i]);
	pcre2_match_data_free(m->md);
	free(m);
}

/*
 * Read a tree's MAINTAINERS (text, len) and .mailmap (NULL: none);
 * isdir(arg, path) says whether a path relative to the tree's top is
 * one of its directories.  NULL with err when out of memory.
 */
struct kl_maint *
kl_maint_new(const char *text, size_t len, const char *mailmap,
    size_t mlen, int (*isdir)(void *, const char *), void *arg,
    struct kl_error *err)
{
	struct kl_maint *m;
	PCRE2_SIZE off;
	int i, ec;

	if ((m = calloc(1, sizeof(*m))) == NULL)
		goto nomem;
	for (i = 0; i < RX_COUNT; i++)
		if ((m->rx[i] = pcre2_compile((PCRE2_SPTR)rx_src[i],
		    PCRE2_ZERO_TERMINATED, i == RX_QUOTE ? PCRE2_CASELESS : 0,
		    &ec, &off, NULL)) == NULL)
			goto nomem;
	if ((m->md = pcre2_match_data_create(MT_OVEC, NULL)) == NULL ||
	    mt_read(m, text, len, isdir, arg) != 0 ||
	    (mailmap != NULL && mm_read(m, mailmap, mlen) != 0))
		goto nomem;
	return (m);
nomem:
	kl_maint_free(m);
	kl_error_set(err, KL_ENOMEM, errno, "out of memory");
	return (NULL);
}

/* The compiled pattern of line i (F and X anchored, N and K as /x). */
static pcre2_code *
line_re(struct tv *t)
{
	PCRE2_SIZE off;
	char *src;
	int ec;

	if (t->re != NULL || t->bad)
		return (t->re);
	if (t->type == 'F' || t->type == 'X') {
		if ((src = malloc(strlen(t->val) + 2)) == NULL)
			return (NULL);
		src[0] = '^';
		memcpy(src + 1, t->val, strlen(t->val) + 1);
		t->re = pcre2_compile((PCRE2_SPTR)src, PCRE2_ZERO_TERMINATED, 0,
		    &ec, &off, NULL);
		free(src);
	} else
		t->re = pcre2_compile((PCRE2_SPTR)t->val,
		    PCRE2_ZERO_TERMINATED, PCRE2_EXTENDED, &ec, &off, NULL);
	t->bad = t->re == NULL;
	return (t->re);
}

/* The number of '/' in s. */
static size_t
slashes(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += *s == '/';
	return (n);
}

/* file_match_pattern(): does F: or X: line t match file? */
static int
file_match(struct kl_maint *m, struct tv *t, const char *file)
{
	pcre2_code *re;
	size_t n = strlen(t->val);

	if ((re = line_re(t)) == NULL || rx(m, re, file) != 1)
		return (0);
	if (n > 0 && t->val[n - 1] == '/')
		return (1);
	return (slashes(file) == slashes(t->val));
}

/* A section found for the file: its first tag line and its depth. */
struct hit {
	size_t	 tvi;
	long	 depth;
};

/* Order hits deepest first, then as in the file. */
static int
hitcmp(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	if (x->depth != y->depth)
		return (x->depth > y->depth ? -1 : 1);
	return (x->tvi < y->tvi ? -1 : x->tvi > y->tvi);
}

/* Is line i a tag line? */
static int
is_tag(const struct kl_maint *m, size_t i)
{
	return (m->tv[i].type != 0);
}

/* find_starting_index() */
static size_t
sec_start(const struct kl_maint *m, size_t i)
{
	while (i > 0 && is_tag(m, i))
		i--;
	return (i);
}

/* find_ending_index() */
static size_t
sec_end(const struct kl_maint *m, size_t i)
{
	while (i < m->ntv && is_tag(m, i))
		i++;
	return (i);
}

/* The recipients being gathered. */
struct gather {
	struct kl_maint_list	*out;
	struct slist		 names;		/* lower-cased, in use */
	struct slist		 addrs;
	struct slist		 lists;		/* list addresses, lower */
	int			 oom;
};

/* Is s in the list? */
static int
sl_has(const struct slist *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return (1);
	return (0);
}

/* Add a lower-cased copy of s to the list. */
static void
sl_add(struct gather *g, struct slist *l, const char *s)
{
	char **nv, *c;
	size_t i;

	if (g->oom)
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		if ((nv = realloc(l->v, l->cap * sizeof(*nv))) == NULL) {
			g->oom = 1;
			return;
		}
		l->v = nv;
	}
	if ((c = dupn(s, strlen(s))) == NULL) {
		g->oom = 1;
		return;
	}
	for (i = 0; c[i] != '\0'; i++)
		if (c[i] >= 'A' && c[i] <= 'Z')
			c[i] = (char)(c[i] - 'A' + 'a');
	l->v[l->n++] = c;
}

/* A lower-cased copy of s, for a lookup; NULL: no memory. */
static char *
lower(const char *s)
{
	char *c;
	size_t i;

	if ((c = dupn(s, strlen(s))) == NULL)
		return (NULL);
	for (i = 0; c[i] != '\0'; i++)
		if (c[i] >= 'A' && c[i] <= 'Z')
			c[i] = (char)(c[i] - 'A' + 'a');
	return (c);
}

/* Add a recipient (s taken) to the output. */
static void
out_add(struct gather *g, char *s, enum kl_maint_role role)
{
	struct kl_maint_who *nw;
	struct kl_maint_list *o = g->out;

	if (s == NULL || g->oom) {
		free(s);
		g->oom = 1;
		return;
	}
	if ((nw = realloc(o->who, (o->n + 1) * sizeof(*nw))) == NULL) {
		free(s);
		g->oom = 1;
		return;
	}
	o->who = nw;
	o->who[o->n].addr = s;
	o->who[o->n].role = role;
	o->n++;
}

/* push_email_address(): a person, once by name or address. */
static void
push_person(struct kl_maint *m, struct gather *g, const char *line,
    enum kl_maint_role role)
{
	char *name, *addr, *ln, *la;

	if (parse_email(m, line, &name, &addr) != 0) {
		g->oom = 1;
		return;
	}
	ln = lower(name);
	la = lower(addr);
	if (ln == NULL || la == NULL)
		g->oom = 1;
	else if (addr[0] != '\0' && !((name[0] != '\0' &&
	    sl_has(&g->names, ln)) || sl_has(&g->addrs, la))) {
		out_add(g, fmt_email(m, name, addr), role);
		if (name[0] != '\0')
			sl_add(g, &g->names, name);
		sl_add(g, &g->addrs, addr);
	}
	free(ln);
	free(la);
	free(name);
	free(addr);
}

/* add_categories(): the people and lists of the section of line i. */
static void
add_section(struct kl_maint *m, struct gather *g, size_t i)
{
	size_t k, end = sec_end(m, i);
	const char *v;
	char *a, *lo;
	size_t n;

	for (k = sec_start(m, i) + 1; k < end; k++) {
		v = m->tv[k].val;
		if (m->tv[k].type == 'M')
			push_person(m, g, v, KL_MAINT_MAINTAINER);
		else if (m->tv[k].type == 'R')
			push_person(m, g, v, KL_MAINT_REVIEWER);
		else if (m->tv[k].type == 'L') {
			/* The address, then what is said of the list. */
			n = strcspn(v, " \t\r\n\f\v");
			if (v[n] != '\0' && strstr(v + n, "subscribers-only"))
				continue;
			if ((a = dupn(v, n)) == NULL || (lo = lower(a)) ==
			    NULL) {
				free(a);
				g->oom = 1;
				return;
			}
			if (!sl_has(&g->lists, lo)) {
				sl_add(g, &g->lists, a);
				out_add(g, a, KL_MAINT_LIST);
			} else
				free(a);
			free(lo);
		}
	}
}

/* Free a list of strings. */
static void
sl_free(struct slist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* Compare K: line numbers as strings, as Perl's sort does. */
static int
tvi_strcmp(const void *a, const void *b)
{
	char x[24], y[24];
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	size_t nx = 0, ny = 0, t;

	t = i;
	do {
		x[nx++] = (char)('0' + t % 10);
	} while ((t /= 10) != 0);
	t = j;
	do {
		y[ny++] = (char)('0' + t % 10);
	} while ((t /= 10) != 0);
	for (t = 0; t < nx / 2; t++) {
		char c = x[t];
		x[t] = x[nx - 1 - t];
		x[nx - 1 - t] = c;
	}
	for (t = 0; t < ny / 2; t++) {
		char c = y[t];
		y[t] = y[ny - 1 - t];
		y[ny - 1 - t] = c;
	}
	x[nx] = y[ny] = '\0';
	return (strcmp(x, y));
}

/*
 * deduplicate_email() over the output, in order: each address through
 * .mailmap, a name or address seen before replaced by its first form;
 * then the chief penguin dropped and the repeated strings (merge_email).
 */
static void
dedup(struct kl_maint *m, struct gather *g)
{
	struct kl_maint_list *o = g->out;
	struct slist dn = { NULL, 0, 0 }, da = { NULL, 0, 0 };
	char **first = NULL, *e, *name, *addr, *ln, *la, *t;
	size_t i, k, nfirst = 0;

	for (i = 0; i < o->n && !g->oom; i++) {
		if ((e = mailmap_email(m, o->who[i].addr)) == NULL ||
		    parse_email(m, e, &name, &addr) != 0) {
			free(e);
			g->oom = 1;
			break;
		}
		free(e);
		ln = lower(name);
		la = lower(addr);
		/* A name seen before, else an address seen before. */
		t = NULL;
		for (k = 0; ln != NULL && name[0] != '\0' && k < dn.n &&
		    t == NULL; k++)
			if (strcmp(dn.v[k], ln) == 0)
				t = first[k];
		for (k = 0; la != NULL && k < da.n && t == NULL; k++)
			if (strcmp(da.v[k], la) == 0)
				t = first[k];
		if (ln == NULL || la == NULL)
			g->oom = 1;
		else if (t == NULL) {
			char **nf;

			sl_add(g, &dn, name);
			sl_add(g, &da, addr);
			if ((nf = realloc(first, (nfirst + 1) *
			    sizeof(*nf))) == NULL)
				g->oom = 1;
			else {
				first = nf;
				first[nfirst++] = fmt_email(m, name, addr);
			}
			t = nfirst > 0 ? first[nfirst - 1] : NULL;
		}
		free(ln);
		free(la);
		free(name);
		free(addr);
		if (t == NULL || (e = mailmap_email(m, t)) == NULL) {
			g->oom = 1;
			break;
		}
		free(o->who[i].addr);
		o->who[i].addr = e;
	}
	for (i = 0; i < nfirst; i++)
		free(first[i]);
	free(first);
	sl_free(&dn);
	sl_free(&da);
	/*
	 * The chief penguin, then the strings seen before; and what
	 * parse_email() made nothing of (a list "address" without an '@',
	 * which get_maintainer.pl prints as an empty line).
	 */
	for (i = k = 0; i < o->n; i++) {
		int drop = (o->who[i].role != KL_MAINT_LIST &&
		    strstr(o->who[i].addr, PENGUIN) != NULL) ||
		    o->who[i].addr[0] == '\0';
		size_t j;

		for (j = 0; j < k && !drop; j++)
			if (strcmp(o->who[j].addr, o->who[i].addr) == 0)
				drop = 1;
		if (drop)
			free(o->who[i].addr);
		else
			o->who[k++] = o->who[i];
	}
	o->n = k;
}

/* Free a list of recipients. */
void
kl_maint_list_free(struct kl_maint_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->who[i].addr);
	free(l->who);
	memset(l, 0, sizeof(*l));
}

/*
 * The recipients of a patch to file (relative to the tree's top) whose
 * text is content (NULL: K: patterns are not tried): into out, people
 * (maintainers and reviewers) before lists, as get_maintainer.pl
 * --no-git --no-rolestats -f prints them.  -1 with err: no memory.
 */
int
kl_maint_lookup(struct kl_maint *m, const char *file, const void *content,
    size_t clen, struct kl_maint_list *out, struct kl_error *err)
{
	struct gather g;
	struct hit *hits = NULL, *nh;
	size_t nhits = 0, *kw = NULL, nkw = 0, tvi, start, end, i, k;
	struct kl_maint_list lists = { NULL, 0 };
	pcre2_match_data *md;
	long pd;
	int exclude, found;

	memset(&g, 0, sizeof(g));
	memset(out, 0, sizeof(*out));
	g.out = out;
	for (tvi = 0; tvi < m->ntv && !is_tag(m, tvi); tvi++)
		;
	while (tvi < m->ntv && !g.oom) {
		start = sec_start(m, tvi);
		end = sec_end(m, tvi);
		exclude = 0;
		for (i = start; i < end && !exclude; i++)
			if (m->tv[i].type == 'X' && file_match(m, &m->tv[i],
			    file))
				exclude = 1;
		found = 0;
		pd = 0;
		for (i = start; i < end && !exclude; i++) {
			if (m->tv[i].type == 'F' && file_match(m, &m->tv[i],
			    file)) {
				const char *v = m->tv[i].val;
				size_t n = strlen(v);

				pd = (long)slashes(v) + (n == 0 ||
				    v[n - 1] != '/');
				if (strncmp(v, ".*", 2) == 0)
					pd = -1;
				found = 1;
			} else if (m->tv[i].type == 'N' &&
			    line_re(&m->tv[i]) != NULL &&
			    rx(m, m->tv[i].re, file) == 1) {
				pd = 0;
				found = 1;
			}
		}
		if (found) {
			if ((nh = realloc(hits, (nhits + 1) *
			    sizeof(*nh))) == NULL) {
				g.oom = 1;
				break;
			}
			hits = nh;
			hits[nhits].tvi = tvi;
			hits[nhits++].depth = pd;
		}
		tvi = end + 1;
	}
	if (nhits > 0)
		qsort(hits, nhits, sizeof(*hits), hitcmp);
	for (i = 0; i < nhits && !g.oom; i++)
		add_section(m, &g, hits[i].tvi);
	/* K: patterns over the file's text. */
	if (content != NULL && !g.oom && (md = pcre2_match_data_create(1,
	    NULL)) != NULL) {
		for (i = 0; i < m->ntv && !g.oom; i++) {
			size_t *nk;

			if (m->tv[i].type != 'K' ||
			    line_re(&m->tv[i]) == NULL ||
			    pcre2_match(m->tv[i].re, content, clen, 0, 0, md,
			    NULL) < 0)
				continue;
			if ((nk = realloc(kw, (nkw + 1) * sizeof(*nk))) ==
			    NULL) {
				g.oom = 1;
				break;
			}
			kw = nk;
			kw[nkw++] = i;
		}
		pcre2_match_data_free(md);
		if (nkw > 0)
			qsort(kw, nkw, sizeof(*kw), tvi_strcmp);
		for (i = 0; i < nkw && !g.oom; i++)
			add_section(m, &g, kw[i]);
	}
	/* People first, then the lists, as get_maintainer.pl gives them. */
	for (i = 0; i < out->n && !g.oom; i++)
		if (out->who[i].role == KL_MAINT_LIST) {
			struct kl_maint_list *keep = g.out;

			g.out = &lists;
			out_add(&g, out->who[i].addr, KL_MAINT_LIST);
			g.out = keep;
			out->who[i].addr = NULL;
		}
	for (i = k = 0; i < out->n; i++)
		if (out->who[i].addr != NULL)
			out->who[k++] = out->who[i];
	out->n = k;
	for (i = 0; i < lists.n && !g.oom; i++) {
		out_add(&g, lists.who[i].addr, KL_MAINT_LIST);
		lists.who[i].addr = NULL;
	}
	kl_maint_list_free(&lists);
	if (!g.oom)
		dedup(m, &g);
	free(hits);
	free(kw);
	sl_free(&g.names);
	sl_free(&g.addrs);
	sl_free(&g.lists);
	if (g.oom) {
		kl_maint_list_free(out);
		kl_error_set(err, KL_ENOMEM, errno, "out of memory");
		return (-1);
	}
	return (0);
}
