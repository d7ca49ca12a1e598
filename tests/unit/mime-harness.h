/*
 * mime-harness.h - what the mail reader tests share: callbacks that
 * record every message, part, decoded line and error kl_mime_feed()
 * delivers, and a run over a whole mail or one fed a byte at a time.
 * Static, included once by each test-*.c of the mail reader (test-mime,
 * test-mimebody, test-mimemap); what a file does not use is not a warning.
 */
#ifndef MIME_HARNESS_H
#define MIME_HARNESS_H

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

/* What the callbacks saw. */
struct got {
	char		 text[4 * 65536 + 64]; /* decoded text of every message */
	size_t		 len;
	int		 begins;
	int		 ends;
	char		 ids[8][KL_MIME_ID_MAX + 1];
	uint64_t	 lines[8];	/* stored line of each message */
	int		 nerr;
	char		 err[8][256];
	uint64_t	 errline[8];
	size_t		 start[8];	/* text offset where a message began */
};

/* Callback: a message begins. */
static int
cb_begin(void *arg, const struct kl_mime_msg *m)
{
	struct got *g = arg;

	if (g->begins < 8) {
		snprintf(g->ids[g->begins], sizeof(g->ids[0]), "%s",
		    m->id != NULL ? m->id : "-");
		g->lines[g->begins] = m->line;
		g->start[g->begins] = g->len;
	}
	g->begins++;
	return (0);
}

/* Callback: decoded text. */
static int
cb_text(void *arg, const uint8_t *p, size_t n)
{
	struct got *g = arg;

	assert_true(g->len + n < sizeof(g->text));
	memcpy(g->text + g->len, p, n);
	g->len += n;
	g->text[g->len] = '\0';
	return (0);
}

/* Callback: a message ends. */
static int
cb_end(void *arg, const struct kl_mime_msg *m)
{
	struct got *g = arg;

	(void)m;
	g->ends++;
	return (0);
}

/* Callback: damage. */
static int
cb_error(void *arg, const struct kl_error *e)
{
	struct got *g = arg;

	if (g->nerr < 8) {
		snprintf(g->err[g->nerr], sizeof(g->err[0]), "%s", e->msg);
		g->errline[g->nerr] = e->line;
	}
	g->nerr++;
	return (0);
}

/* Read s with a reader, step bytes at a time (0: at once); keep it. */
static struct kl_mime *
readm(const char *s, size_t step, struct got *g)
{
	struct kl_mime_ops ops;
	struct kl_mime *m;
	struct kl_error err;
	size_t n = strlen(s), i, k;
	enum kl_mime_box box;

	memset(g, 0, sizeof(*g));
	memset(&ops, 0, sizeof(ops));
	ops.arg = g;
	ops.begin = cb_begin;
	ops.text = cb_text;
	ops.end = cb_end;
	ops.error = cb_error;
	box = kl_mime_sniff((const uint8_t *)s, n);
	assert_int_not_equal(box, KL_MIME_NONE);
	memset(&err, 0, sizeof(err));
	m = kl_mime_new(box, &ops, &err);
	assert_non_null(m);
	if (step == 0)
		step = n > 0 ? n : 1;
	for (i = 0; i < n; i += k) {
		k = n - i < step ? n - i : step;
		assert_int_equal(kl_mime_feed(m, s + i, k, &err), 0);
	}
	/* The map of the last message is kept until the next begins. */
	return (m);
}

/* Read s and end the reader; the map of the last message is kept. */
static struct kl_mime *
readall(const char *s, size_t step, struct got *g)
{
	struct kl_mime *m = readm(s, step, g);
	struct kl_error err;

	memset(&err, 0, sizeof(err));
	assert_int_equal(kl_mime_end(m, &err), 0);
	return (m);
}


#endif /* MIME_HARNESS_H */
