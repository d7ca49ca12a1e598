/*
 * callsite.c - --kernel-source and --printk-index: the call sites of a
 * kernel tree (lib/srcindex.c), loaded once before the workers start,
 * through a cache per tree in $XDG_CACHE_HOME/kleakscan (or
 * ~/.cache/kleakscan), and looked up per finding for the printers.
 *
 * Either option given again names a newer kernel (a tree, a tarball, or
 * its printk index): a second index, where each report row's message is
 * looked up again for its fix_state: still printed raw there (open),
 * printed with %p or %pK (fixed), or gone.
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

#define PKIDX_MAX	(256u << 20)	/* bytes of a printk index file */

static struct kl_srcidx	*cs_idx;
static struct kl_srcidx	*cs_new;	/* the newer kernel's, or NULL */
static const char	*cs_new_name;	/* its release, or its path */

/* Make the directory path and its parents; 0, or -1. */
static int
mkdirs(char *path)
{
	char	*p;

	for (p = path + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) != 0 && errno != EEXIST) {
			*p = '/';
			return (-1);
		}
		*p = '/';
	}
	if (mkdir(path, 0700) != 0 && errno != EEXIST)
		return (-1);
	return (0);
}

/* The cache directory, made if missing; NULL when there is none. */
static char *
cache_dir(void)
{
	const char	*base, *home;
	char		*dir;
	size_t		 n;

	base = getenv("XDG_CACHE_HOME");
	home = getenv("HOME");
	if (base != NULL && base[0] == '/') {
		n = strlen(base) + sizeof("/kleakscan");
		dir = xmalloc(n);
		snprintf(dir, n, "%s/kleakscan", base);
	} else if (home != NULL && home[0] == '/') {
		n = strlen(home) + sizeof("/.cache/kleakscan");
		dir = xmalloc(n);
		snprintf(dir, n, "%s/.cache/kleakscan", home);
	} else
		return (NULL);
	if (mkdirs(dir) != 0) {
		log_warnx("cannot make the cache directory %s: %s (indexing "
		    "without a cache)", dir, strerror(errno));
		free(dir);
		return (NULL);
	}
	return (dir);
}

/* Read the printk index file at path into the index x. */
static void
load_printk_index(struct kl_srcidx *x, const char *path)
{
	const struct kl_srcidx_stats *st;
	struct kl_error	 err;
	uint8_t		*b = NULL;
	size_t		 len = 0, cap = 0;
	ssize_t		 r;
	int		 fd;

	if ((fd = open(path, O_RDONLY)) < 0)
		log_fatal("%s: %s", path, strerror(errno));
	for (;;) {
		if (len == cap) {
			if (cap >= PKIDX_MAX)
				log_fatal("%s: larger than %u MiB", path,
				    PKIDX_MAX >> 20);
			cap = cap ? cap * 2 : 1 << 20;
			b = xreallocarray(b, cap, 1);
		}
		if ((r = read(fd, b + len, cap - len)) < 0) {
			if (errno == EINTR)
				continue;
			log_fatal("%s: %s", path, strerror(errno));
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	memset(&err, 0, sizeof(err));
	if (kl_srcidx_add_printk_index(x, b, len, &err) != 0)
		log_fatal("%s: %s", path, err.msg);
	free(b);
	st = kl_srcidx_stats(x);
	if (st->pk_malformed != 0)
		log_error(path, strlen(path), st->pk_first_bad,
		    "not a printk index line (%llu such lines skipped)",
		    (unsigned long long)st->pk_malformed);
}

/*
 * Is path a printk index (a file whose first line is its "# <level"
 * header or a "<N> file:line" line), not a tree or a tarball?
 */
static int
is_printk_index(const char *path)
{
	struct stat	 sb;
	char		 b[64];
	ssize_t		 n;
	int		 fd;

	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    (fd = open(path, O_RDONLY)) < 0)
		return (0);
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	if (n <= 0)
		return (0);
	b[n] = '\0';
	return (strncmp(b, "# <level", 8) == 0 || (b[0] == '<' &&
	    strchr(b, '>') != NULL && strchr(b, '>') - b <= 8 &&
	    strchr(b, ':') != NULL));
}

/*
 * The index of one kernel: its tree (a directory or a tarball, through
 * the cache; NULL: none) and its printk index (NULL: none).
 */
static struct kl_srcidx *
load_kernel(const char *tree, const char *pkidx)
{
	struct kl_srcidx *x;
	struct kl_error	 err;
	char		*dir;
	int		 cached = 0;

	memset(&err, 0, sizeof(err));
	if (tree != NULL) {
		dir = cache_dir();
		x = kl_srcidx_open(tree, dir, &cached, &err);
		free(dir);
		if (x == NULL)
			log_fatal("%s: %s", tree, err.msg);
	} else if ((x = kl_srcidx_new(&err)) == NULL)
		log_fatal("%s", err.msg);
	if (pkidx != NULL) {
		load_printk_index(x, pkidx);
		if (kl_srcidx_build(x, &err) != 0)
			log_fatal("%s", err.msg);
	}
	return (x);
}

/* The last part of a path, for a name in the report. */
static const char *
base_name(const char *path)
{
	const char	*s = strrchr(path, '/');

	return (s != NULL && s[1] != '\0' ? s + 1 : path);
}

/*
 * Load the call sites --kernel-source and --printk-index name; given
 * twice, the second names the newer kernel (a tree, or a printk index
 * given as either).
 */
void
callsite_init(const struct cli *cli)
{
	const char	*tree, *pkidx = cli->printk_index_new;

	if (cli->kernel_source == NULL && cli->printk_index == NULL)
		return;
	cs_idx = load_kernel(cli->kernel_source, cli->printk_index);
	if ((tree = cli->kernel_source_new) == NULL && pkidx == NULL)
		return;
	if (tree != NULL && is_printk_index(tree)) {
		if (pkidx != NULL)
			log_usage("two printk indexes for the newer kernel: "
			    "%s and %s", tree, pkidx);
		pkidx = tree;
		tree = NULL;
	}
	cs_new = load_kernel(tree, pkidx);
	if ((cs_new_name = kl_srcidx_meta(cs_new, KL_SRCIDX_VERSION,
	    NULL)) == NULL)
		cs_new_name = base_name(tree != NULL ? tree : pkidx);
}

/* Free the indexes. */
void
callsite_free(void)
{
	kl_srcidx_free(cs_idx);
	kl_srcidx_free(cs_new);
	cs_idx = cs_new = NULL;
}

/* The index, or NULL when no call sites were asked for. */
const struct kl_srcidx *
callsite_index(void)
{
	return (cs_idx);
}

/*
 * The call sites that printed the message holding a token: msg is the
 * message (framing removed), tok its span in it.  At most max into r.
 */
size_t
callsite_match(const uint8_t *msg, size_t len, size_t tok, size_t toklen,
    uint32_t arches, struct kl_srcidx_match *r, size_t max)
{
	if (cs_idx == NULL)
		return (0);
	return (kl_srcidx_match_arches(cs_idx, msg, len, tok, toklen, arches,
	    r, max));
}

/* The call sites of a finding: its line framed, its token placed. */
size_t
callsite_find(const struct kl_finding *f, struct kl_srcidx_match *r,
    size_t max)
{
	size_t		 tok, m;

	if (cs_idx == NULL || f->ltext == NULL || f->text == NULL ||
	    f->column < f->lcol)
		return (0);
	tok = (size_t)(f->column - f->lcol);
	if (tok > f->llen || f->textlen > f->llen - tok)
		return (0);
	/* The scanner's own framing: where the message starts. */
	m = f->lmsg <= tok ? f->lmsg : 0;
	return (callsite_match(f->ltext + m, f->llen - m, tok - m,
	    f->textlen, f->arch != KL_ARCH_AUTO && (unsigned)f->arch < 32 ?
	    UINT32_C(1) << f->arch : 0, r, max));
}

/* Add a conversion offset to a set, once. */
static void
convset_add(struct convset *cs, size_t off)
{
	size_t	i;

	for (i = 0; i < cs->n; i++)
		if (cs->off[i] == off)
			return;
	if (cs->n < sizeof(cs->off) / sizeof(cs->off[0]))
		cs->off[cs->n++] = off;
}

/* Is c an ASCII letter or digit? */
static int
isalnum_byte(uint8_t c)
{
	return ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z'));
}

/* Is c a byte of an address token as examples keep it (hex, or the
   x of a masked digit)? */
static int
tokbyte(uint8_t c)
{
	return ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F') || c == 'x');
}

/* Add the matches m[0..n) to out[0..*nout), one per site, best first. */
static void
merge_matches(const struct kl_srcidx_match *m, size_t n,
    struct kl_srcidx_match *out, size_t *nout, size_t max)
{
	size_t	i, j, k;

	for (i = 0; i < n; i++) {
		for (j = 0; j < *nout && out[j].site != m[i].site; j++)
			;
		if (j < *nout) {
			if (out[j].score >= m[i].score)
				continue;
			memmove(&out[j], &out[j + 1],
			    (*nout - j - 1) * sizeof(*out));
			(*nout)--;
		}
		for (k = 0; k < *nout && out[k].score >= m[i].score; k++)
			;
		if (k >= max)
			continue;
		if (*nout == max)
			(*nout)--;
		memmove(&out[k + 1], &out[k], (*nout - k) * sizeof(*out));
		out[k] = m[i];
		(*nout)++;
	}
}

/*
 * The sites of index x that printed a row (callsite_row()); NULL
 * when x is.  With cs, the offsets of the conversions site cs->site
 * printed the row's addresses with are gathered too.
 */
static size_t
row_sites(const struct kl_srcidx *x, const struct kl_report_row *r,
    struct kl_srcidx_match *out, size_t max, struct convset *cs)
{
	const struct kl_report_ex *e = &r->first;
	struct kl_srcidx_match	 m[8];
	struct kl_frame		 fr;
	uint8_t			*msg;
	size_t			 len, i, s, n, k, nout = 0, ntok = 0;

	if (x == NULL || e->text == NULL || e->textlen == 0)
		return (0);
	kl_frame_line(e->text, e->textlen, KL_LINE_PLAIN, KL_FORMAT_AUTO,
	    &fr);
	if (fr.msg > e->textlen)
		fr.msg = 0;
	len = e->textlen - fr.msg;
	msg = xmalloc(len + 1);
	memcpy(msg, e->text + fr.msg, len);
	for (i = 0; i < len && ntok < 16;) {
		if (!tokbyte(msg[i]) || (i > 0 && isalnum_byte(msg[i - 1]))) {
			i++;
			continue;
		}
		s = i;
		if (i + 1 < len && msg[i] == '0' && msg[i + 1] == 'x')
			s = i += 2;
		while (i < len && tokbyte(msg[i]))
			i++;
		if (i - s < 8 || (i < len && isalnum_byte(msg[i])))
			continue;
		for (n = s; n < i; n++)
			if (msg[n] == 'x')
				msg[n] = '0';
		ntok++;
		n = kl_srcidx_match_arches(x, msg, len, s, i - s, r->arches,
		    m, 8);
		merge_matches(m, n, out, &nout, max);
		for (k = 0; cs != NULL && k < n; k++)
			if (m[k].site == cs->site && m[k].conv_off != SIZE_MAX)
				convset_add(cs, m[k].conv_off);
	}
	free(msg);
	return (nout);
}

/*
 * The call sites of a report row, from its first example's line: each
 * address token of the message (8 or more hex digits; the x of a
 * masked digit read as 0) is matched with the row's architectures, and
 * the sites merged, best first.
 */
size_t
callsite_row(const struct kl_report_row *r, struct kl_srcidx_match *out,
    size_t max)
{
	return (row_sites(cs_idx, r, out, max, NULL));
}

/*
 * Why the site of match a was ranked before that of b: the first thing
 * that tells them apart, in the order the matcher weighs them.
 */
const char *
callsite_why(const struct kl_srcidx_match *a, const struct kl_srcidx_match *b)
{
	if ((a->why & KL_SRCM_EXACT) && !(b->why & KL_SRCM_EXACT))
		return ("the printk index names it");
	if ((a->why & KL_SRCM_ARCH) && !(b->why & KL_SRCM_ARCH))
		return ("it is in the tree of the row's architecture");
	if (!(a->why & KL_SRCM_ARCHDIR) && (b->why & KL_SRCM_ARCHDIR))
		return ("generic code: the row's architecture is unknown");
	if ((a->why & KL_SRCM_WIDTH) && !(b->why & KL_SRCM_WIDTH))
		return ("its conversion has the address's width");
	if (!(a->why & KL_SRCM_SIBLING) && (b->why & KL_SRCM_SIBLING))
		return ("it printed the address itself");
	if (a->lit > b->lit)
		return ("more of the line is its literal text");
	if (a->score > b->score)
		return ("it matches the line more closely");
	return ("an equal match: the first by file and line");
}

/* Do the sites of matches a and b print the same format? */
int
callsite_same_format(const struct kl_srcidx_match *a,
    const struct kl_srcidx_match *b)
{
	struct kl_srcidx_site	sa, sb;

	if (cs_idx == NULL || kl_srcidx_site(cs_idx, a->site, &sa) != 0 ||
	    kl_srcidx_site(cs_idx, b->site, &sb) != 0)
		return (0);
	return (sa.formatlen == sb.formatlen &&
	    memcmp(sa.format, sb.format, sa.formatlen) == 0);
}

/* The newest kernel's index: the newer one, else the only one. */
const struct kl_srcidx *
callsite_newest(void)
{
	return (cs_new != NULL ? cs_new : cs_idx);
}

/* The name of the newest kernel: its release, else its file's name. */
const char *
callsite_newest_name(void)
{
	const char	*v;

	if (cs_new != NULL)
		return (cs_new_name);
	if (cs_idx == NULL)
		return (NULL);
	v = kl_srcidx_meta(cs_idx, KL_SRCIDX_VERSION, NULL);
	return (v != NULL ? v : "the tree");
}

/* The words of a fix state, or NULL for FIX_UNKNOWN. */
const char *
callsite_fix_name(enum fixstate s)
{
	switch (s) {
	case FIX_OPEN:
		return ("open");
	case FIX_FIXED:
		return ("fixed");
	case FIX_GONE:
		return ("gone");
	default:
		return (NULL);
	}
}

/* The major and minor numbers a release or version starts with. */
static int
release_mm(const char *s, unsigned *maj, unsigned *min)
{
	return (sscanf(s, "%u.%u", maj, min) == 2 ? 0 : -1);
}

/*
 * Are all of a row's releases (one at least) older than the tree's
 * version (major and minor)?  Then a message the tree lacks is gone
 * from it, not printed by code the tree never had.
 */
static int
releases_older(const struct kl_report_row *r, const struct kl_srcidx *x)
{
	const char	*v;
	unsigned	 tm, tn, m, n;
	size_t		 i;

	if (r->releases.n == 0 || (v = kl_srcidx_meta(x, KL_SRCIDX_VERSION,
	    NULL)) == NULL || release_mm(v, &tm, &tn) != 0)
		return (0);
	for (i = 0; i < r->releases.n; i++)
		if (release_mm(r->releases.v[i], &m, &n) != 0 || m > tm ||
		    (m == tm && n >= tn))
			return (0);
	return (1);
}

/*
 * The fix state of a row in the newest kernel given, its site there in
 * *m (when open or fixed).  A row the newer kernel lacks is gone; with
 * one kernel only, a row it lacks is gone when every release the row
 * was seen on is older than the tree, else its state is unknown.
 */
enum fixstate
callsite_fix_state(const struct kl_report_row *r, struct kl_srcidx_match *m)
{
	const struct kl_srcidx	*x = callsite_newest();
	const char		*c;

	if (x == NULL)
		return (FIX_UNKNOWN);
	if (row_sites(x, r, m, 1, NULL) == 1) {
		c = m->conversion;
		/* %p and %pK hash or restrict; %px, %lx ... print raw. */
		if (c[0] == '%' && c[1] == 'p' && (c[2] == '\0' ||
		    (c[2] == 'K' && c[3] == '\0')))
			return (FIX_FIXED);
		return (FIX_OPEN);
	}
	if (cs_new != NULL || releases_older(r, x))
		return (FIX_GONE);
	return (FIX_UNKNOWN);
}

/*
 * The offsets (in its format) of the conversions the site of match m
 * printed a row's addresses with, into cs.
 */
void
callsite_row_convs(const struct kl_report_row *r,
    const struct kl_srcidx_match *m, struct convset *cs)
{
	struct kl_srcidx_match	 out[1];

	memset(cs, 0, sizeof(*cs));
	cs->site = m->site;
	(void)row_sites(cs_idx, r, out, 1, cs);
	if (cs->n == 0 && m->conv_off != SIZE_MAX)
		convset_add(cs, m->conv_off);
}

/* The sites of any index x that printed a row (the fixed file's). */
size_t
callsite_row_in(const struct kl_srcidx *x, const struct kl_report_row *r,
    struct kl_srcidx_match *out, size_t max)
{
	return (row_sites(x, r, out, max, NULL));
}
