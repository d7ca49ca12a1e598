/*
 * pipe.c - the decompression pipeline: the input read, decompressed and
 * split into units on a producer thread, the callbacks played on the
 * caller's thread from a ring of slots.
 */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "input-int.h"

#define SLOT		(1u << 20)	/* a slot of the pipeline's ring */
/*
 * Slots in the ring.  Where the decoder is the slower (xz), it waited
 * for the scan's slow stretches with four: 256 MiB of real logs as .xz,
 * -c, 1.21 s with 4, 0.97 s with 8, 0.955 s with 16 (median of 8).
 */
#define NSLOT		8

/*
 * The pipeline.  A compressed input or an archive is read, decompressed
 * and split into units on a producer thread, while the caller's thread
 * runs the callbacks: the producer's callbacks are the rec_*() below,
 * which append records (begin, data, end) to the slots of a small ring;
 * the caller's thread plays them in order through the caller's ops.
 * Every callback is thus called on the caller's thread, in the same
 * order, with the same bytes (data may come in other pieces).  When a
 * callback asks to stop, the consumer ends the unit as the producer
 * would have (end() after data(), nothing after begin()), tells the
 * producer to stop and drops what it sends from then on.
 */
enum rtype {
	R_BEGIN = 1,
	R_DATA,
	R_END,
};

/* A unit as the caller's thread gets it: a copy of the producer's. */
struct punit {
	struct kl_unit	 u;
	const char	*members[LVL_MAX + 1];
	char		 names[];	/* the names, NUL-terminated */
};

/* A record in a slot; data follows a R_DATA record, padded. */
struct rhdr {
	int		 type;
	size_t		 len;		/* data bytes */
	struct punit	*pu;		/* R_BEGIN */
	struct kl_error	 err;		/* R_END */
	int		 haserr;
};

/* The ring between the producer and the caller's thread. */
struct pipeline {
	pthread_mutex_t			 mu;
	pthread_cond_t			 nonempty;
	pthread_cond_t			 nonfull;
	uint8_t				*ring;		/* the slots (hbuf.c) */
	size_t				 ringsz;
	uint8_t				*slot[NSLOT];
	size_t				 fill[NSLOT];	/* bytes of records */
	unsigned			 q[NSLOT];	/* published slots */
	unsigned			 head;		/* q[head] plays next */
	unsigned			 count;		/* slots published */
	unsigned			 fs[NSLOT];	/* free: a stack */
	unsigned			 nfree;
	int				 done;		/* producer finished */
	atomic_int			 cancel;	/* consumer stopped */
	int				 nomem;
	unsigned			 cur;		/* slot being filled */
	const struct kl_input_ops	*ops;		/* the caller's */
	struct kl_input_ops		 rops;		/* the rec_*() */
	struct ictx			*c;
	size_t				 n;		/* the prefix */
	enum sres			(*run)(struct ictx *, struct lvl *,
					    size_t, size_t, unsigned,
					    const char *, const char *);
};

/* Round n up to the alignment of a record header. */
static size_t
ralign(size_t n)
{
	return ((n + _Alignof(struct rhdr) - 1) &
	    ~(size_t)(_Alignof(struct rhdr) - 1));
}

/* Queue the slot being filled for the consumer (pl->mu held). */
static void
pl_queue(struct pipeline *pl)
{
	pl->q[(pl->head + pl->count) % NSLOT] = pl->cur;
	pl->count++;
	pthread_cond_signal(&pl->nonempty);
}

/*
 * Hand the slot being filled to the consumer; wait for a free one, the
 * one the consumer freed last (still in the cache).
 */
static void
pl_publish(struct pipeline *pl)
{
	pthread_mutex_lock(&pl->mu);
	pl_queue(pl);
	while (pl->nfree == 0)
		pthread_cond_wait(&pl->nonfull, &pl->mu);
	pl->cur = pl->fs[--pl->nfree];
	pthread_mutex_unlock(&pl->mu);
	pl->fill[pl->cur] = 0;
}

/*
 * Room for a record with len data bytes (at least want of them) in the
 * slot being filled: the address of its header.
 */
static struct rhdr *
pl_room(struct pipeline *pl, size_t want)
{
	size_t need;

	need = ralign(sizeof(struct rhdr)) + ralign(want);
	if (pl->fill[pl->cur] + need > SLOT)
		pl_publish(pl);
	return ((struct rhdr *)(void *)(pl->slot[pl->cur] + pl->fill[pl->cur]));
}

/* Append a record without data. */
static int
pl_put(struct pipeline *pl, const struct rhdr *h)
{
	struct rhdr *d;

	d = pl_room(pl, 0);
	*d = *h;
	pl->fill[pl->cur] += ralign(sizeof(struct rhdr));
	return (atomic_load(&pl->cancel));
}

/* Producer begin(): copy the unit, names and all. */
static int
rec_begin(void *arg, const struct kl_unit *u)
{
	struct pipeline *pl = arg;
	struct punit *pu;
	struct rhdr h;
	size_t i, len, tot, o;

	if (atomic_load(&pl->cancel))
		return (1);
	tot = 0;
	for (i = 0; i < u->nmembers; i++)
		if (kl_add(tot, strlen(u->members[i]) + 1, &tot) < 0)
			return (pl->nomem = 1);
	if (kl_add(tot, sizeof(*pu), &tot) < 0 || (pu = malloc(tot)) == NULL)
		return (pl->nomem = 1);
	pu->u = *u;
	pu->u.members = pu->members;
	o = 0;
	for (i = 0; i < u->nmembers; i++) {
		len = strlen(u->members[i]) + 1;
		memcpy(pu->names + o, u->members[i], len);
		pu->members[i] = pu->names + o;
		o += len;
	}
	memset(&h, 0, sizeof(h));
	h.type = R_BEGIN;
	h.pu = pu;
	return (pl_put(pl, &h));
}

/* Producer data(): copy the bytes, in pieces that fit the slots. */
static int
rec_data(void *arg, const struct kl_unit *u, const void *p, size_t n)
{
	struct pipeline *pl = arg;
	struct rhdr *d;
	size_t take, room;

	(void)u;
	while (n > 0) {
		if (atomic_load(&pl->cancel))
			return (1);
		d = pl_room(pl, n < 4096 ? n : 4096);
		room = SLOT - pl->fill[pl->cur] - ralign(sizeof(struct rhdr));
		take = n < room ? n : room;
		memset(d, 0, sizeof(*d));
		d->type = R_DATA;
		d->len = take;
		memcpy((uint8_t *)d + ralign(sizeof(struct rhdr)), p, take);
		pl->fill[pl->cur] += ralign(sizeof(struct rhdr)) + ralign(take);
		p = (const uint8_t *)p + take;
		n -= take;
	}
	return (atomic_load(&pl->cancel));
}

/* Producer end(). */
static int
rec_end(void *arg, const struct kl_unit *u, const struct kl_error *e)
{
	struct pipeline *pl = arg;
	struct rhdr h;

	(void)u;
	memset(&h, 0, sizeof(h));
	h.type = R_END;
	if (e != NULL) {
		h.err = *e;
		h.haserr = 1;
	}
	return (pl_put(pl, &h));
}

/* The producer thread: the input, from its prefix on. */
static void *
producer(void *arg)
{
	struct pipeline *pl = arg;

	(void)pl->run(pl->c, NULL, 0, pl->n, 0, NULL, NULL);
	pthread_mutex_lock(&pl->mu);
	if (pl->fill[pl->cur] > 0)
		pl_queue(pl);
	pl->done = 1;
	pthread_cond_signal(&pl->nonempty);
	pthread_mutex_unlock(&pl->mu);
	return (NULL);
}

/*
 * Play the records of slot b[0..n) through the caller's ops; *cur is the
 * unit begun.  Returns 1 once a callback asked to stop (*stopped).
 */
static void
pl_play(struct pipeline *pl, const uint8_t *b, size_t n, struct punit **cur,
    int *stopped)
{
	const struct kl_input_ops *ops = pl->ops;
	const struct rhdr *h;
	size_t o;

	for (o = 0; o < n;) {
		h = (const struct rhdr *)(const void *)(b + o);
		o += ralign(sizeof(struct rhdr));
		switch (h->type) {
		case R_BEGIN:
			free(*cur);
			*cur = h->pu;
			if (*stopped)
				break;
			if (ops->begin(ops->arg, &(*cur)->u) != 0) {
				*stopped = 1;
				free(*cur);
				*cur = NULL;
			}
			break;
		case R_DATA:
			o += ralign(h->len);
			if (*stopped || *cur == NULL)
				break;
			if (ops->data(ops->arg, &(*cur)->u,
				b + o - ralign(h->len), h->len) != 0) {
				*stopped = 1;
				(void)ops->end(ops->arg, &(*cur)->u, NULL);
				free(*cur);
				*cur = NULL;
			}
			break;
		case R_END:
			if (!*stopped && *cur != NULL &&
			    ops->end(ops->arg, &(*cur)->u,
				h->haserr ? &h->err : NULL) != 0)
				*stopped = 1;
			free(*cur);
			*cur = NULL;
			break;
		}
	}
}

/*
 * Read the input of c (its prefix of n bytes read) through the
 * pipeline, the producer thread running run() from the prefix on.  -1
 * when no thread could be started: read it here; 1 when a callback
 * asked to stop; 2 when the producer ran out of memory; else 0.
 */
int
kl_pipe_run(struct ictx *c, size_t n,
    enum sres (*run)(struct ictx *, struct lvl *, size_t, size_t, unsigned,
	const char *, const char *))
{
	struct pipeline *pl;
	struct punit *cur;
	sigset_t all, old;
	pthread_t t;
	unsigned i, k;
	int stopped, r, ret;

	if ((pl = calloc(1, sizeof(*pl))) == NULL)
		return (-1);
	/* Fresh on each input: where the kernel may give huge pages. */
	if ((pl->ring = kl_hb_alloc((size_t)NSLOT * SLOT, &pl->ringsz)) ==
	    NULL)
		goto fail;
	for (i = 0; i < NSLOT; i++)
		pl->slot[i] = pl->ring + (size_t)i * SLOT;
	if (pthread_mutex_init(&pl->mu, NULL) != 0)
		goto fail;
	if (pthread_cond_init(&pl->nonempty, NULL) != 0) {
		pthread_mutex_destroy(&pl->mu);
		goto fail;
	}
	if (pthread_cond_init(&pl->nonfull, NULL) != 0) {
		pthread_cond_destroy(&pl->nonempty);
		pthread_mutex_destroy(&pl->mu);
		goto fail;
	}
	atomic_init(&pl->cancel, 0);
	pl->cur = 0;
	for (i = NSLOT - 1; i > 0; i--)
		pl->fs[pl->nfree++] = i;
	pl->ops = c->ops;
	pl->rops.arg = pl;
	pl->rops.begin = rec_begin;
	pl->rops.data = rec_data;
	pl->rops.end = rec_end;
	pl->rops.flags = c->ops->flags;
	pl->c = c;
	pl->n = n;
	pl->run = run;
	c->ops = &pl->rops;
	c->pl = pl;
	/* Signals are the caller's thread's business. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&t, NULL, producer, pl);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r != 0) {
		c->ops = pl->ops;
		c->pl = NULL;
		pthread_cond_destroy(&pl->nonfull);
		pthread_cond_destroy(&pl->nonempty);
		pthread_mutex_destroy(&pl->mu);
		goto fail;
	}
	cur = NULL;
	stopped = 0;
	pthread_mutex_lock(&pl->mu);
	for (;;) {
		while (pl->count == 0 && !pl->done)
			pthread_cond_wait(&pl->nonempty, &pl->mu);
		if (pl->count == 0)
			break;
		k = pl->q[pl->head];
		pthread_mutex_unlock(&pl->mu);
		pl_play(pl, pl->slot[k], pl->fill[k], &cur, &stopped);
		if (stopped)
			atomic_store(&pl->cancel, 1);
		pthread_mutex_lock(&pl->mu);
		pl->head = (pl->head + 1) % NSLOT;
		pl->count--;
		pl->fs[pl->nfree++] = k;
		pthread_cond_signal(&pl->nonfull);
	}
	pthread_mutex_unlock(&pl->mu);
	pthread_join(t, NULL);
	free(cur);
	c->ops = pl->ops;
	c->pl = NULL;
	ret = stopped ? 1 : pl->nomem ? 2 : 0;
	pthread_cond_destroy(&pl->nonfull);
	pthread_cond_destroy(&pl->nonempty);
	pthread_mutex_destroy(&pl->mu);
	kl_hb_free(pl->ring, pl->ringsz);
	free(pl);
	return (ret);
fail:
	kl_hb_free(pl->ring, pl->ringsz);
	free(pl);
	return (-1);
}

/* Has the caller's thread stopped the producer of c? */
int
kl_pipe_stopped(struct ictx *c)
{
	return (atomic_load(&c->pl->cancel));
}

/* Hand what the producer of c has to the caller's thread now. */
void
kl_pipe_flush(struct ictx *c)
{
	if (c->pl->fill[c->pl->cur] > 0)
		pl_publish(c->pl);
}
