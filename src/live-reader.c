/*
 * live-reader.c - the reader processes of --live and --live-root: every
 * file is read in a child that can be killed, bounded in time (10 s a
 * file, --live-timeout) and size (64 MiB); one child keeps the caller's
 * privileges and, run as root, one drops them for --live-user.  Tests
 * make the children meet faults (KLEAKSCAN_TEST_LIVE_FAULT,
 * KLEAKSCAN_TEST_LIVE_FILE_SECS).  Nothing is ever written to /proc or
 * /sys.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kleakscan.h"
#include "live.h"

/* Seconds since some fixed point. */
time_t
rd_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec);
}

/* Write all of p; -1 on error. */
static int
writen(int fd, const void *p, size_t n)
{
	const char	*s = p;
	ssize_t		 w;

	while (n > 0) {
		w = send(fd, s, n, MSG_NOSIGNAL);
		if (w == -1 && errno == EINTR)
			continue;
		if (w <= 0)
			return (-1);
		s += w;
		n -= (size_t)w;
	}
	return (0);
}

/* Read exactly n bytes; -1 on error or end. */
static int
readn(int fd, void *p, size_t n)
{
	char	*s = p;
	ssize_t	 r;

	while (n > 0) {
		r = read(fd, s, n);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			return (-1);
		s += r;
		n -= (size_t)r;
	}
	return (0);
}

/* Reader: read fd to its end (or EAGAIN) into b, at most LIVE_FILE_MAX. */
static void
rd_slurp(int fd, struct buf *b, struct rhead *h)
{
	ssize_t	r;

	for (;;) {
		buf_reserve(b, b->len + 65536 + 1);
		r = read(fd, b->p + b->len, 65536);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1 && errno == EPIPE)	/* kmsg: records lost */
			continue;
		if (r == -1 && errno == EAGAIN)
			break;
		if (r == -1) {
			h->err = errno;
			break;
		}
		if (r == 0)
			break;
		b->len += (size_t)r;
		if (b->len >= LIVE_FILE_MAX) {
			b->len = LIVE_FILE_MAX;
			h->flags |= RF_CUT;
			break;
		}
	}
}

/* The fault a test set for path in a reader, or 0. */
static enum fkind
fault_at(struct live *lv, const char *path)
{
	size_t	i, n, m;

	if (!lv->inreader)
		return (0);
	n = strlen(path);
	for (i = 0; i < lv->nfault; i++) {
		m = strlen(lv->fault[i].suffix);
		if (lv->fault[i].kind == FK_KMSG ?
		    strcmp(path, "/dev/kmsg") == 0 :
		    m > 0 && m <= n && strcmp(path + n - m,
		    lv->fault[i].suffix) == 0)
			return (lv->fault[i].kind);
	}
	return (0);
}

/* Read the faults of KLEAKSCAN_TEST_LIVE_FAULT (kept for the run). */
void
rd_faults(struct live *lv)
{
	static const struct {
		const char	*name;
		enum fkind	 kind;
	} kinds[] = {
		{ "hang:", FK_HANG }, { "endless:", FK_ENDLESS },
		{ "enoent:", FK_ENOENT }, { "eio:", FK_EIO },
		{ "eacces:", FK_EACCES }, { "kmsg", FK_KMSG },
	};
	const char	*env;
	char		*s, *w, *last;
	size_t		 i, n;

	if ((env = getenv("KLEAKSCAN_TEST_LIVE_FILE_SECS")) != NULL &&
	    atoi(env) > 0)
		lv->secs = atoi(env);
	if ((env = getenv("KLEAKSCAN_TEST_LIVE_FAULT")) == NULL)
		return;
	s = xstrdup(env);	/* kept: the suffixes point into it */
	for (w = strtok_r(s, ",", &last); w != NULL && lv->nfault <
	    LIVE_FAULTS; w = strtok_r(NULL, ",", &last))
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
			n = strlen(kinds[i].name);
			if (strncmp(w, kinds[i].name, n) != 0)
				continue;
			lv->fault[lv->nfault].kind = kinds[i].kind;
			lv->fault[lv->nfault++].suffix = w + n;
			break;
		}
}

/* Reader: the kernel log, from /dev/kmsg or klogctl(2). */
static void
rd_kmsg(struct live *lv, struct buf *b, struct rhead *h)
{
	int	fd, n, err;

	if (fault_at(lv, "/dev/kmsg") == FK_KMSG) {
		fd = -1;
		errno = EACCES;
	} else
		fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd != -1) {
		rd_slurp(fd, b, h);
		close(fd);
		return;
	}
	err = errno;
	n = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	if (n > 0) {
		buf_reserve(b, (size_t)n + 1);
		n = klogctl(3, b->p, n);	/* SYSLOG_ACTION_READ_ALL */
		if (n >= 0) {
			b->len = (size_t)n;
			h->flags |= RF_KLOGCTL;
			return;
		}
	}
	h->err = err;
}

/* Reader: one regular file, never through a symlink, never blocking. */
void
rd_file(struct live *lv, const char *path, struct buf *b, struct rhead *h)
{
	struct stat	st;
	int		fd;

	switch (fault_at(lv, path)) {
	case FK_HANG:
		for (;;)
			pause();
	case FK_ENDLESS:
		path = "/dev/zero";	/* read as if regular */
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
			h->err = errno;
			return;
		}
		rd_slurp(fd, b, h);
		close(fd);
		return;
	case FK_ENOENT:
		h->err = ENOENT;
		return;
	case FK_EIO:
		h->err = EIO;
		return;
	case FK_EACCES:
		h->err = EACCES;
		return;
	default:
		break;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY |
	    O_CLOEXEC);
	if (fd == -1) {
		h->err = errno;
		return;
	}
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		h->flags |= RF_NOTREG;
		close(fd);
		return;
	}
	rd_slurp(fd, b, h);
	close(fd);
}

/* The reader process: answer requests on fd until told to quit. */
static _Noreturn void
rd_main(struct live *lv, int fd)
{
	struct buf	 b;
	struct rhead	 h;
	uint32_t	 rq[2];
	char		*path;

	memset(&b, 0, sizeof(b));
	for (;;) {
		if (readn(fd, rq, sizeof(rq)) == -1 || rq[0] == RK_QUIT ||
		    rq[1] > PATH_MAX)
			_exit(0);
		path = xmalloc((size_t)rq[1] + 1);
		if (readn(fd, path, rq[1]) == -1)
			_exit(0);
		path[rq[1]] = '\0';
		memset(&h, 0, sizeof(h));
		b.len = 0;
		if (rq[0] == RK_KMSG)
			rd_kmsg(lv, &b, &h);
		else
			rd_file(lv, path, &b, &h);
		free(path);
		h.len = b.len;
		if (writen(fd, &h, sizeof(h)) == -1 ||
		    writen(fd, b.p != NULL ? b.p : "", b.len) == -1)
			_exit(0);
	}
}

/* Start a reader; -1 when it cannot be. */
int
rd_start(struct live *lv, struct reader *r)
{
	int	sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == -1)
		return (-1);
	fflush(stdout);
	fflush(stderr);
	if ((r->pid = fork()) == -1) {
		close(sv[0]);
		close(sv[1]);
		return (-1);
	}
	if (r->pid == 0) {
		close(sv[0]);
		lv->inreader = 1;
		(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (r->drop) {
			/* No groups, no capabilities, no way back. */
			if (setgroups(0, NULL) == -1 || setgid(lv->gid) == -1 ||
			    setuid(lv->uid) == -1 || setuid(0) != -1 ||
			    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
				_exit(127);
		}
		rd_main(lv, sv[1]);
	}
	close(sv[1]);
	r->fd = sv[0];
	return (0);
}

/* Stop a reader, killing it when it hangs. */
void
rd_stop(struct reader *r, int kill_it)
{
	uint32_t	rq[2] = { RK_QUIT, 0 };

	if (r->pid <= 0)
		return;
	if (kill_it)
		(void)kill(r->pid, SIGKILL);
	else
		(void)writen(r->fd, rq, sizeof(rq));
	close(r->fd);
	while (waitpid(r->pid, NULL, 0) == -1 && errno == EINTR)
		;
	r->pid = 0;
	r->fd = -1;
}

/* Wait for fd to be readable until the per-file deadline; 0 on time. */
static int
rd_wait(int fd, time_t until)
{
	struct pollfd	pfd;
	time_t		t;
	int		rc;

	for (;;) {
		t = rd_now();
		if (t >= until)
			return (-1);
		pfd.fd = fd;
		pfd.events = POLLIN;
		rc = poll(&pfd, 1, (int)(until - t) * 1000);
		if (rc == -1 && errno == EINTR)
			continue;
		return (rc > 0 ? 0 : -1);
	}
}

/* Receive n bytes within the deadline; -1 when they do not come. */
static int
rd_recv(int fd, void *p, size_t n, time_t until)
{
	char	*s = p;
	ssize_t	 r;

	while (n > 0) {
		if (rd_wait(fd, until) == -1)
			return (-1);
		r = read(fd, s, n);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			return (-1);
		s += r;
		n -= (size_t)r;
	}
	return (0);
}

/* Ask a reader for path; on a hang the reader is replaced. */
void
rd_ask(struct live *lv, struct reader *r, enum rkind kind, const char *path,
    struct rdata *d)
{
	uint32_t	rq[2];
	time_t		until;
	size_t		len;

	d->ok = 0;
	d->timeout = 0;
	memset(&d->h, 0, sizeof(d->h));
	if (r->pid <= 0 && rd_start(lv, r) == -1) {
		d->h.err = errno;
		d->ok = 1;
		return;
	}
	len = strlen(path);
	rq[0] = kind;
	rq[1] = (uint32_t)len;
	until = rd_now() + lv->secs;
	if (lv->deadline != 0 && lv->deadline < until)
		until = lv->deadline;
	if (writen(r->fd, rq, sizeof(rq)) == -1 ||
	    writen(r->fd, path, len) == -1 ||
	    rd_recv(r->fd, &d->h, sizeof(d->h), until) == -1 ||
	    d->h.len > LIVE_FILE_MAX) {
		rd_stop(r, 1);
		d->timeout = 1;
		return;
	}
	if (d->size < d->h.len + 1) {
		free(d->p);
		d->size = (size_t)d->h.len + 1;
		d->p = xmalloc(d->size);
	}
	if (rd_recv(r->fd, d->p, (size_t)d->h.len, until) == -1) {
		rd_stop(r, 1);
		d->timeout = 1;
		return;
	}
	d->p[d->h.len] = '\0';
	d->ok = 1;
}
