/*
 * callsite.c - --kernel-source and --printk-index: the call sites of a
 * kernel tree (lib/srcindex.c), loaded once before the workers start,
 * through a cache per tree in $XDG_CACHE_HOME/kleakscan (or
 * ~/.cache/kleakscan), and looked up per finding for the printers.
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

/* Read the printk index file at path into the index. */
static void
load_printk_index(const char *path)
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
	if (kl_srcidx_add_printk_index(cs_idx, b, len, &err) != 0)
		log_fatal("%s: %s", path, err.msg);
	free(b);
	st = kl_srcidx_stats(cs_idx);
	if (st->pk_malformed != 0)
		log_error(path, strlen(path), st->pk_first_bad,
		    "not a printk index line (%llu such lines skipped)",
		    (unsigned long long)st->pk_malformed);
}

/* Load the call sites --kernel-source and --printk-index name. */
void
callsite_init(const struct cli *cli)
{
	struct kl_error	 err;
	char		*dir;
	int		 cached = 0;

	if (cli->kernel_source == NULL && cli->printk_index == NULL)
		return;
	memset(&err, 0, sizeof(err));
	if (cli->kernel_source != NULL) {
		dir = cache_dir();
		cs_idx = kl_srcidx_open(cli->kernel_source, dir, &cached,
		    &err);
		free(dir);
		if (cs_idx == NULL)
			log_fatal("%s: %s", cli->kernel_source, err.msg);
	} else if ((cs_idx = kl_srcidx_new(&err)) == NULL)
		log_fatal("%s", err.msg);
	if (cli->printk_index != NULL) {
		load_printk_index(cli->printk_index);
		if (kl_srcidx_build(cs_idx, &err) != 0)
			log_fatal("%s", err.msg);
	}
}

/* Free the index. */
void
callsite_free(void)
{
	kl_srcidx_free(cs_idx);
	cs_idx = NULL;
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
 * when x is.
 */
static size_t
row_sites(const struct kl_srcidx *x, const struct kl_report_row *r,
    struct kl_srcidx_match *out, size_t max)
{
	const struct kl_report_ex *e = &r->first;
	struct kl_srcidx_match	 m[8];
	struct kl_frame		 fr;
	uint8_t			*msg;
	size_t			 len, i, s, n, nout = 0, ntok = 0;

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
	return (row_sites(cs_idx, r, out, max));
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
