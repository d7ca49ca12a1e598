/*
 * scan.c - the scanning pipeline for one unit (a file, stdin, a member).
 *
 * Bytes are fed in any pieces into one bounded window.  Complete lines
 * are framed (frame.c), searched for candidates (candidate.c or the
 * PCRE2 engine), and each candidate is classified (classify.c) in the
 * layout of the boot segment's architecture.  A line longer than the
 * window is scanned in windows cut at a boundary byte, keeping a little
 * context, so every token is found exactly once and memory stays
 * bounded.  With --arch auto, candidates wait (copied, bounded) until
 * detect.c is certain of the architecture or the boot segment ends.
 *
 * Report segments: once a segment's architecture is decided, a report
 * header (kl_detect_report(): a banner, "CPU: .. PID: .. Comm:",
 * "Hardware name:", Oops/BUG:/KASAN: headers) opens a watch: the
 * report's own lines go to a fresh detector (rdet) and its candidates
 * wait again.  When the report's evidence names another architecture
 * (a mail quoting an x86 report on linux-s390), the report becomes a
 * segment of its own from its header on; otherwise the waiting tokens
 * are emitted in the segment's architecture, exactly as without the
 * watch, so single-machine logs read the same.  All of it lives in
 * watch_begin(), watch_line(), watch_end() and the decide() hook.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "scan-int.h"

#define CTX_KEEP	256		/* bytes kept before a window cut */
#define LTEXT_MAX	4096		/* longer lines print a window */
#define LTEXT_SIDE	512		/* bytes each side of the token */
#define FRAME_MAX	512		/* bytes of a line given to framing */
#define DETECT_MAX	1024		/* bytes of a message given to detect */
#define PEND_TOKENS	4096		/* pending tokens before forcing */
#define PEND_BYTES	(4u << 20)	/* pending copied bytes, likewise */
#define TOKS		256		/* tokens per finder call */
#define INPLACE_MIN	1024		/* feeds scanned where they lie */
#define NO_LINE		SIZE_MAX
#define WATCH_LINES	64		/* lines a report watch reads at most */
#define GLUE_SCAN	256		/* bytes searched back for a "#012" */

static const char unhashed_banner[] =
    "** This system shows unhashed kernel memory addresses";

/*
 * A candidate waiting for the architecture to be known, or (is_line) a
 * line event held behind such candidates during a report watch, so the
 * sink sees lines and findings in the order of the log.
 */
struct pend {
	int		 is_line;	/* a kl_line: msg, banner (msg_head) */
	size_t		 off;		/* copied bytes in the arena */
	size_t		 len;
	size_t		 msg;		/* message start within the copy */
	int		 msg_head;
	struct kl_token	 tok;		/* start relative to the copy */
	uint64_t	 line;
	uint64_t	 column;
	uint64_t	 offset;
	uint64_t	 lcol;		/* column of the copy's first byte */
	unsigned	 flags;		/* KL_F_*_CUT */
	int		 nohash;	/* the line holds no '#' */
	int		 has_rec;	/* rec holds a copy of the record */
	struct kl_record rec;
	size_t		 field;		/* arena offsets of rec's strings */
	size_t		 cursor;
};

struct kl_scan {
	const struct kl_engine	*eng;
	const struct kl_options	*opt;
	struct kl_sink		 sink;
	void			*md;		/* PCRE2 match data */
	int			 stopped;

	/* the window, or the fed bytes */
	uint8_t			*buf;
	uint8_t			*win;		/* the window's memory */
	size_t			 cap;
	size_t			 len;
	size_t			 done;		/* scanned up to here */
	uint64_t		 base;		/* offset of buf[0] in unit */
	int			 skip_alnum;	/* inside an over-long run */
	/* buf is the caller's: window cap */
	size_t			 inplace;

	/* No run of 8 hex digits starts in buf[runfrom, run) (fast engine). */
	int			 runok;
	size_t			 runfrom;
	size_t			 run;		/* the next one, or runlim */
	size_t			 runlim;	/* sc->len when it was sought */

	/* The current line. */
	/* its start in buf, or NO_LINE */
	size_t			 ls;
	uint64_t		 ls_abs;	/* its start in the unit */
	uint64_t		 lineno;
	int			 framed;
	uint64_t		 msg_abs;	/* message start in the unit */
	/*
	 * Set by process() for frame_line() alone: when the line was read
	 * from its start, the first byte of it that may start a no-break
	 * space (kl_line_end()), else 0: kl_mail_suspect_from() reads on.
	 */
	size_t			 mail_from;
	/*
	 * Set by process(): the current line, read from its start to its
	 * end, holds no '#' (kl_line_end()'s mark), so no "#012"; 0 when
	 * not known (a line longer than the window).
	 */
	int			 nohash;
	enum kl_line_kind	 prev_kind;

	/* The boot segment. */
	unsigned		 boot;
	int			 seg_banner;	/* a banner was seen */
	int			 seg_lines;
	uint64_t		 last_ts;
	int			 have_ts;
	/*
	 * A chunk scanner (kl_scan_spec_begin()): the clock of the lines
	 * before the chunk is not known.  The first line that would have
	 * compared with it sets ts_need and ts_first, and is read as no
	 * new boot; kl_scan_spec_ok() checks the real clock agrees.
	 */
	int			 spec_ts;
	int			 ts_need;
	uint64_t		 ts_first;
	/*
	 * A chunk scanner's first new boot segment started in frame_line()
	 * (the resync point, see kl_scan_resync()): the line, its offset,
	 * what its framing and the boot test read, the counters then.
	 * After it, prior and st.arch are the real scan's, not known here:
	 * prior_spec, starch_spec until set; prior_used when read so.
	 */
	int			 spec_mode;
	int			 rs_done;
	uint64_t		 rs_line;
	unsigned		 rs_bootno;	/* boot, after it */
	uint64_t		 rs_off;
	enum kl_line_kind	 rs_pk;
	int			 rs_boot;
	int			 rs_has_ts;
	uint64_t		 rs_ts;
	struct kl_stats		 rs_st;
	int			 prior_spec;
	int			 starch_spec;
	int			 prior_used;
	void			(*mark)(void *);	/* at the resync */
	unsigned		 seg_flags;	/* KL_F_UNHASHED */
	uint64_t		 seg_first;	/* first line of the segment */
	uint64_t		 seg_off;	/* ... its unit offset */
	struct kl_detect	 det;
	/* decided arch, AUTO: pending */
	enum kl_arch_id		 arch;
	unsigned		 widths;	/* arch_widths(arch) */
	int			 decided;
	enum kl_arch_id		 prior;		/* last decided arch of unit */
	struct kl_layout	 layout;
	struct kl_anchors	 anchors;

	/* The report watch (see the top of this file). */
	int			 watch;		/* tokens wait for rdet */
	int			 watch_banner;	/* a banner was seen in it */
	int			 watch_lines;	/* lines it read */
	uint64_t		 watch_line;	/* the header's line */
	uint64_t		 watch_off;	/* ... its unit offset */
	struct kl_detect	 rdet;		/* the report's evidence */

	/* Pending candidates (--arch auto). */
	struct pend		*pend;
	size_t			 npend;
	size_t			 nlines;	/* of them line events */
	size_t			 pendcap;
	uint8_t			*arena;
	size_t			 arenalen;
	size_t			 arenacap;

	/* journal field being scanned */
	const struct kl_record	*rec;

	struct kl_stats		 st;
	struct kl_token		 toks[TOKS];
};

/*
 * Token width bits (kl_cand_*) for an architecture.  With none known,
 * both: 16 digits for the 64-bit union, 8 for what context alone says
 * (emit()).
 */
static unsigned
arch_widths(enum kl_arch_id id)
{
	const struct kl_arch *a;

	if (id == KL_ARCH_AUTO)
		return (3);
	a = kl_arch_get(id);
	if (a == NULL)
		return (2);
	return (a->bits == 32 ? 1 : 2);
}

/* Make the layout for id current; the unknown union when that fails. */
static void
set_arch(struct kl_scan *sc, enum kl_arch_id id)
{
	struct kl_error err;
	uint64_t po = sc->opt->page_offset;

	if (po == 0 && (id == KL_ARCH_ARM || id == KL_ARCH_I386))
		po = sc->det.page_offset;	/* a split seen in frames */
	sc->arch = id;
	sc->widths = arch_widths(id);
	sc->decided = 1;
	if (kl_arch_layout(id, po, &sc->layout, &err) == -1)
		(void)kl_arch_layout(KL_ARCH_AUTO, 0, &sc->layout, &err);
	kl_arch_refine(&sc->layout, sc->det.kver);
	if (id != KL_ARCH_AUTO) {
		sc->prior = id;
		sc->prior_spec = 0;
	}
	sc->st.arch = id;
	sc->starch_spec = 0;
}

/*
 * Where the last line glued into m[0, n) by rsyslog's "#012" (an escaped
 * newline) starts, or 0 when none is within GLUE_SCAN bytes: a multi-line
 * message stored on one syslog line.  Context looks no further back.
 */
static size_t
glued_line(const uint8_t *m, size_t n)
{
	size_t i, lim = n > GLUE_SCAN ? n - GLUE_SCAN : 0;

	if (n < 4 || memchr(m + lim, '#', n - lim) == NULL)
		return (0);
	for (i = n; i >= lim + 4; i--)
		if (m[i - 4] == '#' && m[i - 3] == '0' && m[i - 2] == '1' &&
		    m[i - 1] == '2')
			return (i);
	return (0);
}

/* The end of the line glued into m[from, n) up to the next "#012". */
static size_t
glued_end(const uint8_t *m, size_t n, size_t from)
{
	size_t i, lim = n - from > GLUE_SCAN ? from + GLUE_SCAN : n;
	const uint8_t *p;

	for (i = from; i + 4 <= lim &&
	    (p = memchr(m + i, '#', lim - i)) != NULL; i++) {
		i = (size_t)(p - m);
		if (i + 4 <= n && p[1] == '0' && p[2] == '1' && p[3] == '2')
			return (i);
	}
	return (n);
}

/* Classify one token and hand it to the sink.  Returns non-zero to stop. */
static int
emit(struct kl_scan *sc, const uint8_t *lb, size_t ll, size_t msg,
    int msg_head, int nohash, const struct kl_token *t, uint64_t line,
    uint64_t column, uint64_t offset, uint64_t lcol, unsigned flags,
    const struct kl_record *rec)
{
	struct kl_ctx ctx;
	struct kl_verdict v;
	struct kl_finding f;
	size_t lo, hi, rs;

	if ((sc->widths & (t->len == 16 ? 2 : 1)) == 0)
		return (0);
	if (msg > t->start)
		msg = t->start;
	/* rsyslog's "#012" escapes a newline: a message line starts after. */
	if (!nohash && (rs = glued_line(lb + msg, t->start - msg)) != 0) {
		msg += rs;
		msg_head = 1;
	}
	ctx.msg = lb + msg;
	ctx.len = ll - msg;
	/* ...and ends before the next one. */
	if (!nohash)
		ctx.len = glued_end(ctx.msg, ctx.len,
		    t->start - msg + t->len);
	ctx.tok = t->start - msg;
	ctx.toklen = t->len;
	ctx.prefix = t->prefix;
	ctx.msg_head = msg_head;
	kl_classify(&sc->layout, &sc->anchors, &ctx, t->value, &v);
	/*
	 * No architecture: the union layout is 64-bit, and an 8-digit value
	 * counts only where its line's context says kernel.
	 */
	if (t->len == 8 && sc->layout.arch == NULL &&
	    (v.flags & KL_V_CONTEXT) == 0)
		return (0);
	sc->st.candidates++;
	if (v.suppressed == KL_SUP_NONE) {
		if (v.flags & KL_V_ANCHOR)
			kl_anchors_add(&sc->anchors, v.region, t->value);
		sc->st.findings++;
		sc->st.region[v.region]++;
	} else {
		sc->st.suppressed[v.suppressed]++;
		if (!sc->opt->suppressed)
			return (0);
	}
	if (sc->sink.finding == NULL)
		return (0);

	/* Print the whole line, or a window of it around the token. */
	lo = 0;
	hi = ll;
	if (ll > LTEXT_MAX) {
		if (t->start > LTEXT_SIDE) {
			lo = t->start - LTEXT_SIDE;
			flags |= KL_F_HEAD_CUT;
		}
		if (ll - (t->start + t->len) > LTEXT_SIDE) {
			hi = t->start + t->len + LTEXT_SIDE;
			flags |= KL_F_TAIL_CUT;
		}
	}
	memset(&f, 0, sizeof(f));
	f.line = line;
	f.column = column;
	f.offset = offset;
	f.value = t->value;
	f.text = lb + t->start;
	f.textlen = t->len;
	f.prefix = t->prefix;
	f.arch = sc->arch == KL_ARCH_AUTO ? KL_ARCH_UNKNOWN : sc->arch;
	f.region = v.suppressed == KL_SUP_NONE ? v.region : KL_REGION_NONE;
	f.severity = v.suppressed == KL_SUP_NONE ? v.severity : KL_SEV_NONE;
	f.confidence = v.confidence;
	f.suppressed = v.suppressed;
	f.rule = v.rule != NULL ? v.rule : "value";
	f.boot = sc->boot;
	f.flags = flags | sc->seg_flags;
	f.ltext = lb + lo;
	f.llen = hi - lo;
	f.lcol = lcol + lo;
	f.record = rec;
	f.lmsg = msg > lo ? msg - lo : 0;
	if (sc->sink.finding(sc->sink.arg, &f) != 0) {
		sc->stopped = 1;
		return (1);
	}
	return (0);
}

/* Classify and emit every pending token, in order, then drop them. */
static int
flush_pending(struct kl_scan *sc)
{
	struct pend *p;
	size_t i;
	int rc = 0;

	for (i = 0; i < sc->npend && rc == 0; i++) {
		p = &sc->pend[i];
		if (p->has_rec) {
			p->rec.field = (const char *)sc->arena + p->field;
			p->rec.cursor = p->cursor == SIZE_MAX ? NULL :
			    (const char *)sc->arena + p->cursor;
		}
		if (p->is_line) {
			struct kl_line l;

			l.line = p->line;
			l.text = sc->arena + p->off;
			l.len = p->len;
			l.msg = p->msg;
			l.offset = p->offset;
			l.boot = sc->boot;
			l.banner = p->msg_head;
			l.record = p->has_rec ? &p->rec : NULL;
			if (sc->sink.line(sc->sink.arg, &l) != 0) {
				sc->stopped = 1;
				rc = 1;
			}
			continue;
		}
		rc = emit(sc, sc->arena + p->off, p->len, p->msg, p->msg_head,
		    p->nohash, &p->tok, p->line, p->column, p->offset, p->lcol,
		    p->flags, p->has_rec ? &p->rec : NULL);
	}
	sc->npend = 0;
	sc->nlines = 0;
	sc->arenalen = 0;
	return (rc);
}

static int watch_end(struct kl_scan *, int);

/* Settle the architecture of the segment now and flush what waited. */
static int
decide(struct kl_scan *sc, int final)
{
	enum kl_arch_id id;

	if (sc->watch)
		return (watch_end(sc, final));
	if (final)
		kl_detect_finish(&sc->det);
	id = sc->det.arch;
	if (id == KL_ARCH_AUTO && final) {
		sc->prior_used |= sc->prior_spec;
		id = sc->prior;
	}
	set_arch(sc, id);
	return (flush_pending(sc));
}

/* Grow a buffer to hold need elements of size sz, up to a cap. */
static int
grow(void **p, size_t *cap, size_t need, size_t sz)
{
	size_t nc, bytes;
	void *np;

	if (need <= *cap)
		return (0);
	nc = *cap == 0 ? 64 : *cap;
	while (nc < need)
		if (kl_mul(nc, 2, &nc) == -1)
			return (-1);
	if (kl_mul(nc, sz, &bytes) == -1)
		return (-1);
	if ((np = realloc(*p, bytes)) == NULL)
		return (-1);
	*p = np;
	*cap = nc;
	return (0);
}

/*
 * Copy the journal record of the event held in p (its field name, fl
 * bytes, and cursor, cl bytes, each with its NUL) into the arena, which
 * has room for them.
 */
static void
pend_rec(struct kl_scan *sc, struct pend *p, size_t fl, size_t cl)
{
	p->has_rec = sc->rec != NULL;
	if (p->has_rec) {
		p->rec = *sc->rec;
		p->field = sc->arenalen;
		memcpy(sc->arena + sc->arenalen, sc->rec->field, fl);
		sc->arenalen += fl;
		p->cursor = SIZE_MAX;
		if (cl > 0) {
			p->cursor = sc->arenalen;
			memcpy(sc->arena + sc->arenalen, sc->rec->cursor, cl);
			sc->arenalen += cl;
		}
	}
}

/*
 * Keep a token for later: copy the line (or a window of it) and the
 * token's coordinates.  Forces a decision when the caps are reached.
 */
static int
pend_token(struct kl_scan *sc, const uint8_t *lb, size_t ll, size_t msg,
    int msg_head, const struct kl_token *t, uint64_t line, uint64_t column,
    uint64_t offset, uint64_t lcol, unsigned flags, struct kl_error *err)
{
	struct pend *p;
	size_t lo = 0, hi = ll, n, fl = 0, cl = 0, need;

	if (ll > LTEXT_MAX) {
		if (t->start > LTEXT_SIDE) {
			lo = t->start - LTEXT_SIDE;
			flags |= KL_F_HEAD_CUT;
			msg_head = msg_head && msg >= lo;
		}
		if (ll - (t->start + t->len) > LTEXT_SIDE) {
			hi = t->start + t->len + LTEXT_SIDE;
			flags |= KL_F_TAIL_CUT;
		}
	}
	n = hi - lo;
	if (sc->rec != NULL) {
		fl = strlen(sc->rec->field) + 1;
		cl = sc->rec->cursor != NULL ? strlen(sc->rec->cursor) + 1 : 0;
	}
	need = n + fl + cl;
	if (sc->npend >= PEND_TOKENS || sc->arenalen + need > PEND_BYTES) {
		if (decide(sc, 0) != 0)
			return (1);
		return (emit(sc, lb, ll, msg, msg_head, sc->nohash, t, line,
		    column, offset, lcol, flags, sc->rec));
	}
	if (grow((void **)&sc->pend, &sc->pendcap, sc->npend + 1,
	    sizeof(*sc->pend)) == -1 ||
	    grow((void **)&sc->arena, &sc->arenacap, sc->arenalen + need,
	    1) == -1) {
		kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
		return (-1);
	}
	memcpy(sc->arena + sc->arenalen, lb + lo, n);
	p = &sc->pend[sc->npend++];
	p->is_line = 0;
	p->off = sc->arenalen;
	p->len = n;
	p->msg = msg > lo ? msg - lo : 0;
	p->msg_head = msg_head;
	p->tok = *t;
	p->tok.start -= lo;
	p->line = line;
	p->column = column;
	p->offset = offset;
	p->lcol = lcol + lo;
	p->flags = flags;
	p->nohash = sc->nohash;
	sc->arenalen += n;
	pend_rec(sc, p, fl, cl);
	return (0);
}

/*
 * Hold the line event l behind the waiting candidates (report watch).
 * When the caps are reached or memory is short, the candidates are
 * settled and l is delivered at once.  Returns non-zero to stop.
 */
static int
pend_line(struct kl_scan *sc, const struct kl_line *l)
{
	struct pend *p;
	size_t n = l->len, fl = 0, cl = 0, need;

	if (sc->rec != NULL) {
		fl = strlen(sc->rec->field) + 1;
		cl = sc->rec->cursor != NULL ? strlen(sc->rec->cursor) + 1 : 0;
	}
	need = n + fl + cl;
	if (sc->npend >= PEND_TOKENS || sc->arenalen + need > PEND_BYTES ||
	    grow((void **)&sc->pend, &sc->pendcap, sc->npend + 1,
	    sizeof(*sc->pend)) == -1 ||
	    grow((void **)&sc->arena, &sc->arenacap, sc->arenalen + need,
	    1) == -1) {
		if (decide(sc, 0) != 0)
			return (1);
		if (sc->sink.line(sc->sink.arg, l) != 0) {
			sc->stopped = 1;
			return (1);
		}
		return (0);
	}
	memcpy(sc->arena + sc->arenalen, l->text, n);
	p = &sc->pend[sc->npend++];
	sc->nlines++;
	p->is_line = 1;
	p->off = sc->arenalen;
	p->len = n;
	p->msg = l->msg < n ? l->msg : n;
	p->msg_head = l->banner;
	p->line = l->line;
	p->offset = l->offset;
	sc->arenalen += n;
	pend_rec(sc, p, fl, cl);
	return (0);
}

/*
 * Tell the sink that the boot segment ends at line last, whose last
 * byte is at unit offset last_off.
 */
static int
boot_end(struct kl_scan *sc, uint64_t last, uint64_t last_off)
{
	struct kl_boot b;

	if (sc->sink.boot == NULL)
		return (0);
	memset(&b, 0, sizeof(b));
	b.boot = sc->boot;
	b.first_line = sc->seg_first;
	b.last_line = last;
	b.arch = sc->arch;
	b.first_offset = sc->seg_off;
	b.last_offset = last_off;
	if (sc->sink.boot(sc->sink.arg, &b) != 0) {
		sc->stopped = 1;
		return (1);
	}
	return (0);
}

/*
 * Close the boot segment, whose last line is last: flush what waited,
 * start a fresh one.  next is the unit offset of the line after last.
 */
static int
new_segment(struct kl_scan *sc, uint64_t last, uint64_t next)
{
	int rc = 0;

	if (!sc->decided)
		rc = decide(sc, 1);
	if (rc == 0)
		rc = boot_end(sc, last, next > 0 ? next - 1 : 0);
	sc->seg_first = last + 1;
	sc->seg_off = next;
	sc->boot++;
	sc->st.boots++;
	sc->seg_banner = 0;
	sc->seg_lines = 0;
	sc->seg_flags = 0;
	sc->have_ts = 0;
	sc->spec_ts = 0;
	memset(&sc->anchors, 0, sizeof(sc->anchors));
	if (sc->opt->arch == KL_ARCH_AUTO) {
		kl_detect_init(&sc->det);
		sc->decided = 0;
		sc->arch = KL_ARCH_AUTO;
		sc->widths = arch_widths(KL_ARCH_AUTO);
	}
	return (rc);
}

/* How many waiting tokens layout l reads as kernel addresses. */
static size_t
pending_kernel(const struct kl_scan *sc, const struct kl_layout *l)
{
	struct kl_region_hit hit;
	unsigned w;
	size_t i, n = 0;

	w = l->arch != NULL && l->arch->bits == 32 ? 8 : 16;
	for (i = 0; i < sc->npend; i++) {
		if (sc->pend[i].is_line || sc->pend[i].tok.len != w)
			continue;
		kl_arch_lookup(l, sc->pend[i].tok.value, &hit);
		if (hit.region != KL_REGION_NONE)
			n++;
	}
	return (n);
}

/*
 * Does the watched report belong to another machine?  Strong evidence:
 * another family, or another word size.  Weak evidence only (a "BIOS"
 * Hardware name in a KASAN report without register lines): when its
 * profile reads more of the report's values as kernel addresses than the
 * segment's profile does (none, for context-only s390x).
 */
static int
report_differs(struct kl_scan *sc)
{
	const struct kl_detect *r = &sc->rdet;
	struct kl_layout l;
	struct kl_error err;

	if (r->family != KL_FAM_NONE)
		return (r->family != sc->det.family || (r->bits != 0 &&
		    sc->det.bits != 0 && r->bits != sc->det.bits));
	if (r->arch == KL_ARCH_AUTO || r->arch == sc->arch ||
	    kl_arch_layout(r->arch, sc->opt->page_offset, &l, &err) == -1)
		return (0);
	return (pending_kernel(sc, &l) > pending_kernel(sc, &sc->layout));
}

/*
 * A report header in a decided segment: its tokens wait, and its lines
 * are read by a fresh detector, until watch_end().
 */
static void
watch_begin(struct kl_scan *sc)
{
	sc->watch = 1;
	sc->watch_banner = 0;
	sc->watch_lines = 0;
	sc->watch_line = sc->lineno;
	sc->watch_off = sc->ls_abs;
	kl_detect_init(&sc->rdet);
	sc->decided = 0;	/* the segment's arch and layout stay */
}

/* A line of a watched report (or its header); ends the watch when clear. */
static int
watch_line(struct kl_scan *sc, const uint8_t *p, size_t n, int banner)
{
	const struct kl_detect *r = &sc->rdet;

	if (!sc->watch)
		watch_begin(sc);
	sc->watch_lines++;
	sc->watch_banner |= banner;
	kl_detect_line(&sc->rdet, p, n);
	if ((r->family != KL_FAM_NONE && (r->family != sc->det.family ||
	    r->bits != 0 || r->certain)) || sc->watch_lines >= WATCH_LINES)
		return (decide(sc, 0));
	return (0);
}

/*
 * End the watch: when the report names another architecture, it is a
 * segment of its own from its header on (detection goes on with its
 * evidence); otherwise what waited is emitted in the segment's arch.
 */
static int
watch_end(struct kl_scan *sc, int final)
{
	sc->watch = 0;
	if (!report_differs(sc)) {
		sc->decided = 1;
		return (flush_pending(sc));
	}
	if (boot_end(sc, sc->watch_line - 1,
	    sc->watch_off > 0 ? sc->watch_off - 1 : 0) != 0)
		return (1);
	sc->seg_first = sc->watch_line;
	sc->seg_off = sc->watch_off;
	sc->boot++;
	sc->st.boots++;
	sc->seg_banner = sc->watch_banner;
	sc->seg_lines = sc->watch_lines;
	sc->seg_flags = 0;
	sc->have_ts = 0;
	sc->spec_ts = 0;
	memset(&sc->anchors, 0, sizeof(sc->anchors));
	sc->det = sc->rdet;
	sc->arch = KL_ARCH_AUTO;
	sc->widths = arch_widths(KL_ARCH_AUTO);
	if (final || sc->det.certain)
		return (decide(sc, final));
	return (0);
}

/* Detection reads each line rsyslog glued into m[0, n) with "#012". */
static void
detect_glued(struct kl_detect *det, const uint8_t *m, size_t n)
{
	const uint8_t *p, *e = m + n;

	for (p = m; !det->certain && e - p > 4 &&
	    (p = memchr(p, '#', (size_t)(e - p - 4))) != NULL;) {
		p++;
		if (p[0] == '0' && p[1] == '1' && p[2] == '2') {
			p += 3;
			kl_detect_line(det, p, (size_t)(e - p));
		}
	}
}

/* Frame the line starting at buf[sc->ls]: message, boot and arch evidence. */
static int
frame_line(struct kl_scan *sc, size_t avail)
{
	struct kl_frame fr;
	const uint8_t *lp = sc->buf + sc->ls, *mp, *fp = lp, *dp;
	uint8_t mail[FRAME_MAX];
	size_t fl = avail < FRAME_MAX ? avail : FRAME_MAX, ml, q = 0, dl;
	enum kl_line_kind pk;
	int newseg = 0;

	if (fl > 0 && lp[fl - 1] == '\r' && fl == avail)
		fl--;
	/*
	 * A mail-quoted line, or one with no-break spaces, is framed and
	 * detected from a copy with spaces in their place, past the quote.
	 */
	q = sc->mail_from;
	sc->mail_from = 0;
	if ((q < fl || (fl > 0 && (lp[0] == '>' || lp[0] == '|'))) &&
	    kl_mail_suspect_from(lp, fl, q)) {
		memcpy(mail, lp, fl);
		(void)kl_mail_spaces(mail, fl);
		q = kl_mail_quote(mail, fl);
		fp = mail;
	} else
		q = 0;
	kl_frame_line(fp + q, fl - q, sc->prev_kind, sc->opt->format, &fr);
	fr.msg += q;
	if (fr.msg > fl)
		fr.msg = fl;
	pk = sc->prev_kind;
	sc->prev_kind = fr.kind;
	sc->msg_abs = sc->ls_abs + fr.msg;
	sc->framed = 1;

	/* Boot segments: a second banner, or the kernel clock going back. */
	if (fr.boot) {
		if (sc->seg_banner)
			newseg = 1;
	} else if (fr.has_ts && sc->spec_ts) {
		sc->ts_need = 1;
		sc->ts_first = fr.ts_us;
	} else if (fr.has_ts && sc->have_ts &&
	    fr.ts_us + 1000000 < sc->last_ts &&
	    fr.ts_us < 10000000)
		newseg = 1;
	if (newseg && new_segment(sc, sc->lineno - 1, sc->ls_abs) != 0)
		return (1);
	if (newseg && sc->spec_mode && !sc->rs_done) {
		sc->rs_done = 1;
		sc->rs_line = sc->lineno;
		sc->rs_bootno = sc->boot;
		sc->rs_off = sc->ls_abs;
		sc->rs_pk = pk;
		sc->rs_boot = fr.boot;
		sc->rs_has_ts = fr.has_ts;
		sc->rs_ts = fr.ts_us;
		sc->rs_st = sc->st;
		sc->prior_spec = 1;
		sc->starch_spec = 1;
		if (sc->mark != NULL)
			sc->mark(sc->sink.arg);
	}
	if (fr.boot)
		sc->seg_banner = 1;
	if (fr.has_ts) {
		sc->have_ts = 1;
		sc->last_ts = fr.ts_us;
		sc->spec_ts = 0;
	}
	sc->seg_lines++;

	mp = sc->buf + sc->ls + fr.msg;
	ml = avail - fr.msg;
	if (ml > 0 && mp[ml - 1] == '\r')
		ml--;
	if (ml >= sizeof(unhashed_banner) - 1 && mp[0] == '*' &&
	    kl_startswith(mp, ml, KL_LIT(unhashed_banner))) {
		sc->seg_flags |= KL_F_UNHASHED;
		sc->st.unhashed++;
	}
	/* Detection reads the mail copy, up to what was copied. */
	dp = fp == mail ? mail + fr.msg : mp;
	dl = fp == mail ? fl - fr.msg : (ml < DETECT_MAX ? ml : DETECT_MAX);
	if (sc->watch || (sc->decided && sc->opt->arch == KL_ARCH_AUTO &&
	    sc->det.family != KL_FAM_NONE && kl_detect_report(dp, dl))) {
		if (watch_line(sc, dp, dl, fr.boot) != 0)
			return (1);
	} else if (!sc->decided) {
		kl_detect_line(&sc->det, dp, dl);
		if (!sc->nohash)
			detect_glued(&sc->det, dp, dl);
		if (sc->det.certain && decide(sc, 0) != 0)
			return (1);
	}
	if (sc->sink.line != NULL && (sc->sink.line_first == NULL ||
	    fr.boot || (ml > 0 &&
	    ((sc->sink.line_first[mp[0] / 64] >> (mp[0] % 64)) & 1)))) {
		struct kl_line l;

		l.line = sc->lineno;
		l.text = lp;
		l.len = ml + fr.msg;
		l.msg = fr.msg;
		l.offset = sc->ls_abs;
		l.boot = sc->boot;
		l.banner = fr.boot;
		l.record = sc->rec;
		if (sc->watch || sc->nlines > 0) {
			/* Behind the report's waiting candidates. */
			if (pend_line(sc, &l) != 0)
				return (1);
		} else if (sc->sink.line(sc->sink.arg, &l) != 0) {
			sc->stopped = 1;
			return (1);
		}
	}
	return (0);
}

/* Count and frame the current line once, with the bytes up to hi. */
static int
ensure_framed(struct kl_scan *sc, size_t hi)
{
	if (sc->ls == NO_LINE || sc->framed)
		return (0);
	sc->lineno++;
	sc->st.lines++;
	return (frame_line(sc, hi - sc->ls));
}

/*
 * Find, classify and emit the tokens of buf[from, hi) of the current
 * line, which may hold one.  Kept out of scan_segment(): most lines do
 * not get here.
 */
static KL_NOINLINE int
scan_tokens(struct kl_scan *sc, size_t from, size_t hi, int eol,
    struct kl_error *err)
{
	const uint8_t *lb;
	size_t next, n, i, ll, lstart, msg, run;
	uint64_t lcol;
	unsigned widths, flags = 0;
	int rc, msg_head;

	/* The kept line: from its start, or from the window start. */
	if (sc->ls != NO_LINE) {
		lstart = sc->ls;
	} else {
		lstart = 0;
		flags |= KL_F_HEAD_CUT;
	}
	if (!eol)
		flags |= KL_F_TAIL_CUT;
	lb = sc->buf + lstart;
	ll = hi - lstart;
	if (eol && ll > 0 && lb[ll - 1] == '\r')
		ll--;
	lcol = sc->base + lstart - sc->ls_abs + 1;
	if (sc->msg_abs >= sc->base + lstart) {
		msg = (size_t)(sc->msg_abs - sc->base - lstart);
		msg_head = 1;
	} else {
		msg = 0;
		msg_head = 0;
	}
	widths = sc->decided ? sc->widths : 3;
	while (from < hi) {
		if (sc->opt->engine == KL_ENGINE_PCRE2)
			n = kl_cand_pcre2(sc->eng, sc->md, sc->buf, hi, from,
			    widths, sc->toks, TOKS, &next);
		else {
			/* sc->run is the first run at or after from. */
			run = sc->run;
			n = kl_cand_fast_at(sc->buf, hi, sc->len, from, &run,
			    widths, sc->toks, TOKS, &next);
			/* The next one, for this line or the lines after. */
			sc->runok = run != SIZE_MAX;
			sc->run = run;
			sc->runfrom = next;
			sc->runlim = sc->len;
		}
		for (i = 0; i < n; i++) {
			struct kl_token t = sc->toks[i];
			uint64_t abs = sc->base + t.start;

			t.start -= lstart;
			if (!sc->decided) {
				kl_detect_value(sc->watch ? &sc->rdet :
				    &sc->det, t.value, t.len);
				rc = pend_token(sc, lb, ll, msg, msg_head, &t,
				    sc->lineno, abs - sc->ls_abs + 1, abs,
				    lcol, flags, err);
			} else
				rc = emit(sc, lb, ll, msg, msg_head,
				    sc->nohash, &t, sc->lineno,
				    abs - sc->ls_abs + 1, abs, lcol, flags,
				    sc->rec);
			if (rc != 0)
				return (rc);
		}
		from = next;
	}
	return (0);
}

/*
 * Scan buf[lo, hi) of the current line for tokens.  eol: hi is the end
 * of the line (buf[hi] is '\n' or the end of input).
 */
static int
scan_segment(struct kl_scan *sc, size_t lo, size_t hi, int eol,
    struct kl_error *err)
{
	size_t from, lstart, msg;

	if (ensure_framed(sc, hi) != 0)
		return (1);
	/* From the message start, or lo when a window cut the line. */
	lstart = sc->ls != NO_LINE ? sc->ls : 0;
	msg = 0;
	if (sc->msg_abs >= sc->base + lstart)
		msg = (size_t)(sc->msg_abs - sc->base - lstart);
	from = lo > lstart + msg ? lo : lstart + msg;
	if (from >= hi)
		return (0);
	if (sc->opt->engine != KL_ENGINE_PCRE2) {
		/* Lines without eight hex digits in a row hold no token. */
		if (!sc->runok || sc->runfrom > from || sc->run < from ||
		    (sc->run == sc->runlim && hi > sc->runlim)) {
			sc->run = kl_hexrun(sc->buf, from, sc->len);
			sc->runfrom = from;
			sc->runlim = sc->len;
			sc->runok = 1;
		}
		if (sc->run >= hi)
			return (0);
	}
	return (scan_tokens(sc, from, hi, eol, err));
}

/* Start a new line at buf[i] (unit offset base + i). */
static void
line_start(struct kl_scan *sc, size_t i)
{
	sc->ls = i;
	sc->ls_abs = sc->base + i;
	sc->framed = 0;
	sc->msg_abs = sc->ls_abs;
	sc->mail_from = 0;
	sc->nohash = 0;
}

/* Drop buf[0, keep) and move the rest to the front. */
static void
shift(struct kl_scan *sc, size_t keep)
{
	memmove(sc->buf, sc->buf + keep, sc->len - keep);
	sc->runok = 0;
	sc->len -= keep;
	sc->done -= keep;
	sc->base += keep;
	if (sc->ls != NO_LINE) {
		if (sc->ls >= keep)
			sc->ls -= keep;
		else
			sc->ls = NO_LINE;
	}
}

/*
 * Scan what the window holds.  final: no more input follows.  Returns 0,
 * 1 when the sink stopped the scan, -1 on error.
 */
static int
process(struct kl_scan *sc, int final, struct kl_error *err)
{
	size_t c, keep, ctx, mark;
	int rc;

	for (;;) {
		if (sc->skip_alnum) {
			/* Rest of an over-long run: no token can start here. */
			while (sc->done < sc->len &&
			    kl_isalnum(sc->buf[sc->done]))
				sc->done++;
			if (sc->done < sc->len)
				sc->skip_alnum = 0;
		}
		c = sc->len;
		if (sc->done < sc->len) {
			c = sc->done + kl_line_end(sc->buf + sc->done,
			    sc->len - sc->done, &mark);
			/* Read from the line's start: frame_line() uses it. */
			if (sc->done == sc->ls && !sc->framed) {
				sc->mail_from = mark;
				/* The cut below clears it. */
				sc->nohash = mark == c - sc->done;
			}
		}
		if (c < sc->len) {
			if (sc->inplace && c - sc->ls >= sc->inplace)
				break;	/* the window would cut it: copy it */
			if ((rc = scan_segment(sc, sc->done, c, 1, err)) != 0)
				return (rc);
			sc->done = c + 1;
			line_start(sc, c + 1);
			continue;
		}
		if (final) {
			if (sc->ls != NO_LINE && sc->ls == sc->len)
				break;	/* nothing after the last newline */
			rc = scan_segment(sc, sc->done, sc->len, 1, err);
			sc->done = sc->len;
			return (rc);
		}
		if (sc->len < sc->cap)
			break;
		/* The window is full and holds no newline. */
		if (sc->ls != NO_LINE && sc->ls > 0) {
			shift(sc, sc->ls);
			break;
		}
		/* A line longer than the window: cut at a boundary byte. */
		sc->nohash = 0;		/* the rest is not read yet */
		c = sc->len;
		while (c > sc->done && kl_isalnum(sc->buf[c - 1]))
			c--;
		if (c > sc->done) {
			c--;	/* buf[c] is the boundary byte */
			if ((rc = scan_segment(sc, sc->done, c, 0, err)) != 0)
				return (rc);
		} else {
			c = sc->done;
			if (ensure_framed(sc, sc->len) != 0)
				return (1);
		}
		sc->done = c;
		if (sc->len - c > sc->cap / 2) {
			/* A run longer than half the window holds no token. */
			sc->done = sc->len;
			sc->skip_alnum = 1;
			c = sc->len;
		}
		ctx = sc->cap / 4 < CTX_KEEP ? sc->cap / 4 : CTX_KEEP;
		keep = c > ctx ? c - ctx : 0;
		if (keep == 0)
			keep = 1;	/* always make progress */
		shift(sc, keep);
		sc->ls = NO_LINE;
		break;
	}
	return (0);
}

/* Make a scanner for one unit at a time. */
struct kl_scan *
kl_scan_new(const struct kl_engine *eng, const struct kl_sink *sink,
    struct kl_error *err)
{
	struct kl_scan *sc;

	if ((sc = calloc(1, sizeof(*sc))) == NULL)
		goto nomem;
	sc->eng = eng;
	sc->opt = kl_engine_options(eng);
	if (sink != NULL)
		sc->sink = *sink;
	sc->cap = sc->opt->window;
	if ((sc->win = malloc(sc->cap)) == NULL)
		goto nomem;
	sc->buf = sc->win;
	if (sc->opt->engine == KL_ENGINE_PCRE2 &&
	    (sc->md = kl_engine_mdata(eng)) == NULL)
		goto nomem;
	kl_scan_reset(sc);
	return (sc);
nomem:
	kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
	kl_scan_free(sc);
	return (NULL);
}

/* Forget the last unit; keep the buffers. */
void
kl_scan_reset(struct kl_scan *sc)
{
	sc->stopped = 0;
	sc->len = sc->done = 0;
	sc->base = 0;
	sc->skip_alnum = 0;
	sc->runok = 0;
	sc->lineno = 0;
	sc->prev_kind = KL_LINE_PLAIN;
	line_start(sc, 0);
	sc->boot = 0;
	sc->seg_banner = sc->seg_lines = 0;
	sc->have_ts = 0;
	sc->last_ts = 0;
	sc->spec_ts = sc->ts_need = 0;
	sc->ts_first = 0;
	sc->spec_mode = sc->rs_done = 0;
	sc->prior_spec = sc->starch_spec = sc->prior_used = 0;
	sc->seg_flags = 0;
	sc->seg_first = 1;
	sc->seg_off = 0;
	sc->npend = 0;
	sc->nlines = 0;
	sc->arenalen = 0;
	memset(&sc->anchors, 0, sizeof(sc->anchors));
	memset(&sc->st, 0, sizeof(sc->st));
	sc->st.boots = 1;
	sc->prior = KL_ARCH_AUTO;
	sc->watch = 0;
	sc->rec = NULL;
	kl_detect_init(&sc->det);
	if (sc->opt->arch != KL_ARCH_AUTO)
		set_arch(sc, sc->opt->arch);
	else {
		sc->decided = 0;
		sc->arch = KL_ARCH_AUTO;
		sc->widths = arch_widths(KL_ARCH_AUTO);
		sc->st.arch = KL_ARCH_AUTO;
	}
}

/*
 * With an empty window, scan the whole lines of p[0, n) where they lie
 * instead of copying them.  Lines the window would have cut stay for the
 * copying path, so every line is scanned as it would be in the window.
 * Sets *used to the bytes scanned (whole lines).  Returns as process().
 */
static int
feed_inplace(struct kl_scan *sc, const uint8_t *p, size_t n, size_t *used,
    struct kl_error *err)
{
	size_t wcap = sc->cap;
	int rc;

	/* process() only writes buf when it is full: cap > len keeps it so. */
	sc->buf = (uint8_t *)(uintptr_t)p;
	sc->len = n;
	sc->cap = n + 1;
	sc->inplace = wcap;
	sc->runok = 0;
	rc = process(sc, 0, err);
	*used = sc->ls;
	sc->base += sc->ls;
	sc->buf = sc->win;
	sc->cap = wcap;
	sc->inplace = 0;
	sc->len = sc->done = 0;
	sc->runok = 0;
	line_start(sc, 0);
	return (rc);
}

/*
 * Feed the next bytes of the unit.  Returns 0, 1 when the sink asked to
 * stop (further calls do nothing), -1 on error.
 */
int
kl_scan_feed(struct kl_scan *sc, const void *data, size_t n,
    struct kl_error *err)
{
	const uint8_t *p = data, *nl;
	size_t k;
	int rc;

	if (sc->stopped)
		return (1);
	sc->st.bytes += n;
	if (n >= INPLACE_MIN && !sc->skip_alnum && sc->ls != NO_LINE &&
	    sc->len > 0 && (nl = memchr(p, '\n', n)) != NULL &&
	    (k = (size_t)(nl - p) + 1) <= sc->cap - sc->len) {
		/* Complete the window's last line and empty the window. */
		memcpy(sc->buf + sc->len, p, k);
		sc->len += k;
		p += k;
		n -= k;
		if ((rc = process(sc, 0, err)) != 0)
			return (rc);
		if (sc->ls == sc->len && !sc->skip_alnum)
			shift(sc, sc->len);
	}
	if (n >= INPLACE_MIN && sc->len == 0 && sc->ls == 0 &&
	    !sc->skip_alnum) {
		if ((rc = feed_inplace(sc, p, n, &k, err)) != 0)
			return (rc);
		p += k;
		n -= k;
	}
	while (n > 0) {
		k = sc->cap - sc->len;
		if (k > n)
			k = n;
		memcpy(sc->buf + sc->len, p, k);
		sc->len += k;
		p += k;
		n -= k;
		if (sc->len == sc->cap && (rc = process(sc, 0, err)) != 0)
			return (rc);
	}
	return (0);
}

/* The unit is complete: scan the rest and flush.  Returns as feed. */
int
kl_scan_end(struct kl_scan *sc, struct kl_error *err)
{
	uint64_t end = sc->base + sc->len;	/* past the last byte fed */
	int rc;

	if (sc->stopped)
		return (1);
	if ((rc = process(sc, 1, err)) != 0)
		return (rc);
	if (!sc->decided && (rc = decide(sc, 1)) != 0)
		return (rc);
	if (sc->seg_lines > 0 &&
	    (rc = boot_end(sc, sc->lineno, end > 0 ? end - 1 : 0)) != 0)
		return (rc);
	return (0);
}

/* Counters of the unit scanned so far. */
const struct kl_stats *
kl_scan_stats(const struct kl_scan *sc)
{
	return (&sc->st);
}

/* Free a scanner. */
void
kl_scan_free(struct kl_scan *sc)
{
	if (sc == NULL)
		return;
	if (sc->md != NULL)
		kl_engine_mdata_free(sc->md);
	free(sc->win);	/* a sink may free the scanner while buf is not */
	free(sc->pend);
	free(sc->arena);
	free(sc);
}

/* Forget the window: the next bytes start a new line at unit offset off. */
static void
restart_at(struct kl_scan *sc, uint64_t off)
{
	sc->len = sc->done = 0;
	sc->base = off;
	sc->skip_alnum = 0;
	sc->runok = 0;
	line_start(sc, 0);
}

/*
 * Scan the following bytes as one journal field: lines restart at 1,
 * offsets start at rec->offset.  rec must stay valid until record_end.
 */
int
kl_scan_record_begin(struct kl_scan *sc, const struct kl_record *rec,
    struct kl_error *err)
{
	(void)err;
	if (sc->stopped)
		return (1);
	sc->rec = rec;
	sc->lineno = 0;
	restart_at(sc, rec->offset);
	return (0);
}

/* The field is complete: scan its last line.  Returns as feed. */
int
kl_scan_record_end(struct kl_scan *sc, struct kl_error *err)
{
	int rc;

	if (sc->stopped)
		return (1);
	rc = process(sc, 1, err);
	sc->rec = NULL;
	restart_at(sc, sc->base + sc->len);
	return (rc);
}

/* The input says a new boot starts here (journal _BOOT_ID change). */
int
kl_scan_new_boot(struct kl_scan *sc)
{
	if (sc->seg_lines == 0)
		return (0);
	return (new_segment(sc, sc->lineno, sc->ls_abs));
}

/*
 * The unit offset below which no finding can be reported any more: the
 * first token still waiting for the architecture, else the end of what
 * was scanned.  A rewriter may write out the bytes below it.
 */
uint64_t
kl_scan_settled(const struct kl_scan *sc)
{
	if (sc->npend > 0)
		return (sc->pend[0].offset);
	return (sc->base + sc->done);
}

/*
 * Decide the architecture now if tokens wait for it (a rewriter that
 * holds too many bytes).  Returns as feed.
 */
int
kl_scan_settle(struct kl_scan *sc)
{
	if (sc->stopped)
		return (1);
	if (sc->decided || sc->npend == 0)
		return (0);
	return (decide(sc, 0));
}

/*
 * The unit offsets that a later boot event may give as first_offset or
 * last_offset, though they may lie below kl_scan_settled(): the open
 * segment's first byte, the current line's (and the byte before it),
 * a watched report header's (and the byte before it), the last byte
 * fed.  Any other offset a boot event gives is at or above settled.  A
 * caller that forgets what it knew below settled keeps what it needs
 * of these.  Returns how many it wrote into marks.
 */
size_t
kl_scan_marks(const struct kl_scan *sc, uint64_t marks[KL_SCAN_MARKS])
{
	uint64_t end = sc->base + sc->len;
	size_t n = 0;

	marks[n++] = sc->seg_off;
	marks[n++] = sc->ls_abs;
	if (sc->ls_abs > 0)
		marks[n++] = sc->ls_abs - 1;
	if (sc->watch) {
		marks[n++] = sc->watch_off;
		if (sc->watch_off > 0)
			marks[n++] = sc->watch_off - 1;
	}
	if (end > 0)
		marks[n++] = end - 1;
	return (n);
}

/*
 * The chunked scan (chunk.c, scan-int.h).  A chunk scanner starts at a
 * line start from a speculated state (kl_scan_spec_begin()); its events
 * are kept, and given to the real sink only when the real state at the
 * cut agrees (kl_scan_spec_ok()), or from the chunk's first new boot
 * segment on when the real scan, brought there in order, starts that
 * segment too (kl_scan_resync()); the real scanner then takes the chunk
 * scanner's state at the chunk's end (kl_scan_adopt()).
 */

/*
 * Scan the complete lines the window holds now: a chunk ends at a
 * newline; a follower (--follow) wants each line as soon as it is there.
 */
int
kl_scan_drain(struct kl_scan *sc, struct kl_error *err)
{
	if (sc->stopped)
		return (1);
	return (process(sc, 0, err));
}

/* Is the scanner at a line start, no partial line held, not stopped? */
static int
at_line_start(const struct kl_scan *sc)
{
	return (!sc->stopped && sc->rec == NULL && !sc->skip_alnum &&
	    sc->ls != NO_LINE && sc->ls == sc->len && sc->done == sc->len);
}

/*
 * Is the scanner at a line start with nothing held: no partial line, no
 * waiting token or line event, no report watch, no journal record?
 */
int
kl_scan_clean(const struct kl_scan *sc)
{
	return (at_line_start(sc) && !sc->watch && sc->npend == 0 &&
	    sc->nlines == 0);
}

/* The state the lines after the cut depend on (see kl_scan_spec_ok()). */
void
kl_scan_spec_get(const struct kl_scan *sc, struct kl_spec *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->prev_kind = sc->prev_kind;
	sp->seg_banner = sc->seg_banner;
	sp->seg_flags = sc->seg_flags;
	sp->decided = sc->decided;
	sp->arch = sc->arch;
	sp->widths = sc->widths;
	sp->prior = sc->prior;
	sp->st_arch = sc->st.arch;
	memcpy(&sp->det, &sc->det, sizeof(sp->det));
	memcpy(&sp->layout, &sc->layout, sizeof(sp->layout));
	memcpy(&sp->anchors, &sc->anchors, sizeof(sp->anchors));
}

/*
 * Make sc a chunk scanner for the lines from unit offset off, in the
 * speculated state sp (a clean one: nothing waits).  Its line numbers,
 * boot segments and counters start at 0, to be moved by the real ones
 * (chunk.c): the line before the chunk is line 0, the open segment is
 * boot 0, whose first line and offset (unknown here) the replay takes
 * from the real scan.
 */
void
kl_scan_spec_begin(struct kl_scan *sc, const struct kl_spec *sp,
    uint64_t off)
{
	kl_scan_reset(sc);
	sc->prev_kind = sp->prev_kind;
	sc->seg_banner = sp->seg_banner;
	sc->seg_flags = sp->seg_flags;
	sc->decided = sp->decided;
	sc->arch = sp->arch;
	sc->widths = sp->widths;
	sc->prior = sp->prior;
	memcpy(&sc->det, &sp->det, sizeof(sc->det));
	memcpy(&sc->layout, &sp->layout, sizeof(sc->layout));
	memcpy(&sc->anchors, &sp->anchors, sizeof(sc->anchors));
	memset(&sc->st, 0, sizeof(sc->st));
	sc->st.arch = sp->st_arch;
	sc->seg_off = off;
	sc->spec_ts = 1;	/* the clock before the cut: not known */
	sc->spec_mode = 1;
	sc->base = off;
	line_start(sc, 0);
}

/*
 * May all the events of chunk scanner w, started from sp, be given to
 * the sink of the real scanner sc, which stands clean at the chunk's
 * start?  Yes when w is at a line start (the chunk's end; what it holds
 * there, sc takes over) and every input of the lines after the cut
 * agrees:
 *  - prev_kind: frame.c reads a line in the light of the one before
 *    (kl_frame_prev_same(): whether it was a kmsg one);
 *  - seg_banner: a banner starts a new boot segment only after one;
 *  - seg_flags: the unhashed-banner flag is on every finding;
 *  - decided, arch, widths, prior, layout, st.arch: which tokens are
 *    found and how they classify, the arch of boot events and counters;
 *  - det: the evidence detection goes on from (frozen once decided, but
 *    read by the report watch: family, bits, page_offset, kver);
 *  - anchors: the clusters classify.c compares values with;
 *  - the clock: w read its first timestamped line as no new boot, which
 *    the real last timestamp must confirm (ts_need, ts_first);
 *  - nothing waits in sc (clean): no token, line event or report watch.
 * Not compared, moved instead: line numbers, boot numbers, the open
 * segment's first line and offset (its boot event is completed at the
 * replay), seg_lines (read only at the unit's end and by journals) and
 * the counters, which add up.  Offsets are the unit's in both.  A field
 * compared by its bytes (det, layout, anchors) can only say "differs"
 * too often, never "same" wrongly: that costs a rescan, not an error.
 */
int
kl_scan_spec_ok(const struct kl_scan *sc, const struct kl_spec *sp,
    const struct kl_scan *w)
{
	struct kl_spec now;

	if (!kl_scan_clean(sc) || !at_line_start(w) || w->eng != sc->eng)
		return (0);
	kl_scan_spec_get(sc, &now);
	if (!kl_frame_prev_same(now.prev_kind, sp->prev_kind) ||
	    now.seg_banner != sp->seg_banner ||
	    now.seg_flags != sp->seg_flags ||
	    now.decided != sp->decided || now.arch != sp->arch ||
	    now.widths != sp->widths || now.prior != sp->prior ||
	    now.st_arch != sp->st_arch ||
	    memcmp(&now.det, &sp->det, sizeof(now.det)) != 0 ||
	    memcmp(&now.layout, &sp->layout, sizeof(now.layout)) != 0 ||
	    memcmp(&now.anchors, &sp->anchors, sizeof(now.anchors)) != 0)
		return (0);
	/* frame_line(): would the real clock have started a new boot? */
	if (w->ts_need && sc->have_ts && w->ts_first + 1000000 < sc->last_ts &&
	    w->ts_first < 10000000)
		return (0);
	return (1);
}

/*
 * Where w's events from its first new boot segment on may start: the
 * unit offset of that segment's first line, or UINT64_MAX when they
 * cannot be used (no such segment, or a later decision read the prior
 * arch, which w did not know).
 */
uint64_t
kl_scan_resync_off(const struct kl_scan *w)
{
	if (!w->rs_done || w->prior_used || !at_line_start(w))
		return (UINT64_MAX);
	return (w->rs_off);
}

/*
 * The real scanner sc, fed in order up to the start of the line where
 * chunk scanner w started its first new boot segment: does sc start one
 * there too?  The line is framed as w framed it when sc read the same
 * kind of line before (kl_frame_prev_same()); the new segment follows
 * from the banner and the clock as in frame_line().  If so, sc closes
 * its segment now, as frame_line() would (the events go to the real
 * sink), and after that its state is w's at the same point: a fresh
 * segment, whose detector, anchors, flags and clock are empty in both;
 * what is not reset (the prior arch, st.arch) w treated as unknown
 * (prior_spec, starch_spec: kl_scan_resync_off() refused a w that read
 * it).  Returns 1 when it did, 0 when not (nothing done: go on in order),
 * -1 when the sink stopped the scan.
 */
int
kl_scan_resync(struct kl_scan *sc, const struct kl_scan *w)
{
	int newseg;

	if (kl_scan_resync_off(w) == UINT64_MAX || !at_line_start(sc) ||
	    sc->ls_abs != w->rs_off ||
	    !kl_frame_prev_same(sc->prev_kind, w->rs_pk) ||
	    w->eng != sc->eng)
		return (0);
	if (w->rs_boot)
		newseg = sc->seg_banner;
	else
		newseg = w->rs_has_ts && sc->have_ts &&
		    w->rs_ts + 1000000 < sc->last_ts && w->rs_ts < 10000000;
	if (!newseg)
		return (0);
	if (new_segment(sc, sc->lineno, sc->ls_abs) != 0)
		return (-1);
	return (1);
}

/* Add the counters of w since from (NULL: all) to sc's. */
static void
add_stats(struct kl_stats *st, const struct kl_stats *w,
    const struct kl_stats *from)
{
	struct kl_stats z;
	size_t i;

	if (from == NULL) {
		memset(&z, 0, sizeof(z));
		from = &z;
	}
	st->lines += w->lines - from->lines;
	st->candidates += w->candidates - from->candidates;
	st->findings += w->findings - from->findings;
	st->boots += w->boots - from->boots;
	for (i = 0; i < KL_REGION_COUNT; i++)
		st->region[i] += w->region[i] - from->region[i];
	for (i = 0; i < KL_SUP_COUNT; i++)
		st->suppressed[i] += w->suppressed[i] - from->suppressed[i];
	st->unhashed += w->unhashed - from->unhashed;
}

/*
 * sc takes chunk scanner w's state at the chunk's end, unit offset end:
 * w's line n is sc's line n + linebase, w's boot b sc's b + bootbase.
 * rs: w's events were taken from its resync point on (sc stands just
 * after its own new segment there), else all of them.  What waits in w
 * (tokens, line events, a report watch) waits in sc now.  Returns -1
 * when memory is short (sc is then unchanged).
 */
int
kl_scan_adopt(struct kl_scan *sc, const struct kl_scan *w, uint64_t end,
    uint64_t linebase, unsigned bootbase, int rs)
{
	size_t i;

	if (grow((void **)&sc->pend, &sc->pendcap, w->npend,
	    sizeof(*sc->pend)) == -1 ||
	    grow((void **)&sc->arena, &sc->arenacap, w->arenalen, 1) == -1)
		return (-1);
	sc->prev_kind = w->prev_kind;
	if (w->boot > 0) {
		/* The chunk opened the segment now open. */
		sc->seg_first = w->seg_first + linebase;
		sc->seg_off = w->seg_off;
		sc->seg_lines = w->seg_lines;
		sc->have_ts = w->have_ts;
		sc->last_ts = w->last_ts;
	} else {
		sc->seg_lines += w->seg_lines;
		if (w->have_ts) {
			sc->have_ts = 1;
			sc->last_ts = w->last_ts;
		}
	}
	sc->boot = bootbase + w->boot;
	sc->lineno = linebase + w->lineno;
	sc->seg_banner = w->seg_banner;
	sc->seg_flags = w->seg_flags;
	sc->decided = w->decided;
	sc->arch = w->arch;
	sc->widths = w->widths;
	if (!rs || !w->prior_spec)
		sc->prior = w->prior;
	memcpy(&sc->det, &w->det, sizeof(sc->det));
	memcpy(&sc->layout, &w->layout, sizeof(sc->layout));
	memcpy(&sc->anchors, &w->anchors, sizeof(sc->anchors));
	/* What waits. */
	if (w->npend > 0)
		memcpy(sc->pend, w->pend, w->npend * sizeof(*sc->pend));
	for (i = 0; i < w->npend; i++)
		sc->pend[i].line += linebase;
	sc->npend = w->npend;
	sc->nlines = w->nlines;
	if (w->arenalen > 0)
		memcpy(sc->arena, w->arena, w->arenalen);
	sc->arenalen = w->arenalen;
	sc->watch = w->watch;
	sc->watch_banner = w->watch_banner;
	sc->watch_lines = w->watch_lines;
	sc->watch_line = w->watch_line + linebase;
	sc->watch_off = w->watch_off;
	memcpy(&sc->rdet, &w->rdet, sizeof(sc->rdet));
	/* Counters: w's line at the resync point was counted before it. */
	if (rs) {
		add_stats(&sc->st, &w->st, &w->rs_st);
		sc->st.lines++;
		sc->st.bytes += end - w->rs_off;
	} else {
		add_stats(&sc->st, &w->st, NULL);
		sc->st.bytes += w->st.bytes;
	}
	if (!rs || !w->starch_spec)
		sc->st.arch = w->st.arch;
	restart_at(sc, end);
	return (0);
}

/* The real scan's bases for a chunk's events. */
void
kl_scan_pos(const struct kl_scan *sc, struct kl_scan_pos *pos)
{
	pos->lineno = sc->lineno;
	pos->boot = sc->boot;
	pos->seg_first = sc->seg_first;
	pos->seg_off = sc->seg_off;
}

/*
 * A chunk scanner's resync line (kl_scan_resync_off()), and its boot
 * segment number, both counted from the chunk's start.
 */
uint64_t
kl_scan_resync_line(const struct kl_scan *w, unsigned *boot)
{
	*boot = w->rs_bootno;
	return (w->rs_line);
}

/* The sink the scanner was made with. */
const struct kl_sink *
kl_scan_sink(const struct kl_scan *sc)
{
	return (&sc->sink);
}

/* The engine the scanner was made with. */
const struct kl_engine *
kl_scan_engine(const struct kl_scan *sc)
{
	return (sc->eng);
}

/* The sink asked to stop (during a replay). */
void
kl_scan_stop(struct kl_scan *sc)
{
	sc->stopped = 1;
}

/*
 * A chunk scanner's recording sink: its line filter, and the function
 * called (with the sink's arg) at the resync point.
 */
void
kl_scan_set_chunk(struct kl_scan *sc, const uint64_t *first,
    void (*mark)(void *))
{
	sc->sink.line_first = first;
	sc->mark = mark;
}
