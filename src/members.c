/*
 * members.c - -j N on one archive: its members scanned by the workers.
 *
 * With -j N and one input that is an archive (a tarball, compressed or
 * not, a zip, ...), the parent reads it through the input layer as -j 1
 * does (its decompression thread included) and hands each unit it gives
 * (a member, or the unit a damaged container gets) to a worker as one
 * job: the unit's bytes go to an unlinked temporary file, memfd when
 * there is one, followed by a trailer that names it (its kind, path,
 * member chain, filter, and the error that cut it short).  The worker
 * replays the unit through the same begin, data and end callbacks as
 * the input layer calls in -j 1; jobs.c puts the outputs in order and
 * sums the counters.  Members are independent: the scanner, verdict.c
 * and the printers start afresh at each unit, so a unit scanned alone
 * writes the bytes it writes after its predecessors in -j 1.
 *
 * The trailer, at the end of the file:
 *	struct trailer, then the path, the members and the filter, each
 *	ended by a NUL, then a uint64_t: the trailer's length in bytes.
 * jobs.c's queue bounds the units in flight (DEPTH a worker), so the
 * parent is never more than a few members ahead of the scan.  A unit
 * longer than UNIT_MAX bytes is not kept: once every unit before it is
 * out, the parent scans it itself, as -j 1 does, what it kept first and
 * then the rest as it comes (KLEAKSCAN_UNIT_MAX in the environment, a
 * test hook, sets that size).
 */
#include "config.h"

#include <sys/types.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "kleakscan.h"

#define PEEK_SIZE	(64u << 10)	/* as the input layer reads ahead */
#define INNER_SIZE	4096u		/* decompressed bytes to tell a tar */
#define TRAILER_MAX	(16u << 20)	/* a sane trailer */
#define UNIT_MAX	(16u << 20)	/* longer units: scanned here */
#define COPY_SIZE	(256u << 10)

/* What a unit's file ends with, before its names. */
struct trailer {
	uint64_t		 datalen;	/* bytes of the unit */
	uint64_t		 nmembers;
	int32_t			 kind;		/* enum kl_unit_kind */
	int32_t			 has_filter;
	int32_t			 has_cut;	/* cut short: err */
	int32_t			 pad;
	struct kl_error		 cut;
};

/* The parent's state while it reads one archive. */
static struct {
	int		 fd;		/* the open unit's file, -1: none */
	uint64_t	 len;		/* its bytes so far */
	int		 stop;		/* -q found its leak */
	uint64_t	 max;		/* UNIT_MAX */
	const struct kl_input_ops *self; /* the program's own callbacks */
	int		 direct;	/* 1: this unit is scanned here;
					   -1: it began nothing */
} ms = { .fd = -1 };

/* An unlinked temporary file for a unit; exits when there is none. */
static int
unit_file(void)
{
	const char	*dir;
	char		 path[4200];
	int		 fd;

#ifdef MFD_CLOEXEC
	if ((fd = memfd_create("kleakscan-unit", MFD_CLOEXEC)) != -1)
		return (fd);
#endif
	if ((dir = getenv("TMPDIR")) == NULL || *dir == '\0')
		dir = "/tmp";
#ifdef O_TMPFILE
	if ((fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) != -1)
		return (fd);
#endif
	(void)snprintf(path, sizeof(path), "%s/kleakscan-unit.XXXXXX", dir);
	if ((fd = mkstemp(path)) == -1)
		log_fatal("cannot create a temporary file in %s: %s", dir,
		    strerror(errno));
	(void)unlink(path);
	return (fd);
}

/* Append n bytes at p to the unit's file, or exit. */
static void
put(const void *p, size_t n)
{
	const char	*b = p;
	ssize_t		 w;

	while (n > 0) {
		do
			w = write(ms.fd, b, n);
		while (w == -1 && errno == EINTR);
		if (w <= 0)
			log_fatal("cannot write a temporary file: %s",
			    w == -1 ? strerror(errno) : "short write");
		b += w;
		n -= (size_t)w;
	}
}

/* Input layer, in the parent: a unit starts; its file is made. */
static int
m_begin(void *arg, const struct kl_unit *ku)
{
	(void)arg;
	(void)ku;
	if ((ms.stop = jobs_stopped()) != 0)
		return (1);
	ms.fd = unit_file();
	ms.len = 0;
	ms.direct = 0;
	return (0);
}

/*
 * The open unit is too long to keep: write out the units before it,
 * then scan it here, what was kept first.  Non-zero: stop the input.
 */
static int
go_direct(const struct kl_unit *ku)
{
	static char	 b[COPY_SIZE];
	uint64_t	 off;
	ssize_t		 r;

	ms.direct = 1;
	if ((ms.stop = jobs_drain()) != 0 ||
	    ms.self->begin(ms.self->arg, ku) != 0) {
		ms.direct = -1;
		return (1);
	}
	for (off = 0; off < ms.len; off += (uint64_t)r) {
		do
			r = pread(ms.fd, b, ms.len - off < sizeof(b) ?
			    (size_t)(ms.len - off) : sizeof(b), (off_t)off);
		while (r == -1 && errno == EINTR);
		if (r <= 0)
			log_fatal("cannot read a temporary file: %s",
			    r == -1 ? strerror(errno) : "short read");
		if (ms.self->data(ms.self->arg, ku, b, (size_t)r) != 0)
			return (1);
	}
	close(ms.fd);
	ms.fd = -1;
	return (0);
}

/* Input layer, in the parent: the unit's next bytes. */
static int
m_data(void *arg, const struct kl_unit *ku, const void *p, size_t n)
{
	(void)arg;
	if (ms.direct > 0)
		return (ms.self->data(ms.self->arg, ku, p, n));
	if (ms.direct < 0)
		return (1);
	put(p, n);
	ms.len += n;
	if (ms.len > ms.max)
		return (go_direct(ku));
	return (0);
}

/* Input layer, in the parent: the unit ends; a worker takes it. */
static int
m_end(void *arg, const struct kl_unit *ku, const struct kl_error *err)
{
	struct trailer	t;
	uint64_t	tlen;
	size_t		i;

	(void)arg;
	if (ms.direct != 0) {
		if (ms.fd != -1)
			close(ms.fd);
		ms.fd = -1;
		if (ms.direct > 0 && ms.self->end(ms.self->arg, ku, err) != 0)
			ms.stop = 1;
		ms.direct = 0;
		return (ms.stop);
	}
	memset(&t, 0, sizeof(t));
	t.datalen = ms.len;
	t.nmembers = ku->nmembers;
	t.kind = (int32_t)ku->kind;
	t.has_filter = ku->filter != NULL;
	if (err != NULL) {
		t.has_cut = 1;
		t.cut = *err;
	}
	put(&t, sizeof(t));
	tlen = sizeof(t);
	put(ku->path, strlen(ku->path) + 1);
	tlen += strlen(ku->path) + 1;
	for (i = 0; i < ku->nmembers; i++) {
		put(ku->members[i], strlen(ku->members[i]) + 1);
		tlen += strlen(ku->members[i]) + 1;
	}
	if (ku->filter != NULL) {
		put(ku->filter, strlen(ku->filter) + 1);
		tlen += strlen(ku->filter) + 1;
	}
	put(&tlen, sizeof(tlen));
	ms.stop = jobs_unit(ms.fd);
	close(ms.fd);
	ms.fd = -1;
	return (ms.stop);
}

/* Does the compressed stream starting with b[0..n) hold an archive? */
static int
inner_archive(const uint8_t *b, size_t n)
{
	struct archive		*a;
	struct archive_entry	*e;
	uint8_t			 out[INNER_SIZE];
	size_t			 got = 0;
	la_ssize_t		 r;
	int			 f, g;

	if ((a = archive_read_new()) == NULL)
		return (0);
	(void)archive_read_support_filter_all(a);
	(void)archive_read_support_format_raw(a);
	if (archive_read_open_memory(a, b, n) == ARCHIVE_OK &&
	    archive_read_next_header(a, &e) == ARCHIVE_OK)
		while (got < sizeof(out) &&
		    (r = archive_read_data(a, out + got, sizeof(out) - got)) >
		    0)
			got += (size_t)r;
	(void)archive_read_free(a);
	return (got > 0 && kl_input_container(out, got, &f, &g) == 2);
}

/*
 * Is the input at fd worth splitting into its members: a regular file
 * that is an archive, or a compressed archive (its first bytes say so)?
 * The file offset is left where it was.
 */
int
members_split(int fd)
{
	struct stat	 st;
	uint8_t		*b;
	off_t		 at;
	ssize_t		 r;
	int		 f, g, kind;

	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    (at = lseek(fd, 0, SEEK_CUR)) == -1)
		return (0);
	b = xmalloc(PEEK_SIZE);
	do
		r = pread(fd, b, PEEK_SIZE, at);
	while (r == -1 && errno == EINTR);
	kind = r > 0 ? kl_input_container(b, (size_t)r, &f, &g) : 0;
	if (kind == 1)
		kind = inner_archive(b, (size_t)r) ? 2 : 0;
	free(b);
	return (kind == 2);
}

/*
 * In the parent: read the archive at fd (named name) through the input
 * layer, each unit to a worker.  Returns kl_input_fd()'s answer (-1:
 * err says what no unit carries); *stop: -q found its leak.
 */
int
members_input(const char *name, int fd, const struct kl_limits *lim,
    const struct kl_input_ops *self, struct kl_error *err, int *stop)
{
	struct kl_input_ops	ops;
	const char		*s;
	int			rc;

	memset(&ops, 0, sizeof(ops));
	ops.begin = m_begin;
	ops.data = m_data;
	ops.end = m_end;
	ops.flags = self->flags;
	ms.self = self;
	ms.max = UNIT_MAX;
	if ((s = getenv("KLEAKSCAN_UNIT_MAX")) != NULL && *s != '\0')
		ms.max = strtoull(s, NULL, 10);
	ms.stop = 0;
	ms.fd = -1;
	ms.direct = 0;
	rc = kl_input_fd(fd, name, lim, &ops, err);
	if (ms.fd != -1) {
		close(ms.fd);
		ms.fd = -1;
	}
	*stop = ms.stop || jobs_stopped();
	return (rc);
}

/* Read n bytes at off of fd into p; -1 if they are not all there. */
static int
get(int fd, void *p, size_t n, off_t off)
{
	char	*b = p;
	ssize_t	 r;

	while (n > 0) {
		do
			r = pread(fd, b, n, off);
		while (r == -1 && errno == EINTR);
		if (r <= 0)
			return (-1);
		b += r;
		n -= (size_t)r;
		off += r;
	}
	return (0);
}

/*
 * In a worker: read the trailer of the unit file fd into ku (its names
 * allocated; members_free() frees them), *cut and *has_cut, *datalen
 * (its bytes start at offset 0).  -1: the file is damaged.
 */
int
members_read(int fd, struct kl_unit *ku, struct kl_error *cut,
    int *has_cut, uint64_t *datalen)
{
	struct trailer	 t;
	struct stat	 st;
	uint64_t	 tlen;
	char		*s, *at, *end, **mem;
	size_t		 i, len;

	memset(ku, 0, sizeof(*ku));
	if (fstat(fd, &st) == -1 || (uint64_t)st.st_size < sizeof(tlen) ||
	    get(fd, &tlen, sizeof(tlen), st.st_size - (off_t)sizeof(tlen)) ==
	    -1 || tlen < sizeof(t) + 1 || tlen > TRAILER_MAX ||
	    tlen > (uint64_t)st.st_size - sizeof(tlen))
		return (-1);
	len = (size_t)tlen - sizeof(t);
	s = xmalloc(len);
	if (get(fd, &t, sizeof(t), st.st_size - (off_t)sizeof(tlen) -
	    (off_t)tlen) == -1 || get(fd, s, len, st.st_size -
	    (off_t)sizeof(tlen) - (off_t)len) == -1 || s[len - 1] != '\0' ||
	    t.datalen != (uint64_t)st.st_size - sizeof(tlen) - tlen ||
	    t.nmembers > len) {
		free(s);
		return (-1);
	}
	mem = xreallocarray(NULL, (size_t)t.nmembers + 1, sizeof(*mem));
	at = s;
	end = s + len;
	ku->path = at;
	at += strlen(at) + 1;
	for (i = 0; i < t.nmembers; i++) {
		if (at >= end) {
			free(mem);
			free(s);
			return (-1);
		}
		mem[i] = at;
		at += strlen(at) + 1;
	}
	if (t.has_filter && at >= end) {
		free(mem);
		free(s);
		return (-1);
	}
	ku->filter = t.has_filter ? at : NULL;
	ku->members = (const char *const *)mem;
	ku->nmembers = (size_t)t.nmembers;
	ku->kind = (enum kl_unit_kind)t.kind;
	*cut = t.cut;
	cut->msg[sizeof(cut->msg) - 1] = '\0';
	*has_cut = t.has_cut;
	*datalen = t.datalen;
	return (0);
}

/* Free the names members_read() gave ku. */
void
members_free(struct kl_unit *ku)
{
	free((void *)(uintptr_t)ku->path);
	free((void *)(uintptr_t)ku->members);
	memset(ku, 0, sizeof(*ku));
}
