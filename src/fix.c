/*
 * fix.c - --fix-dir DIR: the patch of each call site that printed a raw
 * kernel pointer, for the rows of the report (print-report.c asks once,
 * before it prints them; the printers then say each row's fix).
 *
 * The best call site of each row in the first --kernel-source tree is
 * taken when the conversion that printed the address is a raw one (%px,
 * %pK, an integer hex one); rows of one site share its patch.  The files
 * are read from the tree (a tarball in one pass), the call is fixed by
 * lib/srcfix.c, and the fixed file is indexed again: the row's line must
 * no more match it with a raw conversion, else there is no patch.  Each
 * patch is written as git format-patch writes one, numbered in the order
 * of the rows' ranks: From:, Date:, Subject: "[PATCH n/N] subsystem: do
 * not print a raw kernel pointer in function()", To: the maintainers and
 * Cc: the reviewers and lists of the file (lib/maint.c, the tree's
 * MAINTAINERS as get_maintainer.pl reads it), the evidence (logs, boots,
 * hosts, releases, one line with its addresses masked), what the change
 * prints instead, the Signed-off-by of the author, the diffstat and the
 * diff.  The author is $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL> (as git uses
 * them), else a placeholder the sender replaces; the date is
 * $SOURCE_DATE_EPOCH when set, else now.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kleakscan.h"

#define AUTHOR_NAME	"kleakscan user"
#define AUTHOR_EMAIL	"user@example.invalid"
#define WRAP		72		/* columns of the message */

/* A call site of a patch, the conversions its rows printed with. */
struct psite {
	size_t			 site;
	struct convset		 cs;
	char			*why;		/* not fixed: why */
	int			 integer;	/* ... of an integer */
};

/* A patch: the call sites of one function of one file. */
struct patch {
	char			*path;		/* the file */
	char			*func;
	size_t			 file;		/* in fx.files */
	struct psite		*ps;
	size_t			 nps;
	const struct kl_report_row **rows;	/* best-ranked first */
	size_t			*rowps;		/* each row's site, in ps */
	size_t			 nrows;
	struct kl_srcfix	 sf;		/* every call's edits */
	size_t			 number;	/* 1.., 0: none */
	char			*name;		/* NNNN-slug.patch */
	char			*why;		/* no patch: why */
	const uint8_t		*base;		/* the file as the earlier
						   patches left it */
	size_t			 baselen;
	uint8_t			*fixed;		/* and fixed */
	size_t			 fixedlen;
};

static struct {
	const struct cli	*cli;
	struct rowfix		*row;		/* one per row asked */
	size_t			 nrow;
	struct patch		*p;
	size_t			 np;
	char			**files;	/* sorted */
	uint8_t			**data;
	size_t			*len;
	size_t			 nfiles;
	struct kl_maint		*maint;
	struct kl_maint_list	*who;		/* per file */
	const uint8_t		**cur;		/* per file: as patched */
	size_t			*curlen;
	int			 done;
} fx;

/* --fix-dir's checks and the directory, made if missing. */
void
fix_init(const struct cli *cli)
{
	char	*p, *s;

	fx.cli = cli;
	if (cli->fix_dir == NULL)
		return;
	p = xstrdup(cli->fix_dir);
	for (s = p + 1; *s != '\0'; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		(void)mkdir(p, 0777);
		*s = '/';
	}
	if (mkdir(p, 0777) != 0 && errno != EEXIST)
		log_fatal("%s: %s", cli->fix_dir, strerror(errno));
	free(p);
}

/* Is a conversion one that prints a raw pointer (or may)? */
static int
raw_conversion(const char *c)
{
	size_t	n = strlen(c);

	if (n < 2 || c[0] != '%')
		return (0);
	if (c[n - 1] == 'p' || (n >= 2 && c[n - 2] == 'p'))
		return (strcmp(c + n - 2, "px") == 0 ||
		    strcmp(c + n - 2, "pK") == 0);
	return (c[n - 1] == 'x' || c[n - 1] == 'X');
}

/* What a conversion that prints no raw pointer prints. */
static const char *
not_raw(const char *c)
{
	size_t	n = strlen(c);

	if (strcmp(c, "%p") == 0)
		return ("printed by %p, which hashes it unless the boot said "
		    "no_hash_pointers (or the kernel predates v4.15)");
	if (n >= 3 && c[n - 3] == 'p' && (c[n - 2] == 'S' || c[n - 2] == 's' ||
	    c[n - 2] == 'B'))
		return ("printed by a symbol conversion (%pS), not a raw one");
	if (n >= 2 && c[n - 2] == 'p' && (c[n - 1] == 'S' || c[n - 1] == 's' ||
	    c[n - 1] == 'B' || c[n - 1] == 'F' || c[n - 1] == 'f'))
		return ("printed by a symbol conversion (%pS), not a raw one");
	if (c[n - 1] == 's' || (n >= 2 && c[n - 2] == 'p'))
		return ("printed as text by the format (%s or a %p extension): "
		    "the address comes from elsewhere");
	return ("printed by a conversion that prints no pointer "
	    "(%d, %u, %c): the match is doubtful");
}

/* The index of a file in the sorted list, or SIZE_MAX. */
static size_t
file_index(const char *name)
{
	size_t	lo = 0, hi = fx.nfiles, mid;
	int	c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = strcmp(fx.files[mid], name)) == 0)
			return (mid);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (SIZE_MAX);
}

/* Compare strings for qsort. */
static int
strpcmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* The tree's directories, for the MAINTAINERS reader. */
static int
tree_isdir(void *arg, const char *p)
{
	return (kl_srcidx_isdir(arg, p));
}

/* Read the files of the sites, once; their recipients too. */
static void
read_files(void)
{
	const struct kl_srcidx	*x = callsite_index();
	struct kl_error		 err;
	const char		*mt, *mm;
	size_t			 mtl = 0, mml = 0, i, k;

	if (fx.nfiles > 1)
		qsort(fx.files, fx.nfiles, sizeof(*fx.files), strpcmp);
	for (i = k = 0; i < fx.nfiles; i++)
		if (k == 0 || strcmp(fx.files[i], fx.files[k - 1]) != 0)
			fx.files[k++] = fx.files[i];
		else
			free(fx.files[i]);
	fx.nfiles = k;
	fx.data = xreallocarray(NULL, fx.nfiles + 1, sizeof(*fx.data));
	fx.len = xreallocarray(NULL, fx.nfiles + 1, sizeof(*fx.len));
	fx.who = xreallocarray(NULL, fx.nfiles + 1, sizeof(*fx.who));
	memset(fx.who, 0, (fx.nfiles + 1) * sizeof(*fx.who));
	memset(&err, 0, sizeof(err));
	if (kl_srcidx_read_files(fx.cli->kernel_source,
	    (const char *const *)fx.files, fx.nfiles, fx.data, fx.len,
	    &err) != 0)
		log_fatal("%s", err.msg);
	if ((mt = kl_srcidx_meta(x, KL_SRCIDX_MAINTAINERS, &mtl)) == NULL) {
		log_warnx("%s: no MAINTAINERS: the patches have no To: or Cc:",
		    fx.cli->kernel_source);
		return;
	}
	mm = kl_srcidx_meta(x, KL_SRCIDX_MAILMAP, &mml);
	if ((fx.maint = kl_maint_new(mt, mtl, mm, mml, tree_isdir,
	    (void *)(uintptr_t)x, &err)) == NULL)
		log_fatal("%s", err.msg);
	for (i = 0; i < fx.nfiles; i++)
		if (kl_maint_lookup(fx.maint, fx.files[i], fx.data[i],
		    fx.data[i] != NULL ? fx.len[i] : 0, &fx.who[i], &err) != 0)
			log_fatal("%s", err.msg);
}

/*
 * The patch of the function of site s (made if new) gains the row r:
 * the site once, its conversions added.
 */
static void
patch_add(const struct kl_srcidx_site *s, const struct kl_srcidx_match *m,
    const struct kl_report_row *r, struct rowfix *rf)
{
	struct patch	*p = NULL;
	struct psite	*q = NULL;
	struct convset	 cs;
	size_t		 i, k;

	for (i = 0; i < fx.np && p == NULL; i++)
		if (strcmp(fx.p[i].path, s->file) == 0 &&
		    strcmp(fx.p[i].func, s->function) == 0)
			p = &fx.p[i];
	if (p == NULL) {
		fx.p = xreallocarray(fx.p, fx.np + 1, sizeof(*fx.p));
		p = &fx.p[fx.np++];
		memset(p, 0, sizeof(*p));
		p->path = xstrdup(s->file);
		p->func = xstrdup(s->function);
		p->file = SIZE_MAX;
		fx.files = xreallocarray(fx.files, fx.nfiles + 1,
		    sizeof(*fx.files));
		fx.files[fx.nfiles++] = xstrdup(s->file);
	}
	for (i = 0; i < p->nps && q == NULL; i++)
		if (p->ps[i].site == m->site)
			q = &p->ps[i];
	if (q == NULL) {
		p->ps = xreallocarray(p->ps, p->nps + 1, sizeof(*p->ps));
		q = &p->ps[p->nps++];
		memset(q, 0, sizeof(*q));
		q->site = m->site;
	}
	callsite_row_convs(r, m, &cs);
	for (k = 0; k < cs.n; k++) {
		for (i = 0; i < q->cs.n && q->cs.off[i] != cs.off[k]; i++)
			;
		if (i == q->cs.n && q->cs.n < sizeof(q->cs.off) /
		    sizeof(q->cs.off[0]))
			q->cs.off[q->cs.n++] = cs.off[k];
	}
	p->rows = xreallocarray(p->rows, p->nrows + 1, sizeof(*p->rows));
	p->rowps = xreallocarray(p->rowps, p->nrows + 1,
	    sizeof(*p->rowps));
	p->rows[p->nrows] = r;
	p->rowps[p->nrows++] = (size_t)(q - p->ps);
	rf->patch = (size_t)(p - fx.p);
}

/* A message of its own: printf into a new string. */
static char *
xprintf(const char *fmt, ...) KL_PRINTFLIKE(1, 2);
/* vsnprintf into a string of the size it needs. */
static char *
xprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return (s);
}

/* Order edits by offset. */
static int
edit_cmp(const void *a, const void *b)
{
	const struct kl_srcfix_edit *x = a, *y = b;

	return (x->off < y->off ? -1 : x->off > y->off);
}

/* Add the edits of sf to the patch's, each once, by offset. */
static void
merge_edits(struct patch *p, const struct kl_srcfix *sf)
{
	size_t	k, j;

	for (k = 0; k < sf->nedit; k++) {
		for (j = 0; j < p->sf.nedit &&
		    p->sf.edit[j].off != sf->edit[k].off; j++)
			;
		if (j < p->sf.nedit)
			continue;
		p->sf.edit = xreallocarray(p->sf.edit, p->sf.nedit + 1,
		    sizeof(*p->sf.edit));
		p->sf.edit[p->sf.nedit++] = sf->edit[k];
	}
	p->sf.nconv += sf->nconv;
	qsort(p->sf.edit, p->sf.nedit, sizeof(*p->sf.edit), edit_cmp);
}

#define FIX_ROUNDS	8	/* other calls of the file fixed */

/*
 * Is conv an integer conversion narrower than any address ("%02x",
 * "%4x": a byte or a half word of a dump, as s390's disassembler prints
 * the instruction bytes beside the address it printed with %px)?
 */
static int
byte_width(const char *conv)
{
	const char *c = conv + 1;
	int w = 0;

	while (*c == '0' || *c == '-' || *c == '#')
		c++;
	while (*c >= '0' && *c <= '9')
		w = w * 10 + (*c++ - '0');
	return (w > 0 && w < 8 && *c != 'l' && *c != 'z' && *c != 'p');
}

/*
 * The sites of the fixed file alone, indexed again, that print the
 * row's line with a raw conversion (%pK, which follows kptr_restrict,
 * is not one): into m (at most max), their index in *xp (freed by the
 * caller).
 */
static size_t
still_raw(const struct patch *p, struct kl_srcidx **xp,
    struct kl_srcidx_match *m, size_t max)
{
	struct kl_srcidx	*x;
	struct kl_srcidx_match	 one[8];
	struct kl_error		 err;
	size_t			 n, i, r, k = 0;

	memset(&err, 0, sizeof(err));
	if ((x = kl_srcidx_new(&err)) == NULL ||
	    kl_srcidx_add_source(x, p->path, p->fixed, p->fixedlen,
	    &err) != 0 || kl_srcidx_build(x, &err) != 0)
		log_fatal("%s", err.msg[0] != '\0' ? err.msg : "out of memory");
	/* The rows of the calls that were fixed. */
	for (r = 0; r < p->nrows; r++) {
		if (p->ps[p->rowps[r]].why != NULL)
			continue;
		n = callsite_row_in(x, p->rows[r], one, 8);
		for (i = 0; i < n && k < max; i++)
			if (raw_conversion(one[i].conversion) &&
			    strcmp(one[i].conversion + strlen(
			    one[i].conversion) - 2, "pK") != 0 &&
			    !byte_width(one[i].conversion))
				m[k++] = one[i];
	}
	*xp = x;
	return (k);
}

/* Why a call was not fixed (KL_FIX_*). */
static const char *const fix_why[] = {
	"", "the call is not where the index found it",
	"the call is in a macro, or a preprocessor line is inside it",
	"the conversion has no argument in the call",
	"the conversion spans literals or escapes",
	"no conversion of the call prints a raw pointer",
	"an integer, not a pointer: printing it with %p needs a cast that "
	"is the maintainers' choice",
	"the argument's type is not known from the file",
	"an expression that cannot be rewritten safely",
};

/*
 * Fix the call at line of p's base (fmt, convs); why it was not, or
 * NULL (*integer: the conversion is of an integer, when asked).
 */
static char *
fix_call(struct patch *p, uint64_t line, const char *fmt, size_t fmtlen,
    const size_t *convs, size_t nconv, int *integer)
{
	struct kl_srcfix	 sf;
	struct kl_error		 err;
	char			*why = NULL;

	memset(&err, 0, sizeof(err));
	if (kl_srcfix_make(p->base, p->baselen, line, fmt, fmtlen, p->func,
	    convs, nconv, &sf, &err) != 0)
		log_fatal("%s", err.msg);
	if (sf.why == KL_FIX_OK) {
		merge_edits(p, &sf);
		p->sf.restricted |= sf.restricted;
		snprintf(p->sf.callee, sizeof(p->sf.callee), "%s", sf.callee);
	} else
		why = xprintf("%s: %s", fix_why[sf.why < sizeof(fix_why) /
		    sizeof(fix_why[0]) ? sf.why : 0], sf.detail);
	if (integer != NULL)
		*integer = sf.why == KL_FIX_INTEGER;
	kl_srcfix_free(&sf);
	return (why);
}

/*
 * Fix the calls of patch p (its file read, as the earlier patches of it
 * left it).  The file fixed is indexed again: another call of it that
 * prints a row's line raw (kcsan prints one format from several places,
 * kasan a shorter one too) is fixed as well, a few rounds; a line still
 * printed raw leaves the patch out.
 */
static void
make_fix(struct patch *p)
{
	const struct kl_srcidx	*x = callsite_index();
	struct kl_srcidx	*y;
	struct kl_srcidx_site	 s, o;
	struct kl_srcidx_match	 m[16];
	struct kl_error		 err;
	uint64_t		 done[FIX_ROUNDS + 32];
	size_t			 ndone = 0, n, i, j, k, round;
	char			*why;

	if (p->file == SIZE_MAX || fx.data[p->file] == NULL) {
		p->why = xprintf("%s is not in the tree", p->path);
		return;
	}
	p->base = fx.cur[p->file];
	p->baselen = fx.curlen[p->file];
	for (i = 0; i < p->nps; i++) {
		if (kl_srcidx_site(x, p->ps[i].site, &s) != 0)
			continue;
		p->ps[i].why = fix_call(p, s.line, s.format, s.formatlen,
		    p->ps[i].cs.off, p->ps[i].cs.n, &p->ps[i].integer);
		if (ndone < sizeof(done) / sizeof(done[0]) - FIX_ROUNDS)
			done[ndone++] = s.line;
	}
	if (p->sf.nedit == 0) {
		p->why = xstrdup(p->ps[0].why != NULL ? p->ps[0].why :
		    "nothing to change");
		return;
	}
	memset(&err, 0, sizeof(err));
	for (round = 0; round <= FIX_ROUNDS; round++) {
		free(p->fixed);
		if (kl_srcfix_apply(p->base, p->baselen, &p->sf, &p->fixed,
		    &p->fixedlen, &err) != 0)
			log_fatal("%s", err.msg);
		if ((n = still_raw(p, &y, m, 16)) == 0) {
			kl_srcidx_free(y);
			return;
		}
		/* Another call of the file: fixed too, else no patch. */
		for (i = k = 0; i < n && round < FIX_ROUNDS; i++) {
			if (kl_srcidx_site(y, m[i].site, &o) != 0)
				continue;
			for (j = 0; j < ndone && done[j] != o.line; j++)
				;
			if (j < ndone || ndone >= sizeof(done) /
			    sizeof(done[0]))
				continue;
			done[ndone++] = o.line;
			if ((why = fix_call(p, o.line, o.format, o.formatlen,
			    &m[i].conv_off, 1, NULL)) == NULL)
				k++;
			free(why);
		}
		kl_srcidx_free(y);
		if (k == 0)
			break;
	}
	p->why = xprintf("the fixed file still prints the line with a raw "
	    "conversion (another call that cannot be fixed)");
	free(p->fixed);
	p->fixed = NULL;
}

/*
 * The subsystem of a file, as subjects name it: "x86/mm", "arm64: mm",
 * "ARM", "powerpc/setup", "kasan", "mm/slub", "locking/lockdep",
 * "lib/kobject", "fbdev: uvesafb", "net: core", "ext4", "ALSA: pci".
 */
static char *
subsystem(const char *path)
{
	char		*p = xstrdup(path), *part[8], *s, *stem;
	size_t		 n = 0;
	const char	*a;
	char		*out;

	for (s = strtok(p, "/"); s != NULL && n < 8; s = strtok(NULL, "/"))
		part[n++] = s;
	if (n == 0) {
		free(p);
		return (xstrdup("misc"));
	}
	stem = part[n - 1];
	if ((s = strrchr(stem, '.')) != NULL && s != stem)
		*s = '\0';
	a = n >= 2 ? part[1] : stem;
	if (strcmp(part[0], "arch") == 0 && n >= 3) {
		const char *sub = n >= 4 && strcmp(part[2], "kernel") != 0 ?
		    part[2] : stem;

		if (strcmp(a, "arm") == 0)
			out = xstrdup("ARM");
		else if (strcmp(a, "mips") == 0)
			out = xstrdup("MIPS");
		else if (strcmp(a, "arm64") == 0)
			out = xprintf("arm64: %s", sub);
		else
			out = xprintf("%s/%s", a, sub);
	} else if (strcmp(part[0], "mm") == 0)
		out = n >= 3 ? xstrdup(part[1]) : xprintf("mm/%s", stem);
	else if (strcmp(part[0], "kernel") == 0)
		out = n >= 3 ? (strcmp(part[n - 2], "kcsan") == 0 ||
		    strcmp(part[n - 2], "kfence") == 0 ? xstrdup(part[n - 2]) :
		    xprintf("%s/%s", part[n - 2], stem)) : xstrdup(stem);
	else if (strcmp(part[0], "lib") == 0)
		out = xprintf("lib/%s", n >= 3 ? part[1] : stem);
	else if (strcmp(part[0], "drivers") == 0)
		out = n >= 3 ? xprintf("%s: %s", part[n - 2], stem) :
		    xprintf("drivers: %s", stem);
	else if (strcmp(part[0], "net") == 0)
		out = xprintf("net: %s", n >= 3 ? part[1] : stem);
	else if (strcmp(part[0], "fs") == 0)
		out = n >= 3 ? xstrdup(part[1]) : xprintf("fs/%s", stem);
	else if (strcmp(part[0], "sound") == 0)
		out = xprintf("ALSA: %s", n >= 3 ? part[n - 2] : stem);
	else
		out = n >= 2 ? xprintf("%s/%s", part[0], stem) :
		    xstrdup(stem);
	free(p);
	return (out);
}

/* A file name from a subject, as git format-patch makes one. */
static char *
slug(size_t number, const char *subject)
{
	char	 b[64];
	size_t	 n = 0, i;
	int	 dash = 0;

	for (i = 0; subject[i] != '\0' && n < 52; i++) {
		char c = subject[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '_') {
			if (dash && n > 0)
				b[n++] = '-';
			dash = 0;
			if (n < 52)
				b[n++] = c;
		} else
			dash = 1;
	}
	while (n > 0 && (b[n - 1] == '.' || b[n - 1] == '-'))
		n--;
	b[n] = '\0';
	return (xprintf("%04zu-%s.patch", number, b));
}

/* Append text wrapped at WRAP columns (words kept whole). */
static void
wrap(FILE *f, const char *t)
{
	size_t	col = 0, w;
	const char *s = t, *e;

	while (*s != '\0') {
		while (*s == ' ')
			s++;
		if (*s == '\0')
			break;
		for (e = s; *e != '\0' && *e != ' '; e++)
			;
		w = (size_t)(e - s);
		if (col > 0 && col + 1 + w > WRAP) {
			fputc('\n', f);
			col = 0;
		} else if (col > 0) {
			fputc(' ', f);
			col++;
		}
		fwrite(s, 1, w, f);
		col += w;
		s = e;
	}
	fputc('\n', f);
}

/* The author: $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>, or a placeholder. */
static char *
author(void)
{
	const char *n = getenv("GIT_AUTHOR_NAME");
	const char *e = getenv("GIT_AUTHOR_EMAIL");

	if (n == NULL || *n == '\0' || strchr(n, '\n') != NULL)
		n = AUTHOR_NAME;
	if (e == NULL || *e == '\0' || strchr(e, '\n') != NULL ||
	    strchr(e, '@') == NULL)
		e = AUTHOR_EMAIL;
	return (xprintf("%s <%s>", n, e));
}

/* Is s plain ASCII? */
static int
ascii(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s >= 0x80)
			return (0);
	return (1);
}

/*
 * A recipient in a header: a name that is not ASCII as an RFC 2047
 * encoded word (UTF-8, Q), as git does.
 */
static void
header_addr(FILE *f, const char *a)
{
	const char	*lt = strrchr(a, '<'), *s;
	const char	*name_end;

	if (ascii(a) || lt == NULL) {
		fputs(a, f);
		return;
	}
	name_end = lt;
	while (name_end > a && name_end[-1] == ' ')
		name_end--;
	fputs("=?UTF-8?q?", f);
	for (s = a; s < name_end; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == ' ')
			fputc('_', f);
		else if (c >= 0x80 || c == '=' || c == '?' || c == '_' ||
		    c == '"')
			fprintf(f, "=%02X", c);
		else
			fputc(c, f);
	}
	fprintf(f, "?= %s", lt);
}

/* A To: or Cc: header of the recipients of one role or two. */
static void
header_who(FILE *f, const char *h, const struct kl_maint_list *w, int to)
{
	size_t	i, k = 0;

	for (i = 0; i < w->n; i++) {
		if ((w->who[i].role == KL_MAINT_MAINTAINER) != to)
			continue;
		fputs(k++ == 0 ? h : ",\n    ", f);
		header_addr(f, w->who[i].addr);
	}
	if (k > 0)
		fputc('\n', f);
}

/* The example line of a row, its addresses (8+ hex digits) masked. */
static char *
example(const struct kl_report_row *r)
{
	const struct kl_report_ex *e = &r->first;
	char	*t;
	size_t	 i;

	t = xmalloc(e->textlen + 1);
	memcpy(t, e->text, e->textlen);
	t[e->textlen] = '\0';
	(void)kl_mask_addr((uint8_t *)t, e->textlen);
	for (i = 0; i < e->textlen; i++)
		if ((unsigned char)t[i] < 0x20 || t[i] == 0x7f)
			t[i] = ' ';
	return (t);
}

/* The conversions a fix changes, as they are in the file: "%px, %lx". */
static char *
changed_convs(const struct patch *p)
{
	const uint8_t	*b = p->base;
	char		 out[128], one[32];
	size_t		 i, n = 0, k;

	out[0] = '\0';
	for (i = 0; i < p->sf.nedit; i++) {
		const struct kl_srcfix_edit *e = &p->sf.edit[i];
		const uint8_t *c = b + e->off;
		size_t len = e->len;

		if (e->text[0] == '\0')
			continue;	/* a cast dropped */
		if (len > 2 && c[0] == '0' && c[1] == 'x') {
			c += 2;
			len -= 2;
		}
		if (len >= sizeof(one))
			len = sizeof(one) - 1;
		memcpy(one, c, len);
		one[len] = '\0';
		/* each once */
		for (k = 0; k < n && strstr(out, one) == NULL; k++)
			;
		if (strstr(out, one) != NULL && (strlen(out) == len ||
		    strstr(out, one)[len] == ',' ||
		    strstr(out, one)[len] == '\0'))
			continue;
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s",
		    n > 0 ? ", " : "", one);
		if (n >= sizeof(out))
			break;
	}
	return (xstrdup(out));
}

/* Does a fix drop a cast? */
static int
drops_cast(const struct patch *p)
{
	size_t	i;

	for (i = 0; i < p->sf.nedit; i++)
		if (p->sf.edit[i].text[0] == '\0')
			return (1);
	return (0);
}

/* The releases of a row, the first four, as text. */
static char *
releases(const struct kl_report_row *r)
{
	char	*rel = xstrdup(""), *t;
	size_t	 i;

	for (i = 0; i < r->releases.n && i < 4; i++) {
		t = xprintf("%s%s%s", rel, i > 0 ? ", " : "", r->releases.v[i]);
		free(rel);
		rel = t;
	}
	if (r->releases.n > 4) {
		t = xprintf("%s and %zu more", rel, r->releases.n - 4);
		free(rel);
		rel = t;
	}
	return (rel);
}

/* Write the message of patch p: the evidence, what it prints then. */
static void
write_message(FILE *f, const struct patch *p)
{
	const struct kl_report_row *r = p->rows[0];
	char	*convs = changed_convs(p), *rel = releases(r), *ex, *t;
	char	 more[96] = "";

	if (p->nrows > 1)
		snprintf(more, sizeof(more), "; it printed %zu other line%s "
		    "of this kind too", p->nrows - 1, p->nrows > 2 ? "s" : "");
	t = xprintf("%s() prints a kernel address raw, with %s%s.  kleakscan "
	    "found it in %" PRIu64 " log%s (%" PRIu64 " line%s, %" PRIu64
	    " boot%s, %zu host%s%s%s%s)%s.  One of those lines, its addresses "
	    "masked:", p->func, convs, drops_cast(p) ? " of a pointer "
	    "cast to an integer" : "", r->inputs, r->inputs == 1 ? "" : "s",
	    r->count, r->count == 1 ? "" : "s", r->boots, r->boots == 1 ?
	    "" : "s", r->hosts.n, r->hosts.n == 1 ? "" : "s",
	    rel[0] != '\0' ? "; kernel" : "", r->releases.n > 1 ? "s " :
	    rel[0] != '\0' ? " " : "", rel, more);
	wrap(f, t);
	free(t);
	ex = example(r);
	fprintf(f, "\n  %s\n\n", ex);
	free(ex);
	if (p->sf.restricted)
		t = xprintf("A raw address tells whoever reads it where the "
		    "kernel's code, data or stacks are, which defeats KASLR.  "
		    "This is the content of a file that user space reads "
		    "(%s()), so print it with %%pK, which honours "
		    "kptr_restrict, as "
		    "Documentation/core-api/printk-formats.rst asks: \"If "
		    "(and only if) you are printing addresses as a "
		    "content of a virtual file in e.g. procfs or sysfs ... use "
		    "the %%pK modifier\".%s", p->sf.callee, drops_cast(p) ?
		    "  The pointer is passed as it is, no more cast to an "
		    "integer." : "");
	else
		t = xprintf("A raw address in the kernel log tells whoever "
		    "reads the log where the kernel's code, data or stacks "
		    "are, which defeats KASLR.  Print it with %%p instead: "
		    "%%p prints a hash of the pointer, the same for the same "
		    "pointer, so the line can still be told apart and matched, "
		    "unless the kernel is booted with no_hash_pointers "
		    "(Documentation/core-api/printk-formats.rst).%s",
		    drops_cast(p) ? "  The pointer is passed as it is, no more "
		    "cast to an integer." : "");
	wrap(f, t);
	free(t);
	free(convs);
	free(rel);
}

/* Write the patch p to its file in the directory. */
static void
write_patch(struct patch *p, size_t total, const char *who,
    const char *date)
{
	struct kl_error		 err;
	char			*sub, *subject, *path, *diff;
	size_t			 dlen, i, ins = 0, del = 0;
	FILE			*f;

	sub = subsystem(p->path);
	subject = xprintf("%s: do not print a raw kernel pointer in %s()",
	    sub, p->func);
	p->name = slug(p->number, subject);
	path = xprintf("%s/%s", fx.cli->fix_dir, p->name);
	memset(&err, 0, sizeof(err));
	if (kl_srcfix_diff(p->base, p->baselen, p->fixed, p->fixedlen,
	    p->path, &diff, &dlen, &err) != 0)
		log_fatal("%s", err.msg);
	for (i = 0; i < dlen; i++)
		if (i == 0 || diff[i - 1] == '\n') {
			if (diff[i] == '+' && strncmp(diff + i, "+++ ", 4) != 0)
				ins++;
			if (diff[i] == '-' && strncmp(diff + i, "--- ", 4) != 0)
				del++;
		}
	if ((f = fopen(path, "w")) == NULL)
		log_fatal("%s: %s", path, strerror(errno));
	fputs("From 0000000000000000000000000000000000000000 Mon Sep 17 "
	    "00:00:00 2001\nFrom: ", f);
	header_addr(f, who);
	fprintf(f, "\nDate: %s\n", date);
	if (total > 1)
		fprintf(f, "Subject: [PATCH %zu/%zu] %s\n", p->number, total,
		    subject);
	else
		fprintf(f, "Subject: [PATCH] %s\n", subject);
	header_who(f, "To: ", &fx.who[p->file], 1);
	header_who(f, "Cc: ", &fx.who[p->file], 0);
	fputs("MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
	    "Content-Transfer-Encoding: 8bit\n\n", f);
	write_message(f, p);
	fprintf(f, "\nSigned-off-by: %s\n---\n", who);
	fprintf(f, " %s | %zu %.*s%.*s\n", p->path, ins + del,
	    (int)(ins < 32 ? ins : 32), "++++++++++++++++++++++++++++++++",
	    (int)(del < 32 ? del : 32), "--------------------------------");
	fprintf(f, " 1 file changed, %zu insertion%s(+), %zu deletion%s(-)\n"
	    "\n", ins, ins == 1 ? "" : "s", del, del == 1 ? "" : "s");
	fwrite(diff, 1, dlen, f);
	fprintf(f, "-- \n%s %s\n\n", PROGNAME, PACKAGE_VERSION);
	if (ferror(f) | fclose(f))
		log_fatal("%s: %s", path, strerror(errno));
	free(diff);
	free(path);
	free(subject);
	free(sub);
}

/* The date of the patches: $SOURCE_DATE_EPOCH, else now (RFC 2822). */
static void
patch_date(char *b, size_t size)
{
	const char	*e = getenv("SOURCE_DATE_EPOCH");
	struct tm	 tm;
	time_t		 t = time(NULL);
	char		*end;
	long long	 v;

	if (e != NULL && *e != '\0') {
		errno = 0;
		v = strtoll(e, &end, 10);
		if (errno == 0 && *end == '\0' && v >= 0)
			t = (time_t)v;
	}
	if (gmtime_r(&t, &tm) == NULL)
		memset(&tm, 0, sizeof(tm));
	strftime(b, size, "%a, %d %b %Y %H:%M:%S +0000", &tm);
}

/*
 * The fixes of the rows row[0..n) (ranked; the ones printed): their
 * sites, files read, the patches made, checked and written.  Once.
 */
void
fix_rows(struct kl_report_row **row, size_t n)
{
	const struct kl_srcidx	*x = callsite_index();
	struct kl_srcidx_match	 m;
	struct kl_srcidx_site	 s;
	struct patch		*p;
	char			*who, date[64];
	size_t			 i, r, total = 0;

	if (fx.cli == NULL || fx.cli->fix_dir == NULL || x == NULL ||
	    fx.done)
		return;
	fx.done = 1;
	fx.nrow = n;
	fx.row = xreallocarray(NULL, n + 1, sizeof(*fx.row));
	memset(fx.row, 0, (n + 1) * sizeof(*fx.row));
	for (i = 0; i < n; i++) {
		struct rowfix *rf = &fx.row[i];

		rf->row = row[i];
		rf->patch = SIZE_MAX;
		if (callsite_row(row[i], &m, 1) != 1 ||
		    kl_srcidx_site(x, m.site, &s) != 0) {
			rf->state = FIXR_NONE;
			continue;
		}
		if (!raw_conversion(m.conversion)) {
			rf->state = FIXR_NOTRAW;
			rf->why = not_raw(m.conversion);
			continue;
		}
		patch_add(&s, &m, row[i], rf);
	}
	read_files();
	/* In rank order; a file's later patches on top of its earlier. */
	fx.cur = xreallocarray(NULL, fx.nfiles + 1, sizeof(*fx.cur));
	fx.curlen = xreallocarray(NULL, fx.nfiles + 1, sizeof(*fx.curlen));
	for (i = 0; i < fx.nfiles; i++) {
		fx.cur[i] = fx.data[i];
		fx.curlen[i] = fx.len[i];
	}
	for (i = 0; i < fx.np; i++) {
		p = &fx.p[i];
		p->file = file_index(p->path);
		make_fix(p);
		if (p->fixed == NULL)
			continue;
		p->number = ++total;
		fx.cur[p->file] = p->fixed;
		fx.curlen[p->file] = p->fixedlen;
	}
	who = author();
	patch_date(date, sizeof(date));
	for (i = 0; i < fx.np; i++)
		if (fx.p[i].fixed != NULL)
			write_patch(&fx.p[i], total, who, date);
	free(who);
	for (i = 0; i < fx.np; i++) {
		p = &fx.p[i];
		for (r = 0; r < p->nrows; r++) {
			struct rowfix *rf;
			size_t k;

			for (k = 0; k < n && fx.row[k].row != p->rows[r]; k++)
				;
			if (k == n)
				continue;
			rf = &fx.row[k];
			if (p->fixed != NULL && p->ps[p->rowps[r]].why == NULL)
				rf->state = FIXR_PATCH;
			else {
				rf->state = FIXR_NOPATCH;
				rf->why = p->ps[p->rowps[r]].why != NULL ?
				    p->ps[p->rowps[r]].why : p->why;
				rf->integer = p->ps[p->rowps[r]].integer;
			}
		}
	}
}

/* The fix of a row, or NULL (no --fix-dir, or a row not printed). */
const struct rowfix *
fix_row(const struct kl_report_row *r)
{
	size_t	i;

	for (i = 0; i < fx.nrow; i++)
		if (fx.row[i].row == r)
			return (&fx.row[i]);
	return (NULL);
}

/* The name of a row's patch file, or NULL. */
const char *
fix_patch_name(const struct rowfix *rf)
{
	if (rf == NULL || rf->state != FIXR_PATCH)
		return (NULL);
	return (fx.p[rf->patch].name);
}

/* The recipients of the file of a row's call site, or NULL. */
const struct kl_maint_list *
fix_who(const struct rowfix *rf)
{
	const struct patch *p;

	if (rf == NULL || rf->patch == SIZE_MAX)
		return (NULL);
	p = &fx.p[rf->patch];
	if (p->file >= fx.nfiles || fx.maint == NULL)
		return (NULL);
	return (&fx.who[p->file]);
}

/* Line and column (1-based, bytes) of offset off in b. */
static void
line_col(const uint8_t *b, size_t off, uint64_t *line, uint64_t *col)
{
	size_t	i, ls = 0;

	*line = 1;
	for (i = 0; i < off; i++)
		if (b[i] == '\n') {
			(*line)++;
			ls = i + 1;
		}
	*col = off - ls + 1;
}

/*
 * The replacements of a row's patch, in the file as it is: at most max
 * into e (region, new text).  0 when the row has no patch.
 */
size_t
fix_edits(const struct rowfix *rf, struct fixedit *e, size_t max)
{
	const struct patch	*p;
	size_t			 i;

	if (rf == NULL || rf->state != FIXR_PATCH)
		return (0);
	p = &fx.p[rf->patch];
	for (i = 0; i < p->sf.nedit && i < max; i++) {
		line_col(p->base, p->sf.edit[i].off, &e[i].line, &e[i].col);
		line_col(p->base, p->sf.edit[i].off + p->sf.edit[i].len,
		    &e[i].eline, &e[i].ecol);
		e[i].text = p->sf.edit[i].text;
	}
	return (i);
}

/* Free what the fixes hold. */
void
fix_free(void)
{
	size_t	i, k;

	for (i = 0; i < fx.np; i++) {
		kl_srcfix_free(&fx.p[i].sf);
		for (k = 0; k < fx.p[i].nps; k++)
			free(fx.p[i].ps[k].why);
		free(fx.p[i].ps);
		free(fx.p[i].rows);
		free(fx.p[i].rowps);
		free(fx.p[i].path);
		free(fx.p[i].func);
		free(fx.p[i].name);
		free(fx.p[i].why);
		free(fx.p[i].fixed);
	}
	free(fx.p);
	for (i = 0; i < fx.nfiles; i++) {
		free(fx.files[i]);
		if (fx.data != NULL)
			free(fx.data[i]);
		if (fx.who != NULL)
			kl_maint_list_free(&fx.who[i]);
	}
	free(fx.files);
	free(fx.data);
	free(fx.len);
	free(fx.who);
	free(fx.cur);
	free(fx.curlen);
	free(fx.row);
	kl_maint_free(fx.maint);
	memset(&fx, 0, sizeof(fx));
}

/*
 * What a row's conversion printed: "pointer" (a raw one of a pointer, or
 * of what may be one), "integer" (an integer conversion of an integer),
 * "not-raw" (%p, %pS, text).
 */
const char *
fix_kind(const struct rowfix *rf)
{
	if (rf->state == FIXR_NOTRAW)
		return ("not-raw");
	if (rf->state == FIXR_NOPATCH && rf->integer)
		return ("integer");
	return ("pointer");
}
