/*
 * fuzz-archive.c - libFuzzer harness for the input layer.
 *
 * The first byte picks how the rest arrives: as a file (a memfd, which
 * can be seeked, so 7z is read too) or through a pipe fed by a thread
 * (bit 0), whether the data callback asks to stop at its third call
 * (bit 1), whether binary units get their data (bit 2), and whether
 * an xz stream is decoded on one thread or two (bit 3: liblzma's
 * threaded decoder, xz-mt.c, when the build has it).  The
 * rest goes through kl_input_fd() with small limits (depth 3, 16 MiB per
 * input, 4 MiB per member, ratio 50), and the callbacks check what the
 * interface promises: begin and end balanced, names never NULL, no data
 * for a binary unit (unless asked), no unit larger than max_member, no input larger
 * than max_total, errors with a code and a terminated message, the
 * return value one of -1, 0 and 1 (1 only after a stop was asked for).
 */
#include "config.h"

#include <sys/mman.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleak.h"

#define F_DEPTH		3
#define F_TOTAL		(UINT64_C(16) << 20)
#define F_MEMBER	(UINT64_C(4) << 20)
#define F_RATIO		50

int	LLVMFuzzerInitialize(int *, char ***);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* What the callbacks saw of one input. */
struct chk {
	int		 open;
	const struct kl_unit *unit;
	enum kl_unit_kind kind;
	size_t		 units;
	uint64_t	 bytes;		/* the whole input */
	uint64_t	 ubytes;	/* the open unit */
	size_t		 ndata;
	size_t		 stop_at;	/* data call that returns 1, or 0 */
	int		 stopped;
	int		 all;		/* KL_INPUT_ALL_DATA */
};

/* A pipe writer's job. */
struct feed {
	int		 fd;
	const uint8_t	*d;
	size_t		 n;
};

/* The fuzzer found a broken promise. */
static void
broken(void)
{
	abort();
}

/* begin: no unit open; a path, members, a known kind. */
static int
f_begin(void *arg, const struct kl_unit *u)
{
	struct chk *c = arg;
	size_t i;

	if (c->open || u == NULL || u->path == NULL)
		broken();
	if (u->nmembers > 0 && u->members == NULL)
		broken();
	if (u->nmembers > 2 * F_DEPTH + 1)
		broken();
	for (i = 0; i < u->nmembers; i++)
		if (u->members[i] == NULL)
			broken();
	if (u->kind > KL_UNIT_BINARY)
		broken();
	c->open = 1;
	c->unit = u;
	c->kind = u->kind;
	c->ubytes = 0;
	c->units++;
	return (0);
}

/* data: inside a unit that is not binary, within the limits. */
static int
f_data(void *arg, const struct kl_unit *u, const void *p, size_t n)
{
	struct chk *c = arg;

	if (!c->open || u != c->unit || n == 0 || p == NULL)
		broken();
	if (c->kind == KL_UNIT_BINARY && !c->all)
		broken();
	/* Every byte is readable. */
	(void)((const volatile uint8_t *)p)[0];
	(void)((const volatile uint8_t *)p)[n - 1];
	c->bytes += n;
	c->ubytes += n;
	if (c->bytes > F_TOTAL)
		broken();
	if (u->nmembers > 0 && c->ubytes > F_MEMBER)
		broken();
	if (c->stop_at != 0 && ++c->ndata == c->stop_at) {
		c->stopped = 1;
		return (1);
	}
	return (0);
}

/* end: closes the open unit; an error has a code and a message. */
static int
f_end(void *arg, const struct kl_unit *u, const struct kl_error *e)
{
	struct chk *c = arg;

	if (!c->open || u != c->unit)
		broken();
	if (e != NULL && (e->code == KL_EOK || e->code > KL_EPCRE ||
	    strnlen(e->msg, sizeof(e->msg)) == sizeof(e->msg) ||
	    e->msg[0] == '\0'))
		broken();
	c->open = 0;
	return (0);
}

/* Feed the pipe, then close it; a reader that stopped ends it. */
static void *
feeder(void *arg)
{
	struct feed *f = arg;
	size_t o;
	ssize_t w;

	for (o = 0; o < f->n; o += (size_t)w) {
		w = write(f->fd, f->d + o, f->n - o > 4096 ? 4096 : f->n - o);
		if (w < 0 && errno == EINTR) {
			w = 0;
			continue;
		}
		if (w <= 0)
			break;
	}
	close(f->fd);
	return (NULL);
}

/* libFuzzer: once, before the first input. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	signal(SIGPIPE, SIG_IGN);
	return (0);
}

/* libFuzzer: one input. */
int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct kl_input_ops ops = { NULL, f_begin, f_data, f_end, 0 };
	struct kl_limits lim = { 0 };
	struct kl_error err;
	struct chk c;
	struct feed f;
	pthread_t t;
	uint8_t mode;
	int fd, p[2], ret;

	if (n < 1)
		return (0);
	mode = d[0];
	d++;
	n--;
	memset(&c, 0, sizeof(c));
	c.stop_at = (mode & 2) ? 3 : 0;
	c.all = (mode & 4) != 0;
	ops.flags = c.all ? KL_INPUT_ALL_DATA : 0;
	ops.arg = &c;
	lim.max_depth = F_DEPTH;
	lim.max_total = F_TOTAL;
	lim.max_member = F_MEMBER;
	lim.max_ratio = F_RATIO;
	lim.threads = (mode & 8) ? 2 : 1;
	if (mode & 1) {
		if (pipe(p) == -1)
			return (0);
		f.fd = p[1];
		f.d = d;
		f.n = n;
		if (pthread_create(&t, NULL, feeder, &f) != 0) {
			close(p[0]);
			close(p[1]);
			return (0);
		}
		ret = kl_input_fd(p[0], "fuzz", &lim, &ops, &err);
		close(p[0]);
		pthread_join(t, NULL);
	} else {
		fd = memfd_create("fuzz-archive", 0);
		if (fd == -1)
			return (0);
		if ((n > 0 && write(fd, d, n) != (ssize_t)n) ||
		    lseek(fd, 0, SEEK_SET) != 0) {
			close(fd);
			return (0);
		}
		ret = kl_input_fd(fd, "fuzz", &lim, &ops, &err);
		close(fd);
	}
	if (c.open)
		broken();
	if (ret != -1 && ret != 0 && ret != 1)
		broken();
	if (ret == 1 && !c.stopped)
		broken();
	if (ret == -1 && (err.code == KL_EOK ||
	    strnlen(err.msg, sizeof(err.msg)) == sizeof(err.msg)))
		broken();
	return (0);
}
