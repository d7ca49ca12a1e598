/*
 * chunk.c - one unit's text scanned on several threads, with the events
 * of the serial scan, in its order.
 *
 * The calling thread reads a plain file (pread, kl_scan_chunked()), or
 * is given a unit's bytes in order (kl_chunk_feed(): a decompressed
 * stream), into slots cut after a newline (or before a boot banner,
 * banner_cut()), and holds the real scanner.  Each chunk is given to a
 * thread with a copy of the real scanner's latest state (struct kl_spec)
 * and scanned by a scanner of its own, whose sink records the events
 * (deep enough: the bytes they point to stay in the chunk's buffer or
 * are copied).  When the real scan reaches the chunk's start, the real
 * state is compared with the copy the chunk started from
 * (kl_scan_spec_ok()): the same, the recorded events go to the real sink
 * with their line and boot numbers moved, and the real scanner takes the
 * chunk scanner's end state (kl_scan_adopt()).  Else, when the chunk
 * scanner started a new boot segment, the real scanner scans the lines
 * before it in order and, starting the same segment there
 * (kl_scan_resync()), takes the events from it on; else the chunk is
 * scanned again, in order.  Either way the sink sees what the serial
 * scan would have made.  At most slots chunks are in flight; with no
 * thread, each is scanned in order as it is cut.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kleak.h"
#include "kleak-int.h"
#include "scan-int.h"

enum { EV_FINDING, EV_LINE, EV_BOOT };
enum { SL_FREE, SL_QUEUED, SL_RUNNING, SL_DONE };

#define HB_LIST		((size_t)2 << 20)	/* of a list in a huge page */

#define OWN_TEXT	0x1	/* text is an arena offset */
#define OWN_LTEXT	0x2	/* ltext (a line's text) likewise */

/*
 * A recorded line: struct kl_line without its record (a chunk has none)
 * and with its text where keep() left it.  Most events are lines (the
 * default output asks for every line), so they are kept small: 56 bytes
 * instead of a finding's.
 */
struct cline {
	uint64_t		 line;
	uint64_t		 offset;
	size_t			 len;
	size_t			 msg;
	union {
		const uint8_t	*p;		/* in the chunk's buffer */
		size_t		 off;		/* OWN_LTEXT: arena offset */
	}			 text;
	unsigned		 boot;
	int			 banner;
};

/* A recorded finding, with where keep() left its bytes. */
struct cfind {
	struct kl_finding	 f;
	size_t			 text;		/* arena offsets */
	size_t			 ltext;
};

/* One recorded sink event, in order. */
struct ev {
	int			 kind;		/* EV_* */
	unsigned		 own;		/* OWN_* */
	union {
		struct cline	 l;
		size_t		 fi;		/* index into slot.fv */
		struct kl_boot	 b;
	} u;
};

/* A chunk in flight, and the scanner that scans it ahead. */
struct slot {
	struct kl_scan		*sc;
	int			 state;		/* SL_* */
	uint64_t		 seq;
	uint64_t		 off;		/* unit offset of buf[0] */
	uint8_t			*buf;
	size_t			 len;
	size_t			 cap;
	struct kl_spec		 spec;		/* the state it starts from */
	int			 lfnull;	/* line_first was NULL */
	uint64_t		 lf[4];
	int			 rc;
	int			 nomem;
	size_t			 i0;		/* events from the resync */
	struct ev		*ev;
	size_t			 nev;
	size_t			 evcap;
	int			 evhb;		/* ev is in huge pages */
	struct cfind		*fv;		/* the findings of ev */
	size_t			 nf;
	size_t			 fcap;
	int			 fvhb;		/* fv likewise */
	uint8_t			*arena;
	size_t			 alen;
	size_t			 acap;
};

struct ck {
	size_t			 chunk;
	struct slot		*slot;
	unsigned		 nslots;
	pthread_t		*th;
	unsigned		 nth;
	pthread_mutex_t		 mu;
	pthread_cond_t		 work;
	pthread_cond_t		 done;
	int			 quit;
};

/* A monotonic clock in nanoseconds, for the counters. */
static uint64_t
now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		return (0);
	return ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
}

/* The last newline of b[0, n), or NULL. */
static const uint8_t *
last_nl(const uint8_t *b, size_t n)
{
	while (n > 0)
		if (b[--n] == '\n')
			return (b + n);
	return (NULL);
}

/* Make room for need more bytes in the slot's arena. */
static int
arena_room(struct slot *s, size_t need)
{
	size_t nc;
	void *np;

	if (s->acap - s->alen >= need)
		return (0);
	nc = s->acap == 0 ? 4096 : s->acap;
	while (nc - s->alen < need) {
		if (nc > SIZE_MAX / 2)
			return (-1);
		nc *= 2;
	}
	if ((np = realloc(s->arena, nc)) == NULL)
		return (-1);
	s->arena = np;
	s->acap = nc;
	return (0);
}

/*
 * Keep the n bytes at p for the replay: in the chunk's buffer they stay
 * where they are (0), elsewhere (the scanner's window or pending arena)
 * they are copied to the slot's arena, at *off (1); -1: no memory.
 */
static int
keep(struct slot *s, const uint8_t *p, size_t n, size_t *off)
{
	uintptr_t a = (uintptr_t)p, lo = (uintptr_t)s->buf;

	if (a >= lo && a <= lo + s->len && n <= lo + s->len - a)
		return (0);
	if (arena_room(s, n) == -1)
		return (-1);
	if (n > 0)
		memcpy(s->arena + s->alen, p, n);
	*off = s->alen;
	s->alen += n;
	return (1);
}

/*
 * Grow the list *p of *capp items of sz bytes (n of them used) to hold at
 * least twice as many (first when empty).  A slot's lists are fresh
 * memory on each run, and on a virtual machine each 4 KiB page of it was
 * a page fault of about 10 us at its first touch: 2,800 of a -j2 -c run's
 * 3,700.  Under a line filter (hb: findings and a few lines recorded,
 * -c, -l, ...) their first HB_LIST bytes take a huge page (hbuf.c), which
 * holds what a chunk of real logs records there.  Longer lists (every
 * line recorded, or a chunk of findings only) grow on the heap, where a
 * last huge page of each would be resident for nothing, over the run's
 * memory bound.  *hbp says where *p is.  -1 when there is no memory.
 */
static int
list_grow(void **p, size_t *capp, int *hbp, size_t n, size_t sz,
    size_t first, int hb)
{
	size_t nc = *capp == 0 ? first : *capp * 2, bytes;
	void *np;

	if (nc > SIZE_MAX / sz)
		return (-1);
	if (hb && nc * sz <= HB_LIST) {
		if ((np = kl_hb_alloc(HB_LIST, &bytes)) == NULL)
			return (-1);
		nc = bytes / sz;
	} else if (!*hbp) {
		if ((np = realloc(*p, nc * sz)) == NULL)
			return (-1);
		*p = np;
		*capp = nc;
		return (0);
	} else if ((np = malloc(nc * sz)) == NULL)
		return (-1);
	if (n > 0)
		memcpy(np, *p, n * sz);
	if (*hbp)
		kl_hb_free(*p, *capp * sz);
	else
		free(*p);
	*p = np;
	*capp = nc;
	*hbp = hb && nc * sz <= HB_LIST;
	return (0);
}

/* Free a list list_grow() made. */
static void
list_free(void *p, size_t cap, size_t sz, int hb)
{
	if (hb)
		kl_hb_free(p, cap * sz);
	else
		free(p);
}

/* A new event at the end of the slot's list, or NULL. */
static struct ev *
ev_new(struct slot *s, int kind)
{
	struct ev *e;

	if (s->nev == s->evcap && list_grow((void **)&s->ev, &s->evcap,
	    &s->evhb, s->nev, sizeof(*e), 1024, !s->lfnull) == -1)
		return (NULL);
	e = &s->ev[s->nev++];
	e->kind = kind;
	e->own = 0;
	return (e);
}

/* Recording sink: a finding. */
static int
rec_finding(void *arg, const struct kl_finding *f)
{
	struct slot *s = arg;
	struct cfind *c;
	struct ev *e;
	int k;

	if (f->record != NULL)
		goto fail;
	if (s->nf == s->fcap && list_grow((void **)&s->fv, &s->fcap,
	    &s->fvhb, s->nf, sizeof(*c), 256, !s->lfnull) == -1)
		goto fail;
	if ((e = ev_new(s, EV_FINDING)) == NULL)
		goto fail;
	e->u.fi = s->nf;
	c = &s->fv[s->nf++];
	c->f = *f;
	if ((k = keep(s, f->text, f->textlen, &c->text)) == -1)
		goto fail;
	if (k == 1)
		e->own |= OWN_TEXT;
	if ((k = keep(s, f->ltext, f->llen, &c->ltext)) == -1)
		goto fail;
	if (k == 1)
		e->own |= OWN_LTEXT;
	return (0);
fail:
	s->nomem = 1;
	return (1);
}

/* Recording sink: a line. */
static int
rec_line(void *arg, const struct kl_line *l)
{
	struct slot *s = arg;
	struct ev *e;
	size_t off;
	int k;

	if (l->record != NULL || (e = ev_new(s, EV_LINE)) == NULL)
		goto fail;
	e->u.l.line = l->line;
	e->u.l.offset = l->offset;
	e->u.l.len = l->len;
	e->u.l.msg = l->msg;
	e->u.l.boot = l->boot;
	e->u.l.banner = l->banner;
	e->u.l.text.p = l->text;
	if ((k = keep(s, l->text, l->len, &off)) == -1)
		goto fail;
	if (k == 1) {
		e->own |= OWN_LTEXT;
		e->u.l.text.off = off;
	}
	return (0);
fail:
	s->nomem = 1;
	return (1);
}

/* Recording sink: a boot segment ended. */
static int
rec_boot(void *arg, const struct kl_boot *b)
{
	struct slot *s = arg;
	struct ev *e;

	if ((e = ev_new(s, EV_BOOT)) == NULL) {
		s->nomem = 1;
		return (1);
	}
	e->u.b = *b;
	return (0);
}

/* The chunk scanner's first new boot segment: its events start here. */
static void
rec_mark(void *arg)
{
	struct slot *s = arg;

	s->i0 = s->nev;
}

/* Scan one chunk ahead (on a thread), from the state it was given. */
static void
scan_ahead(struct slot *s)
{
	struct kl_error err;

	memset(&err, 0, sizeof(err));
	s->nev = 0;
	s->nf = 0;
	s->alen = 0;
	s->nomem = 0;
	s->i0 = SIZE_MAX;
	kl_scan_set_chunk(s->sc, s->lfnull ? NULL : s->lf, rec_mark);
	kl_scan_spec_begin(s->sc, &s->spec, s->off);
	s->rc = kl_scan_feed(s->sc, s->buf, s->len, &err);
	if (s->rc == 0)
		s->rc = kl_scan_drain(s->sc, &err);
}

/* A scanning thread: the oldest queued chunk, until told to quit. */
static void *
worker(void *arg)
{
	struct ck *ck = arg;
	struct slot *s;
	unsigned i;

	pthread_mutex_lock(&ck->mu);
	for (;;) {
		s = NULL;
		for (i = 0; i < ck->nslots; i++)
			if (ck->slot[i].state == SL_QUEUED && (s == NULL ||
			    ck->slot[i].seq < s->seq))
				s = &ck->slot[i];
		if (ck->quit)
			break;
		if (s == NULL) {
			pthread_cond_wait(&ck->work, &ck->mu);
			continue;
		}
		s->state = SL_RUNNING;
		pthread_mutex_unlock(&ck->mu);
		scan_ahead(s);
		pthread_mutex_lock(&ck->mu);
		s->state = SL_DONE;
		pthread_cond_broadcast(&ck->done);
	}
	pthread_mutex_unlock(&ck->mu);
	return (NULL);
}

/*
 * Where to end a chunk of the lines b[0, n): before the last line in its
 * second half that holds "Linux version ", else at n.  After a banner, a
 * banner starts a new boot segment, where a chunk scanner's events can be
 * used from (kl_scan_resync()): the next chunk, scanned ahead from a state
 * that has seen a banner, has no lines before its first new boot to scan
 * again in order.  Only where chunks are cut changes, never what the
 * scan finds.
 */
static size_t
banner_cut(const uint8_t *b, size_t n)
{
	static const char lit[] = "Linux version ";
	const uint8_t *p, *h = b + n / 2, *last = NULL;

	while ((p = kl_memmem(h, (size_t)(b + n - h), KL_LIT(lit))) != NULL) {
		last = p;
		h = p + 1;
	}
	if (last == NULL)
		return (n);
	while (last > b && last[-1] != '\n')
		last--;
	return (last > b + n / 2 ? (size_t)(last - b) : n);
}

/* Feed the chunk in s to the real scanner, in order. */
static int
scan_serial(struct kl_scan *sc, struct slot *s, struct kl_error *err)
{
	int rc;

	if ((rc = kl_scan_feed(sc, s->buf, s->len, err)) != 0)
		return (rc);
	return (kl_scan_drain(sc, err));
}

/* Does the real sink's line filter still read as the chunk's copy? */
static int
same_filter(const struct kl_sink *k, const struct slot *s)
{
	if (k->line_first == NULL)
		return (s->lfnull);
	return (!s->lfnull && memcmp(k->line_first, s->lf, sizeof(s->lf)) ==
	    0);
}

/*
 * Give the recorded events of s from the from-th on to the real sink:
 * line and boot numbers moved by linebase and bootbase, the boot event
 * of the segment open at the chunk's start (boot 0) completed from pos.
 * Returns 1 when the sink asked to stop.
 */
static int
replay(struct kl_scan *sc, struct slot *s, size_t from, uint64_t linebase,
    unsigned bootbase, const struct kl_scan_pos *pos)
{
	const struct kl_sink *k = kl_scan_sink(sc);
	struct kl_finding f;
	struct kl_line l;
	struct kl_boot b;
	const struct cfind *c;
	struct ev *e;
	size_t i;
	int rc = 0;

	for (i = from; i < s->nev && rc == 0; i++) {
		e = &s->ev[i];
		switch (e->kind) {
		case EV_FINDING:
			c = &s->fv[e->u.fi];
			f = c->f;
			if (e->own & OWN_TEXT)
				f.text = s->arena + c->text;
			if (e->own & OWN_LTEXT)
				f.ltext = s->arena + c->ltext;
			f.line += linebase;
			f.boot += bootbase;
			rc = k->finding(k->arg, &f);
			break;
		case EV_LINE:
			l.line = e->u.l.line + linebase;
			l.text = e->own & OWN_LTEXT ?
			    s->arena + e->u.l.text.off : e->u.l.text.p;
			l.len = e->u.l.len;
			l.msg = e->u.l.msg;
			l.offset = e->u.l.offset;
			l.boot = e->u.l.boot + bootbase;
			l.banner = e->u.l.banner;
			l.record = NULL;
			rc = k->line(k->arg, &l);
			break;
		default:
			b = e->u.b;
			if (b.boot == 0) {
				b.first_line = pos->seg_first;
				b.first_offset = pos->seg_off;
			} else
				b.first_line += linebase;
			b.last_line += linebase;
			b.boot += bootbase;
			rc = k->boot(k->arg, &b);
			break;
		}
	}
	if (rc != 0) {
		kl_scan_stop(sc);
		return (1);
	}
	return (0);
}

/*
 * The oldest chunk in flight, s, is scanned: give its events to the
 * real scanner sc's sink (all of them, or from its first new boot
 * segment on, after the lines before it were scanned in order), or scan
 * it again in order.  Returns as kl_scan_feed().
 */
static int
settle(struct kl_scan *sc, struct slot *s, struct kl_chunk_stats *cs,
    struct kl_error *err)
{
	uint64_t t = now_ns();
	struct kl_scan_pos pos;
	struct slot pre;
	uint64_t end = s->off + s->len, rs;
	unsigned bootbase, rsboot;
	int rc;

	if (s->rc != 0 || s->nomem || !same_filter(kl_scan_sink(sc), s))
		goto serial;
	if (kl_scan_spec_ok(sc, &s->spec, s->sc)) {
		kl_scan_pos(sc, &pos);
		if ((rc = replay(sc, s, 0, pos.lineno, pos.boot, &pos)) != 0)
			return (rc);
		if (kl_scan_adopt(sc, s->sc, end, pos.lineno, pos.boot,
		    0) == -1)
			goto nomem;
		cs->accepted++;
		cs->replay_ns += now_ns() - t;
		return (0);
	}
	rs = kl_scan_resync_off(s->sc);
	if (rs == UINT64_MAX || s->i0 == SIZE_MAX || rs < s->off ||
	    rs > end)
		goto serial;
	/* The lines before the chunk's first new boot, in order. */
	pre = *s;
	pre.len = (size_t)(rs - s->off);
	if ((rc = scan_serial(sc, &pre, err)) != 0)
		return (rc);
	if ((rc = kl_scan_resync(sc, s->sc)) == -1)
		return (1);
	if (rc == 0) {
		/* Not the same boot there: the rest in order. */
		cs->rescanned++;
		pre.buf = s->buf + pre.len;
		pre.len = s->len - pre.len;
		rc = scan_serial(sc, &pre, err);
		cs->order_ns += now_ns() - t;
		return (rc);
	}
	cs->order_ns += now_ns() - t;
	t = now_ns();
	kl_scan_pos(sc, &pos);
	pos.lineno -= kl_scan_resync_line(s->sc, &rsboot) - 1;
	bootbase = pos.boot - rsboot;
	if ((rc = replay(sc, s, s->i0, pos.lineno, bootbase, &pos)) != 0)
		return (rc);
	if (kl_scan_adopt(sc, s->sc, end, pos.lineno, bootbase, 1) == -1)
		goto nomem;
	cs->resynced++;
	cs->replay_ns += now_ns() - t;
	return (0);
serial:
	cs->rescanned++;
	rc = scan_serial(sc, s, err);
	cs->order_ns += now_ns() - t;
	return (rc);
nomem:
	kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
	return (-1);
}

/* Stop the threads and free what the chunked scan made. */
static void
ck_free(struct ck *ck)
{
	unsigned i;

	pthread_mutex_lock(&ck->mu);
	ck->quit = 1;
	pthread_cond_broadcast(&ck->work);
	pthread_mutex_unlock(&ck->mu);
	for (i = 0; i < ck->nth; i++)
		pthread_join(ck->th[i], NULL);
	for (i = 0; i < ck->nslots; i++) {
		kl_scan_free(ck->slot[i].sc);
		kl_hb_free(ck->slot[i].buf, ck->slot[i].cap);
		list_free(ck->slot[i].ev, ck->slot[i].evcap,
		    sizeof(struct ev), ck->slot[i].evhb);
		list_free(ck->slot[i].fv, ck->slot[i].fcap,
		    sizeof(struct cfind), ck->slot[i].fvhb);
		free(ck->slot[i].arena);
	}
	free(ck->slot);
	free(ck->th);
	pthread_cond_destroy(&ck->work);
	pthread_cond_destroy(&ck->done);
	pthread_mutex_destroy(&ck->mu);
}

/* Set up the slots, their scanners and the threads. */
static int
ck_init(struct ck *ck, struct kl_scan *sc, const struct kl_chunk_opt *opt,
    struct kl_error *err)
{
	const struct kl_sink *real = kl_scan_sink(sc);
	struct kl_sink rs;
	unsigned i;

	memset(ck, 0, sizeof(*ck));
	pthread_mutex_init(&ck->mu, NULL);
	pthread_cond_init(&ck->work, NULL);
	pthread_cond_init(&ck->done, NULL);
	ck->chunk = opt->chunk > 0 ? opt->chunk : 2u << 20;
	ck->nslots = opt->slots > 0 ? opt->slots : 2 * opt->threads;
	if (ck->nslots < 2)
		ck->nslots = 2;
	if ((ck->slot = calloc(ck->nslots, sizeof(*ck->slot))) == NULL ||
	    (ck->th = calloc(opt->threads, sizeof(*ck->th))) == NULL)
		goto nomem;
	for (i = 0; i < ck->nslots; i++) {
		memset(&rs, 0, sizeof(rs));
		rs.arg = &ck->slot[i];
		rs.finding = real->finding != NULL ? rec_finding : NULL;
		rs.line = real->line != NULL ? rec_line : NULL;
		rs.boot = real->boot != NULL ? rec_boot : NULL;
		if ((ck->slot[i].sc = kl_scan_new(kl_scan_engine(sc), &rs,
		    err)) == NULL)
			return (-1);
	}
	for (i = 0; i < opt->threads; i++) {
		if (pthread_create(&ck->th[i], NULL, worker, ck) != 0)
			break;
		ck->nth++;
	}
	return (0);
nomem:
	kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
	return (-1);
}

/*
 * The chunks ahead start from the real scan's latest state (cur), taken
 * after each chunk it settles.  Where something waits in sc (a token, a
 * line event, a report watch), that state is still the best guess of
 * the state at the cuts ahead, better than an older clean one: a long
 * undecided boot keeps sc from being clean at any cut, and the state of
 * the file's start (no banner seen yet) would then be every chunk's.  A
 * guess costs nothing wrong: kl_scan_spec_ok() takes a chunk only from a
 * clean sc with the same state.
 */
struct kl_chunker {
	struct ck		 ck;
	struct kl_scan		*sc;
	struct kl_chunk_stats	 cs;
	struct kl_spec		 cur;
	unsigned		 head;		/* the oldest chunk in flight */
	unsigned		 inflight;
	uint64_t		 seq;
	/* The chunk being filled: slot head + inflight, never in flight. */
	uint64_t		 off;		/* unit offset of its buf[0] */
	size_t			 flen;		/* bytes in it */
	size_t			 need;		/* cut it when it holds this */
	int			 rc;		/* 1: stopped, -1: failed */
};

/* The slot being filled (there is one: inflight < nslots). */
static struct slot *
fill_slot(struct kl_chunker *ch)
{
	return (&ch->ck.slot[(ch->head + ch->inflight) % ch->ck.nslots]);
}

/* Wait for the oldest chunk in flight, give its events, free its slot. */
static int
settle_head(struct kl_chunker *ch, struct kl_error *err)
{
	struct slot *s = &ch->ck.slot[ch->head];
	uint64_t t = now_ns();
	int rc;

	pthread_mutex_lock(&ch->ck.mu);
	while (s->state != SL_DONE)
		pthread_cond_wait(&ch->ck.done, &ch->ck.mu);
	pthread_mutex_unlock(&ch->ck.mu);
	ch->cs.wait_ns += now_ns() - t;
	rc = settle(ch->sc, s, &ch->cs, err);
	pthread_mutex_lock(&ch->ck.mu);
	s->state = SL_FREE;
	pthread_mutex_unlock(&ch->ck.mu);
	ch->head = (ch->head + 1) % ch->ck.nslots;
	ch->inflight--;
	kl_scan_spec_get(ch->sc, &ch->cur);
	return (rc);
}

/* Make the slot to fill free, settling the oldest chunk if need be. */
static int
free_slot(struct kl_chunker *ch, struct kl_error *err)
{
	int rc;

	while (ch->inflight >= ch->ck.nslots)
		if ((rc = settle_head(ch, err)) != 0)
			return (rc);
	return (0);
}

/* Room for n more bytes in the slot being filled, at *pp. */
static int
fill_room(struct kl_chunker *ch, size_t n, uint8_t **pp,
    struct kl_error *err)
{
	struct slot *s;
	size_t nc;
	void *p;
	int rc;

	if ((rc = free_slot(ch, err)) != 0)
		return (rc);
	s = fill_slot(ch);
	if (s->cap - ch->flen < n) {
		nc = ch->flen + n;
		if (nc < ch->ck.chunk)
			nc = ch->ck.chunk;
		/*
		 * Fresh on each run and read once: mapped where the kernel
		 * may give huge pages (hbuf.c), 2 faults for 4 MiB, not
		 * 1,024.  (The events' lists and arena, filled only in part,
		 * would waste most of a last 2 MiB page each.)
		 */
		p = s->buf;
		if (nc < n || kl_hb_grow(&p, &s->cap, ch->flen, nc) == -1) {
			kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
			return (-1);
		}
		s->buf = p;
	}
	*pp = s->buf + ch->flen;
	return (0);
}

/*
 * Cut the slot being filled after its last newline (not final: or
 * before a banner, banner_cut()) and give that chunk to a thread (to the
 * real scanner, in order, when there is none); what follows the cut
 * starts the next slot.  Without a newline nothing is cut: a long line,
 * to be read on.
 */
static int
fill_cut(struct kl_chunker *ch, int final, struct kl_error *err)
{
	struct slot *s = fill_slot(ch), *t;
	const struct kl_sink *k = kl_scan_sink(ch->sc);
	const uint8_t *nl;
	size_t len, rest;
	uint8_t *p;
	int rc;

	if ((nl = last_nl(s->buf, ch->flen)) == NULL) {
		ch->need = ch->flen * 2 > ch->flen ? ch->flen * 2 : SIZE_MAX;
		return (0);
	}
	len = (size_t)(nl - s->buf) + 1;
	if (!final && ch->cur.seg_banner)
		len = banner_cut(s->buf, len);
	rest = ch->flen - len;
	s->len = len;
	s->off = ch->off;
	s->spec = ch->cur;
	s->lfnull = k->line_first == NULL;
	if (!s->lfnull)
		memcpy(s->lf, k->line_first, sizeof(s->lf));
	ch->cs.chunks++;
	ch->off += len;
	ch->flen = 0;
	/* A rest longer than a chunk (after a long line) is cut again. */
	ch->need = rest < ch->ck.chunk ? ch->ck.chunk : rest + 1;
	if (ch->ck.nth == 0) {
		/* No thread to scan ahead: in order, in place. */
		ch->cs.serial++;
		if ((rc = scan_serial(ch->sc, s, err)) != 0)
			return (rc);
		kl_scan_spec_get(ch->sc, &ch->cur);
		if (rest > 0)
			memmove(s->buf, s->buf + len, rest);
		ch->flen = rest;
		return (0);
	}
	pthread_mutex_lock(&ch->ck.mu);
	s->seq = ch->seq++;
	s->state = SL_QUEUED;
	pthread_cond_signal(&ch->ck.work);
	pthread_mutex_unlock(&ch->ck.mu);
	ch->inflight++;
	/* The thread only reads s->buf[0, len): the rest moves on. */
	if ((rc = fill_room(ch, rest, &p, err)) != 0)
		return (rc);
	t = fill_slot(ch);
	if (rest > 0)
		memcpy(t->buf, s->buf + len, rest);
	ch->flen = rest;
	return (0);
}

/* The slot being filled has n more bytes: cut it when it is full. */
static int
fill_commit(struct kl_chunker *ch, size_t n, struct kl_error *err)
{
	ch->flen += n;
	if (ch->flen < ch->need)
		return (0);
	return (fill_cut(ch, 0, err));
}

/*
 * A chunked scan of the unit sc holds (just begun), its bytes given in
 * order by kl_chunk_feed(): as kl_scan_feed() of all of them would scan
 * it, on opt->threads threads.  NULL when memory is short.
 */
struct kl_chunker *
kl_chunk_new(struct kl_scan *sc, const struct kl_chunk_opt *opt,
    struct kl_error *err)
{
	struct kl_chunker *ch;

	if (opt->threads < 1) {
		kl_error_set(err, KL_EINVAL, 0, "no thread to scan with");
		return (NULL);
	}
	if ((ch = calloc(1, sizeof(*ch))) == NULL) {
		kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
		return (NULL);
	}
	ch->sc = sc;
	if (ck_init(&ch->ck, sc, opt, err) == -1) {
		kl_chunk_free(ch);
		return (NULL);
	}
	ch->need = ch->ck.chunk;
	kl_scan_spec_get(sc, &ch->cur);
	return (ch);
}

/*
 * The next n bytes of the unit.  Returns as kl_scan_feed(): 0, 1 when
 * the sink stopped the scan, -1 on error; after a non-zero return the
 * scan is over (kl_chunk_end() says the same).
 */
int
kl_chunk_feed(struct kl_chunker *ch, const void *data, size_t n,
    struct kl_error *err)
{
	const uint8_t *p = data;
	uint8_t *q;
	size_t k;

	while (ch->rc == 0 && n > 0) {
		k = ch->need - ch->flen;
		if (k > n)
			k = n;
		if ((ch->rc = fill_room(ch, k, &q, err)) != 0)
			break;
		memcpy(q, p, k);
		ch->rc = fill_commit(ch, k, err);
		p += k;
		n -= k;
	}
	return (ch->rc);
}

/*
 * The unit's bytes are all given: scan what is left and give every
 * chunk's events, so that sc stands as after kl_scan_feed() of them all
 * (the caller ends the unit with kl_scan_end()).  *cs: the counters.
 * Returns as kl_chunk_feed().
 */
int
kl_chunk_end(struct kl_chunker *ch, struct kl_chunk_stats *cs,
    struct kl_error *err)
{
	struct slot *s;

	if (ch->rc == 0 && ch->flen > 0)
		ch->rc = fill_cut(ch, 1, err);
	while (ch->rc == 0 && ch->inflight > 0)
		ch->rc = settle_head(ch, err);
	/* The bytes after the last newline. */
	if (ch->rc == 0 && ch->flen > 0) {
		s = fill_slot(ch);
		ch->rc = kl_scan_feed(ch->sc, s->buf, ch->flen, err);
		ch->flen = 0;
	}
	if (cs != NULL)
		*cs = ch->cs;
	return (ch->rc);
}

/* Free the chunked scan; chunks still in flight are dropped. */
void
kl_chunk_free(struct kl_chunker *ch)
{
	if (ch == NULL)
		return;
	ck_free(&ch->ck);
	free(ch);
}

/*
 * Scan the file at fd, from its offset to its end, as kl_scan_feed() of
 * all its bytes would (the caller ends the unit with kl_scan_end()).  sc
 * holds a unit just begun.  Read straight into the chunks.  Returns 0,
 * 1 when the sink stopped the scan, -1 on error (a read error: KL_EIO).
 */
int
kl_scan_chunked(struct kl_scan *sc, int fd, const struct kl_chunk_opt *opt,
    struct kl_chunk_stats *cs, struct kl_error *err)
{
	struct kl_chunker *ch;
	off_t start;
	uint64_t at = 0;
	ssize_t r;
	uint8_t *p;
	size_t want;
	int rc = 0;

	memset(cs, 0, sizeof(*cs));
	if ((start = lseek(fd, 0, SEEK_CUR)) == -1)
		start = 0;
	if ((ch = kl_chunk_new(sc, opt, err)) == NULL)
		return (-1);
	for (;;) {
		want = ch->need - ch->flen;
		if ((rc = fill_room(ch, want, &p, err)) != 0)
			break;
		r = pread(fd, p, want, start + (off_t)at);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			kl_error_set(err, KL_EIO, errno, "read failed");
			rc = -1;
			break;
		}
		if (r == 0)
			break;
		at += (uint64_t)r;
		if ((rc = fill_commit(ch, (size_t)r, err)) != 0)
			break;
	}
	ch->rc = rc;
	rc = kl_chunk_end(ch, cs, err);
	kl_chunk_free(ch);
	return (rc);
}
