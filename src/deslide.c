/*
 * deslide.c - the check of --redact-style=deslide: the rewritten bytes of
 * each text unit are scanned again, as they are written, with the same
 * maps (verdict_map(), by the release of each boot's banner), and the
 * KASLR evidence left in each boot segment of the output gives its
 * slide.  A boot the rewriter de-slid must show slide 0 or no evidence
 * at all: the addresses are the map's, and the map is public.  Any other
 * slide means the output still tells it (a line shape the rewriter does
 * not know): rewrite.c then refuses the output.
 *
 * The check has its own engine and scanner; it needs no state of the
 * run but the maps.  Only text units are checked: journal streams and
 * native journals are framed as records, which this plain scan does not
 * do (they are said to be unchecked).
 *
 * A captured system (a sosreport, a copied /proc and /sys, as an archive
 * or a directory) is one kernel at one slide: its kallsyms with the map
 * of its release gives the slide, and that slide applies to every file
 * of the system's present state (proc/, sys/, sos_commands/ but its
 * logs), which print addresses without telling the slide themselves
 * (printk_formats, kprobes, vmallocinfo...).  The kallsyms is read first
 * (deslide_input(): a directory's file, or a first reading of the
 * archive, live-captured.c); from standard input, where the archive
 * cannot be read twice, the slide of its proc/kallsyms applies to the
 * members after it (deslide_learn()).  Logs (var/log, kdump's
 * vmcore-dmesg.txt, journals) hold other boots: only their own evidence
 * counts there.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "kleakscan.h"

/* A captured system being rewritten (deslide_input()). */
static struct {
	int			 on;		/* an operand is one */
	int			 is_dir;
	char			 root[PATH_MAX];
	char			 release[128];
	struct buf		 kallsyms;
	int			 kallsyms_addr;	/* it shows addresses */
	struct kl_symtab	*own;		/* its boot/System.map */
	char			 ownname[2 * PATH_MAX + 8];
	const struct kl_symtab	*map;
	const char		*mapname;
	int			 known;		/* the slide is known */
	uint64_t		 slide;
	unsigned		 votes;
	int			 unit;		/* the unit is of its present
						   state */
	int			 unit_kallsyms;	/* ...its proc/kallsyms */
} cap;

static struct {
	const struct cli	*cli;
	struct kl_engine	*engine;
	struct kl_scan		*sc;
	int			 on;		/* the unit is checked */
	int			 failed;	/* the scan failed */
	struct kl_kaslr		 k;		/* of the open segment */
	char			 release[128];
	struct check_boot	*b;		/* the unit's boots */
	size_t			 nb;
	size_t			 cb;
	struct buf		 esc;
} ck;

/* The open segment starts again, with no map until its banner. */
static void
seg_start(void)
{
	const struct kl_symtab	*map;

	ck.release[0] = '\0';
	map = cap.unit && cap.map != NULL ? cap.map : verdict_map(NULL, NULL);
	kl_kaslr_init(&ck.k, ck.cli->kl.arch, map);
	kl_kaslr_set_page_offset(&ck.k, ck.cli->kl.page_offset);
	kl_kaslr_set_release(&ck.k, map != NULL ? kl_sym_release(map) : NULL);
}

/* A line of the output: its banner's release picks the map; evidence. */
static int
on_line(void *arg, const struct kl_line *l)
{
	static const char	 lit[] = "Linux version ";
	const struct kl_symtab	*map;
	const uint8_t		*m;
	size_t			 i, n, k = sizeof(lit) - 1;

	(void)arg;
	if (l->banner && (m = memmem(l->text, l->len, lit, k)) != NULL) {
		n = l->len - (size_t)(m - l->text);
		for (i = k; i < n && m[i] > ' ' && m[i] < 0x7f &&
		    i - k < sizeof(ck.release) - 1; i++)
			;
		memcpy(ck.release, m + k, i - k);
		ck.release[i - k] = '\0';
		if ((map = verdict_map(ck.release, NULL)) == NULL &&
		    cap.unit)
			map = cap.map;
		kl_kaslr_set_map(&ck.k, map);
		kl_kaslr_set_release(&ck.k, ck.release);
	}
	(void)kl_kaslr_line(&ck.k, l->line, l->text + l->msg,
	    l->len - l->msg);
	return (0);
}

/* A finding of the output: the segment's architecture, for the slide. */
static int
on_finding(void *arg, const struct kl_finding *f)
{
	(void)arg;
	if (f->suppressed == KL_SUP_NONE && f->arch != KL_ARCH_AUTO)
		kl_kaslr_set_arch(&ck.k, f->arch);
	return (0);
}

/* A boot segment of the output ended: the slide its evidence gives. */
static int
on_boot(void *arg, const struct kl_boot *b)
{
	struct kl_boot_verdict	 v;
	struct check_boot	*c;

	(void)arg;
	if (b->arch != KL_ARCH_AUTO)
		kl_kaslr_set_arch(&ck.k, b->arch);
	if (ck.nb == ck.cb) {
		ck.cb = ck.cb == 0 ? 16 : ck.cb * 2;
		ck.b = xreallocarray(ck.b, ck.cb, sizeof(*ck.b));
	}
	c = &ck.b[ck.nb++];
	memset(c, 0, sizeof(*c));
	c->boot = b->boot;
	kl_kaslr_verdict(&ck.k, &v);
	c->has_slide = v.has_slide;
	c->slide = v.slide;
	c->votes = v.slide_votes;
	seg_start();
	return (0);
}

/* Make the check's engine and scanner (--redact-style=deslide). */
void
deslide_init(const struct cli *cli)
{
	struct kl_sink	sink;
	struct kl_error	err;

	memset(&ck, 0, sizeof(ck));
	ck.cli = cli;
	memset(&err, 0, sizeof(err));
	if ((ck.engine = kl_engine_new(&cli->kl, &err)) == NULL)
		log_fatal("cannot set up the deslide check: %s", err.msg);
	memset(&sink, 0, sizeof(sink));
	sink.finding = on_finding;
	sink.line = on_line;
	sink.boot = on_boot;
	if ((ck.sc = kl_scan_new(ck.engine, &sink, &err)) == NULL)
		log_fatal("cannot set up the deslide check: %s", err.msg);
}

/* A unit starts: checked when on (a text unit). */
void
deslide_begin(int on)
{
	ck.on = ck.sc != NULL && on;
	ck.failed = 0;
	ck.nb = 0;
	if (!ck.on)
		return;
	kl_scan_reset(ck.sc);
	seg_start();
}

/* The next rewritten bytes of the unit. */
void
deslide_feed(const void *p, size_t n)
{
	struct kl_error	err;

	if (!ck.on || ck.failed)
		return;
	memset(&err, 0, sizeof(err));
	if (kl_scan_feed(ck.sc, p, n, &err) != 0)
		ck.failed = 1;
}

/*
 * The unit was written whole: the boots of its output and the slide
 * each shows (*b, valid until the next unit; b NULL: the unit failed,
 * its check is dropped).  Returns their number, or -1 when the unit was
 * not checked (not a text unit, or the scan failed).
 */
ssize_t
deslide_end(const struct check_boot **b)
{
	struct kl_error	err;

	if (b != NULL)
		*b = NULL;
	if (!ck.on)
		return (-1);
	ck.on = 0;
	memset(&err, 0, sizeof(err));
	if (ck.failed || kl_scan_end(ck.sc, &err) != 0 || b == NULL)
		return (-1);
	*b = ck.b;
	return ((ssize_t)ck.nb);
}

/* Forget the captured system of the last operand. */
static void
cap_clear(void)
{
	buf_free(&cap.kallsyms);
	kl_sym_free(cap.own);
	memset(&cap, 0, sizeof(cap));
}

/* Free the check. */
void
deslide_free(void)
{
	kl_scan_free(ck.sc);
	kl_engine_free(ck.engine);
	free(ck.b);
	buf_free(&ck.esc);
	memset(&ck, 0, sizeof(ck));
	cap_clear();
}

/* The files of a captured system that deslide_input() reads. */
static int
cap_want(void *arg, const char *rel)
{
	(void)arg;
	return (strcmp(rel, "proc/kallsyms") == 0 ||
	    strcmp(rel, "proc/sys/kernel/osrelease") == 0 ||
	    strcmp(rel, "sos_commands/kernel/uname_-a") == 0 ||
	    (strncmp(rel, "boot/System.map-", 16) == 0 && cap.own == NULL));
}

/* The n-th blank-separated word of p[0..len) into out. */
static void
cap_word(const char *p, size_t len, int n, char *out, size_t size)
{
	size_t	i = 0, s;

	out[0] = '\0';
	for (;;) {
		while (i < len && (p[i] == ' ' || p[i] == '\t' ||
		    p[i] == '\n'))
			i++;
		for (s = i; i < len && p[i] != ' ' && p[i] != '\t' &&
		    p[i] != '\n'; i++)
			;
		if (s == i)
			return;
		if (n-- == 0) {
			snprintf(out, size, "%.*s", (int)(i - s), p + s);
			return;
		}
	}
}

/* A file of the captured system, read. */
static void
cap_got(void *arg, const char *rel, const char *p, size_t n)
{
	struct kl_symrange	r;
	struct kl_error		err;

	(void)arg;
	if (strcmp(rel, "proc/kallsyms") == 0) {
		buf_reserve(&cap.kallsyms, n + 1);
		memcpy(cap.kallsyms.p, p, n);
		cap.kallsyms.len = n;
		cap.kallsyms_addr = kl_live_symrange(p, n, 64, &r) > 0 ||
		    kl_live_symrange(p, n, 32, &r) > 0;
	} else if (strcmp(rel, "proc/sys/kernel/osrelease") == 0)
		cap_word(p, n, 0, cap.release, sizeof(cap.release));
	else if (strcmp(rel, "sos_commands/kernel/uname_-a") == 0) {
		if (cap.release[0] == '\0')
			cap_word(p, n, 2, cap.release, sizeof(cap.release));
	} else {
		memset(&err, 0, sizeof(err));
		if ((cap.own = kl_sym_load_mem(p, n, rel + 5, &err)) != NULL)
			snprintf(cap.ownname, sizeof(cap.ownname), "%s{%s}",
			    cap.root, rel);
	}
}

/*
 * The slide of the captured system: its kallsyms lines, each with the
 * address of its symbol in the map (kaslr-line.c), agree on one.
 */
static void
cap_slide(void)
{
	struct kl_kaslr	 k;
	const char	*p = cap.kallsyms.p, *e, *end;
	uint64_t	 line = 0;

	if (cap.map == NULL || cap.kallsyms.len == 0)
		return;
	kl_kaslr_init(&k, ck.cli->kl.arch, cap.map);
	kl_kaslr_set_release(&k, cap.release[0] != '\0' ? cap.release :
	    NULL);
	for (end = p + cap.kallsyms.len; p < end; p = e + 1) {
		if ((e = memchr(p, '\n', (size_t)(end - p))) == NULL)
			e = end;
		(void)kl_kaslr_line(&k, ++line, (const uint8_t *)p,
		    (size_t)(e - p));
	}
	cap.known = kl_kaslr_slide(&k, &cap.slide);
	if (cap.known) {
		struct kl_boot_verdict	v;

		kl_kaslr_verdict(&k, &v);
		cap.votes = v.slide_votes;
	}
}

/*
 * --redact-style=deslide, an operand: when it is a captured system (a
 * directory holding proc/kallsyms, or an archive whose members do),
 * learn its release, its map (--system-map, --system-map-dir, else its
 * own boot/System.map-RELEASE) and the slide its kallsyms gives.
 */
void
deslide_input(const char *path)
{
	struct stat	st;
	const char	*rel;
	char		 kpath[PATH_MAX + 16];
	size_t		 n;

	cap_clear();
	if (stat(path, &st) == -1)
		return;
	cap.is_dir = S_ISDIR(st.st_mode);
	if (cap.is_dir) {
		snprintf(kpath, sizeof(kpath), "%s/proc/kallsyms", path);
		if (access(kpath, R_OK) == -1)
			return;
	} else if (!S_ISREG(st.st_mode))
		return;
	snprintf(cap.root, sizeof(cap.root), "%s", path);
	/* Walked files are named root/rel: "dir/" is the root "dir". */
	for (n = strlen(cap.root); n > 1 && cap.root[n - 1] == '/'; n--)
		cap.root[n - 1] = '\0';
	if (captured_kernel_files(path, cap.is_dir, cap_want, cap_got,
	    NULL) == -1 || cap.kallsyms.len == 0) {
		cap_clear();
		return;
	}
	cap.on = 1;
	if ((cap.map = verdict_map(cap.release, &cap.mapname)) == NULL &&
	    cap.own != NULL) {
		rel = kl_sym_release(cap.own);
		if (rel == NULL || cap.release[0] == '\0' ||
		    strcmp(rel, cap.release) == 0) {
			cap.map = cap.own;
			cap.mapname = cap.ownname;
		}
	}
	cap_slide();
	if (!cap.kallsyms_addr)
		log_note(print_name_esc(&ck.esc, path, strlen(path), 0),
		    "captured system (release %s): its kallsyms shows no "
		    "addresses", cap.release[0] != '\0' ? cap.release :
		    "unknown");
	else if (cap.map == NULL)
		log_note(print_name_esc(&ck.esc, path, strlen(path), 0),
		    "captured system (release %s): no System.map of its "
		    "kernel, so its kallsyms and the addresses of its "
		    "present state are written in the style of the rest; "
		    "give --system-map or --system-map-dir to keep them at "
		    "the map's addresses", cap.release[0] != '\0' ?
		    cap.release : "unknown");
	else if (!cap.known)
		log_note(print_name_esc(&ck.esc, path, strlen(path), 0),
		    "captured system (release %s): its kallsyms and the map "
		    "%s give no slide", cap.release[0] != '\0' ?
		    cap.release : "unknown", cap.mapname);
	else
		log_note(print_name_esc(&ck.esc, path, strlen(path), 0),
		    "captured system (release %s): slide from its kallsyms "
		    "and the map %s (%u lines agree); it applies to the "
		    "files of its present state", cap.release[0] != '\0' ?
		    cap.release : "unknown", cap.mapname, cap.votes);
}

/*
 * --redact-style=deslide, standard input (named name): an archive of a
 * captured system cannot be read twice; its proc/kallsyms gives the
 * slide for the members after it (deslide_learn()).
 */
void
deslide_stream(const char *name)
{
	cap_clear();
	cap.on = 1;
	snprintf(cap.root, sizeof(cap.root), "%s", name);
	cap.map = verdict_map(NULL, &cap.mapname);
}

/* Is rel, relative to a captured system's root, of its present state? */
static int
present_state(const char *rel)
{
	if (strncmp(rel, "proc/", 5) == 0 || strncmp(rel, "sys/", 4) == 0)
		return (1);
	return (strncmp(rel, "sos_commands/", 13) == 0 &&
	    strncmp(rel, "sos_commands/logs/", 18) != 0 &&
	    strstr(rel, "journal") == NULL);
}

/*
 * A unit starts (path, and the members chain of an archive): is it a
 * file of the present state of the captured system being rewritten?
 * Then the system's map and slide are its (verdict_capture()).
 */
void
deslide_unit(const char *path, const char *const *members, size_t nmembers)
{
	const char	*rel = NULL;
	size_t		 n;

	cap.unit = cap.unit_kallsyms = 0;
	if (!cap.on)
		return;
	if (cap.is_dir) {
		n = strlen(cap.root);
		if (nmembers == 0 && strncmp(path, cap.root, n) == 0 &&
		    path[n] == '/')
			for (rel = path + n; *rel == '/'; rel++)
				;
	} else if (nmembers > 0 && strcmp(path, cap.root) == 0)
		rel = kl_live_relpath(members[0]);
	if (rel == NULL || !present_state(rel))
		return;
	cap.unit = 1;
	cap.unit_kallsyms = strcmp(rel, "proc/kallsyms") == 0;
	if (cap.known || cap.map != NULL)
		verdict_capture(cap.release, cap.map, cap.mapname, cap.known,
		    cap.slide);
}

/*
 * A boot of the unit was decided (rewrite.c): a captured system read
 * from a stream learns its slide from its proc/kallsyms, for the files
 * after it.
 */
void
deslide_learn(const struct kl_redact_image *img)
{
	if (cap.unit_kallsyms && !cap.known && img->known &&
	    cap.map != NULL) {
		cap.known = 1;
		cap.slide = img->slide;
	}
}
