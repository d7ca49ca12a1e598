/*
 * live.c - --live and --live-root: audit a running system, or a captured
 * one, as scripts/leaking_addresses.pl does, from an unprivileged user's
 * point of view.
 *
 * The kernel log comes first (/dev/kmsg, non-blocking, from the start of
 * the ring; klogctl(2) when /dev/kmsg cannot be read), then a
 * breadth-first walk of /proc and /sys: symlinks are never followed, one
 * /proc/PID directory is walked, path names are checked as text, the
 * skips of leaking_addresses.pl and a few more apply.  Files are read by
 * reader processes that can be killed: one with the caller's privileges
 * and, run as root, one that dropped them (--live-user), so every finding
 * says who can read it.  Nothing is ever written to /proc or /sys.
 *
 * A captured tree (a copied /proc and /sys, a sosreport or supportconfig
 * directory or archive) is read as the system it came from: its files are
 * named by the system's paths, and symlinks are never followed.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kleakscan.h"

#define LIVE_FILE_MAX		(64u * 1024 * 1024)	/* bytes per file */
#define LIVE_FILE_SECS		10			/* seconds per file */
#define LIVE_FACT_MAX		(64u * 1024)
#define LIVE_HEXRUN		8	/* shortest address worth a scan */
#define LIVE_FAULTS		8

/*
 * Faults a test can make a reader meet (KLEAKSCAN_TEST_LIVE_FAULT, a
 * comma-separated list of KIND:SUFFIX, and "kmsg"): a read that hangs, a
 * file that never ends, one that vanished, EIO, EACCES; /dev/kmsg that
 * cannot be opened.  Only reader processes meet them.
 */
enum fkind {
	FK_HANG = 1,		/* the read never returns */
	FK_ENDLESS,		/* the file never ends (/dev/zero) */
	FK_ENOENT,
	FK_EIO,
	FK_EACCES,
	FK_KMSG,		/* /dev/kmsg cannot be opened */
};

/* Reader requests. */
enum rkind {
	RK_FILE = 1,		/* a regular file, O_NONBLOCK, no symlink */
	RK_KMSG,		/* /dev/kmsg, else klogctl(2) */
	RK_QUIT,
};

/* A reader process and its socket. */
struct reader {
	pid_t		 pid;
	int		 fd;
	int		 drop;		/* drops privileges to uid/gid */
};

/* What a reader sends back before the bytes. */
struct rhead {
	int32_t		 err;		/* errno, 0 */
	uint32_t	 flags;		/* RF_* */
	uint64_t	 len;
};
#define RF_CUT		0x1		/* stopped at LIVE_FILE_MAX */
#define RF_KLOGCTL	0x2		/* the log came from klogctl(2) */
#define RF_NOTREG	0x4		/* not a regular file: not read */

/* One read of a file. */
struct rdata {
	int		 ok;		/* the reader answered */
	int		 timeout;	/* it did not, and was replaced */
	struct rhead	 h;
	char		*p;
	size_t		 size;
};

/* A directory waiting in the breadth-first queue. */
struct qdir {
	char		*path;		/* system path */
	int		 listable;	/* every user can list it */
};

/* One key of --squash-by-path or --squash-by-filename. */
struct squash {
	char		*key;
	uint64_t	 count;
	char		*example;	/* the first line, raw */
	size_t		 exlen;
};

/* The facts of the system the verdict section tells. */
struct facts {
	char		 machine[sizeof(((struct utsname *)0)->machine)];
	char		 release[sizeof(((struct utsname *)0)->release)];
	int		 kptr_restrict;		/* -1: unknown */
	int		 dmesg_restrict;
	int		 perf_event_paranoid;
	int		 have_perf;
	int		 no_hash_pointers;	/* -1 unknown */
	char		 lockdown[64];
	int		 vbits;			/* cpuinfo virtual bits, 0 */
	int		 la57;			/* 1: flag la57, 0: not, -1 */
	enum kl_arch_id	 arch;
	/* The symbol table (privileged kallsyms, else a map). */
	int		 have_syms;
	uint64_t	 lo, hi;		/* kernel symbol range */
	uint64_t	 text;			/* _text in kallsyms */
	int		 have_text;
	uint64_t	 map_text;		/* _text in the map */
	int		 have_map_text;
	char		 map[PATH_MAX];
	struct kl_symtab *symtab;		/* the map, loaded */
	int		 kallsyms_everyone;	/* unprivileged sees values */
	int		 kallsyms_known;
};

/* The state of a live run. */
struct live {
	const struct cli	*cli;
	int			(*scan)(const char *, int);
	const char		*root;		/* --live-root, or NULL */
	int			 root_dir;	/* root is a directory */
	int			 asroot;	/* euid 0 on --live */
	uid_t			 uid;		/* --live-user */
	gid_t			 gid;
	const char		*user;
	struct reader		 priv, unpriv;
	int			 memfd;
	time_t			 deadline;	/* 0: none */
	int			 stopped;	/* the time bound was reached */
	pid_t			 ownpid;
	struct facts		 fx;
	struct buf		 esc;
	struct buf		 names;		/* path names with hex runs */
	struct buf		 unames;	/* those every user can list */
	/* The unit being scanned. */
	int			 active;
	const char		*who;		/* fixed answer, or NULL */
	const char		*why;
	uint64_t		*vals;		/* unprivileged values, sorted */
	size_t			 nvals, avals;
	int			 uerr;		/* unprivileged read errno */
	mode_t			 mode;
	int			 is_kmsg;
	int			 sc;		/* a supportconfig */
	int			 sclog;		/* its kernel log is scanned */
	int			 sysunit;	/* of the system's present
						   state: its slide applies */
	char			 whybuf[96];
	char			 sym[256];
	int			 secs;		/* per-file bound */
	int			 inreader;	/* this is a reader process */
	int			 klog;		/* the log: 0 kmsg, 1 klogctl,
						   -1 not read */
	struct {
		enum fkind	 kind;
		const char	*suffix;
	}			 fault[LIVE_FAULTS];
	size_t			 nfault;
	/* Counters for the summary. */
	uint64_t		 files, dirs, scanned, binary, rawhits;
	uint64_t		 skipped, symlinks, outside, unreadable;
	uint64_t		 vanished, eio, timeouts, cut, notes;
	uint64_t		 everyone, privileged, unknown;
	/* --squash-by-*. */
	struct squash		*sq;
	size_t			 nsq, asq, lastsq;
};

static struct live	 lv;

/* Paths leaking_addresses.pl skips, as it has them. */
static const char *const skip_abs[] = {
	"/proc/kmsg", "/proc/device-tree", "/proc/1/syscall",
	"/sys/firmware/devicetree", "/sys/kernel/debug/tracing/trace_pipe",
	"/sys/kernel/security/apparmor/revision",
	/* kleakscan adds: huge, binary or with side effects. */
	"/proc/kcore", "/proc/kpagecount", "/proc/kpageflags",
	"/proc/kpagecgroup", "/proc/sysrq-trigger", "/sys/kernel/tracing/trace_pipe",
	NULL
};

/* File names leaking_addresses.pl skips anywhere. */
static const char *const skip_any[] = {
	"pagemap", "events", "access", "registers", "snapshot_raw",
	"trace_pipe_raw", "ptmx", "trace_pipe", "fd", "usbmon",
	/* kleakscan adds. */
	"kmsg", "mem", "clear_refs", "syscall", "kcore", "map_files",
	"fdinfo", "trace_marker", "trace_marker_raw", "hw_random",
	NULL
};

/* Seconds since some fixed point. */
static time_t
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec);
}

/* Append n bytes to b. */
static void
buf_add(struct buf *b, const void *p, size_t n)
{
	buf_reserve(b, b->len + n + 1);
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
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
fault_at(const char *path)
{
	size_t	i, n, m;

	if (!lv.inreader)
		return (0);
	n = strlen(path);
	for (i = 0; i < lv.nfault; i++) {
		m = strlen(lv.fault[i].suffix);
		if (lv.fault[i].kind == FK_KMSG ?
		    strcmp(path, "/dev/kmsg") == 0 :
		    m > 0 && m <= n && strcmp(path + n - m,
		    lv.fault[i].suffix) == 0)
			return (lv.fault[i].kind);
	}
	return (0);
}

/* Read the faults of KLEAKSCAN_TEST_LIVE_FAULT (kept for the run). */
static void
fault_parse(void)
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
		lv.secs = atoi(env);
	if ((env = getenv("KLEAKSCAN_TEST_LIVE_FAULT")) == NULL)
		return;
	s = xstrdup(env);	/* kept: the suffixes point into it */
	for (w = strtok_r(s, ",", &last); w != NULL && lv.nfault <
	    LIVE_FAULTS; w = strtok_r(NULL, ",", &last))
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
			n = strlen(kinds[i].name);
			if (strncmp(w, kinds[i].name, n) != 0)
				continue;
			lv.fault[lv.nfault].kind = kinds[i].kind;
			lv.fault[lv.nfault++].suffix = w + n;
			break;
		}
}

/* Reader: the kernel log, from /dev/kmsg or klogctl(2). */
static void
rd_kmsg(struct buf *b, struct rhead *h)
{
	int	fd, n, err;

	if (fault_at("/dev/kmsg") == FK_KMSG) {
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
static void
rd_file(const char *path, struct buf *b, struct rhead *h)
{
	struct stat	st;
	int		fd;

	switch (fault_at(path)) {
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
rd_main(int fd)
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
			rd_kmsg(&b, &h);
		else
			rd_file(path, &b, &h);
		free(path);
		h.len = b.len;
		if (writen(fd, &h, sizeof(h)) == -1 ||
		    writen(fd, b.p != NULL ? b.p : "", b.len) == -1)
			_exit(0);
	}
}

/* Start a reader; -1 when it cannot be. */
static int
rd_start(struct reader *r)
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
		lv.inreader = 1;
		(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (r->drop) {
			/* No groups, no capabilities, no way back. */
			if (setgroups(0, NULL) == -1 || setgid(lv.gid) == -1 ||
			    setuid(lv.uid) == -1 || setuid(0) != -1 ||
			    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
				_exit(127);
		}
		rd_main(sv[1]);
	}
	close(sv[1]);
	r->fd = sv[0];
	return (0);
}

/* Stop a reader, killing it when it hangs. */
static void
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
		t = now();
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
static void
rd_ask(struct reader *r, enum rkind kind, const char *path,
    struct rdata *d)
{
	uint32_t	rq[2];
	time_t		until;
	size_t		len;

	d->ok = 0;
	d->timeout = 0;
	memset(&d->h, 0, sizeof(d->h));
	if (r->pid <= 0 && rd_start(r) == -1) {
		d->h.err = errno;
		d->ok = 1;
		return;
	}
	len = strlen(path);
	rq[0] = kind;
	rq[1] = (uint32_t)len;
	until = now() + lv.secs;
	if (lv.deadline != 0 && lv.deadline < until)
		until = lv.deadline;
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

static void	note(const char *, const char *, ...) KL_PRINTFLIKE(2, 3);

/* A one-line note about path, counted. */
static void
note(const char *path, const char *fmt, ...)
{
	va_list	ap;
	char	msg[PATH_MAX + 128];

	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	lv.notes++;
	log_note(print_name_esc(&lv.esc, path, strlen(path), 0), "%s", msg);
}

/* Is c a hex digit? */
static int
ishex(int c)
{
	return ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F'));
}

/* Does p hold a run of LIVE_HEXRUN or more hex digits? */
static int
has_hexrun(const char *p, size_t n)
{
	size_t	i, run;

	for (i = run = 0; i < n; i++) {
		if (ishex((unsigned char)p[i])) {
			if (++run >= LIVE_HEXRUN)
				return (1);
		} else
			run = 0;
	}
	return (0);
}

/* Order values. */
static int
u64cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/* Collect the values of every 8- to 16-digit hex run of p, sorted. */
static void
collect_vals(const char *p, size_t n)
{
	size_t		i, j;
	uint64_t	v;
	int		c;

	lv.nvals = 0;
	for (i = 0; i < n; i = j) {
		if (!ishex((unsigned char)p[i])) {
			j = i + 1;
			continue;
		}
		for (j = i; j < n && ishex((unsigned char)p[j]); j++)
			;
		if (j - i < LIVE_HEXRUN || j - i > 16)
			continue;
		for (v = 0; i < j; i++) {
			c = (unsigned char)p[i];
			v = v << 4 | (uint64_t)(c <= '9' ? c - '0' :
			    (c | 0x20) - 'a' + 10);
		}
		if (lv.nvals == lv.avals) {
			lv.avals = lv.avals ? 2 * lv.avals : 256;
			lv.vals = xreallocarray(lv.vals, lv.avals,
			    sizeof(*lv.vals));
		}
		lv.vals[lv.nvals++] = v;
	}
	if (lv.nvals > 1)
		qsort(lv.vals, lv.nvals, sizeof(*lv.vals), u64cmp);
}

/* Does the unprivileged view hold v? */
static int
has_val(uint64_t v)
{
	return (lv.nvals > 0 && bsearch(&v, lv.vals, lv.nvals,
	    sizeof(*lv.vals), u64cmp) != NULL);
}

/* Who can read a finding of the unit being scanned, and why. */
const char *
live_who(const struct input *in, const struct kl_finding *f,
    const char **why)
{
	(void)in;
	*why = NULL;
	if (!lv.active)
		return (NULL);
	if (lv.who != NULL) {
		*why = lv.why;
		return (lv.who);
	}
	if (lv.uerr == 0 && has_val(f->value)) {
		snprintf(lv.whybuf, sizeof(lv.whybuf), "read as %s",
		    lv.user);
		*why = lv.whybuf;
		return ("everyone");
	}
	if (lv.uerr != 0) {
		if (lv.is_kmsg)
			*why = lv.fx.dmesg_restrict > 0 ? "dmesg_restrict" :
			    "CAP_SYSLOG";
		else if (lv.uerr == EACCES || lv.uerr == EPERM)
			*why = (lv.mode & S_IROTH) ? "access check" :
			    "file mode";
		else
			*why = strerror(lv.uerr);
	} else if (lv.is_kmsg)
		*why = "CAP_SYSLOG";
	else if (lv.fx.kptr_restrict > 0)
		*why = "kptr_restrict";
	else
		*why = "CAP_SYSLOG";
	return ("privileged");
}

/*
 * Does a finding count for the exit status?  What an unprivileged user
 * reads; all of it with --live-privileged, or in a capture (its reader
 * holds every byte).
 */
int
live_counts(const struct kl_finding *f)
{
	const char	*who, *why;

	if (!lv.active)
		return (1);
	who = live_who(NULL, f, &why);
	if (strcmp(who, "privileged") == 0) {
		lv.privileged++;
		return (lv.cli->live_privileged || lv.root != NULL);
	}
	if (strcmp(who, "unknown") == 0)
		lv.unknown++;
	else
		lv.everyone++;
	return (1);
}

/*
 * The symbol of a text finding of the system's present state (its files,
 * its kernel log, its path names) that the scan left without one: the
 * system's map at the system's slide (kallsyms _text less the map's), as
 * %pS prints it.  NULL when there is no map, no slide, or no symbol.
 */
const char *
live_symbol(const struct kl_finding *f)
{
	const struct facts	*fx = &lv.fx;
	struct kl_sym_hit	 h;
	uint64_t		 slide;
	int			 n;

	if (!lv.active || !lv.sysunit || fx->symtab == NULL ||
	    !fx->have_text || !fx->have_map_text || fx->text < fx->map_text ||
	    f->suppressed != KL_SUP_NONE || f->region != KL_REGION_TEXT)
		return (NULL);
	slide = fx->text - fx->map_text;
	if (f->value < slide || !kl_sym_lookup(fx->symtab, f->value - slide,
	    &h) || h.module != NULL)
		return (NULL);
	n = kl_sym_format(&h, lv.sym, sizeof(lv.sym));
	return (n > 0 && (size_t)n < sizeof(lv.sym) ? lv.sym : NULL);
}

/*
 * Who could read a file of a captured system, from its captured facts:
 * the kernel log (dmesg_restrict), the files printed through
 * kallsyms_show_value() (kptr_restrict, perf_event_paranoid); else
 * unknown.
 */
static void
captured_who(const char *name)
{
	const struct facts	*fx = &lv.fx;

	lv.who = "unknown";
	lv.why = "captured system";
	if (strncmp(name, "sos_commands/kernel/dmesg", 25) == 0 || lv.sclog) {
		if (fx->dmesg_restrict == 0) {
			lv.who = "everyone";
			lv.why = "dmesg_restrict=0 (captured)";
		} else if (fx->dmesg_restrict > 0) {
			lv.who = "privileged";
			lv.why = "dmesg_restrict (captured)";
		}
		return;
	}
	if (strcmp(name, "/proc/kallsyms") != 0 &&
	    strcmp(name, "/proc/modules") != 0 &&
	    (strncmp(name, "/sys/module/", 12) != 0 ||
	    strstr(name, "/sections/") == NULL))
		return;
	if (fx->kptr_restrict < 0 || !fx->have_perf)
		return;
	if (fx->kptr_restrict == 0 && fx->perf_event_paranoid <= 1) {
		lv.who = "everyone";
		lv.why = "kptr_restrict=0, perf_event_paranoid<=1 (captured)";
	} else if (fx->kptr_restrict == 0) {
		lv.who = "privileged";
		lv.why = "CAP_SYSLOG (captured)";
	} else {
		lv.who = "privileged";
		lv.why = "kptr_restrict (captured)";
	}
}

/* --squash-by-*: keep the finding for the squashed view; 1 if kept. */
int
live_squash(const struct input *in, const struct kl_finding *f,
    const char *sym)
{
	const char	*key, *s;
	struct squash	*q;
	size_t		 i;

	(void)sym;
	if (lv.cli == NULL ||
	    (!lv.cli->squash_by_path && !lv.cli->squash_by_filename))
		return (0);
	key = in->name;
	if (lv.cli->squash_by_filename && (s = strrchr(key, '/')) != NULL &&
	    s[1] != '\0')
		key = s + 1;
	q = NULL;
	if (lv.nsq > 0 && strcmp(lv.sq[lv.lastsq].key, key) == 0)
		q = &lv.sq[lv.lastsq];
	for (i = 0; q == NULL && i < lv.nsq; i++)
		if (strcmp(lv.sq[i].key, key) == 0) {
			q = &lv.sq[i];
			lv.lastsq = i;
		}
	if (q == NULL) {
		if (lv.nsq == lv.asq) {
			lv.asq = lv.asq ? 2 * lv.asq : 64;
			lv.sq = xreallocarray(lv.sq, lv.asq, sizeof(*lv.sq));
		}
		q = &lv.sq[lv.nsq];
		lv.lastsq = lv.nsq++;
		memset(q, 0, sizeof(*q));
		q->key = xstrdup(key);
		q->exlen = f->ltext != NULL ? f->llen : 0;
		q->example = xmalloc(q->exlen + 1);
		if (q->exlen > 0)
			memcpy(q->example, f->ltext, q->exlen);
		q->example[q->exlen] = '\0';
	}
	q->count++;
	return (1);
}

/* Scan len bytes as a unit named name. */
static void
scan_bytes(const char *name, const char *p, size_t len)
{
	if (lv.memfd == -1) {
		lv.memfd = memfd_create("kleakscan-live", MFD_CLOEXEC);
		if (lv.memfd == -1) {
			log_error(name, strlen(name), 0, "cannot hold the "
			    "file: %s", strerror(errno));
			return;
		}
	}
	if (ftruncate(lv.memfd, 0) == -1 || lseek(lv.memfd, 0, SEEK_SET) ==
	    -1 || (len > 0 && write(lv.memfd, p, len) != (ssize_t)len) ||
	    lseek(lv.memfd, 0, SEEK_SET) == -1) {
		log_error(name, strlen(name), 0, "cannot hold the file: %s",
		    strerror(errno));
		return;
	}
	lv.scanned++;
	lv.active = 1;
	/* Saved logs may hold older boots: the slide is not theirs. */
	lv.sysunit = strncmp(name, "/var/log/", 9) != 0;
	(void)lv.scan(name, lv.memfd);
	lv.active = 0;
	lv.sysunit = 0;
	lv.who = NULL;
}

/* Is the content binary (a NUL in its first 4 KiB)? */
static int
is_binary(const char *p, size_t n)
{
	return (memchr(p, '\0', n < 4096 ? n : 4096) != NULL);
}

/*
 * Binary content: the raw kernel addresses in it (host byte order and
 * width, aligned), as text lines the scanner classifies.
 */
static void
raw_lines(const char *p, size_t n, struct buf *out)
{
	uint64_t	v;
	uint32_t	w;
	size_t		i, step;
	char		line[64];
	int		k;

	out->len = 0;
	if (!lv.fx.have_syms)
		return;
	step = sizeof(void *);
	for (i = 0; i + step <= n; i += step) {
		if (step == 8)
			memcpy(&v, p + i, 8);
		else {
			memcpy(&w, p + i, 4);
			v = w;
		}
		if (v < lv.fx.lo || v > lv.fx.hi)
			continue;
		k = snprintf(line, sizeof(line), "raw at 0x%zx: %0*" PRIx64
		    "\n", i, (int)(2 * step), v);
		buf_add(out, line, (size_t)k);
	}
}

/* Audit one file's bytes: the scanner sees text, or raw addresses. */
static void
audit_bytes(const char *name, char *p, size_t len, char *u, size_t ulen)
{
	static struct buf	raw, uraw;

	if (is_binary(p, len)) {
		lv.binary++;
		raw_lines(p, len, &raw);
		if (raw.len == 0)
			return;
		lv.rawhits++;
		if (u != NULL) {
			raw_lines(u, ulen, &uraw);
			collect_vals(uraw.p != NULL ? uraw.p : "", uraw.len);
		}
		scan_bytes(name, raw.p, raw.len);
		return;
	}
	if (!has_hexrun(p, len))
		return;
	(void)kl_live_mask(p, len);
	if (u != NULL)
		collect_vals(u, ulen);
	scan_bytes(name, p, len);
}

/* Should path (name its last part) be skipped? */
static int
skip_path(const char *path, const char *name)
{
	size_t	i;

	for (i = 0; skip_abs[i] != NULL; i++)
		if (strcmp(path, skip_abs[i]) == 0)
			return (1);
	for (i = 0; skip_any[i] != NULL; i++)
		if (strcmp(name, skip_any[i]) == 0)
			return (1);
	return (0);
}

/* Say why a read of path failed, counted; 1 when it did. */
static int
read_failed(const char *path, const struct rdata *d, const char *as)
{
	char	msg[128];

	if (d->timeout) {
		lv.timeouts++;
		snprintf(msg, sizeof(msg), "not read%s: no answer in %d s",
		    as, lv.secs);
		note(path, "%s", msg);
		return (1);
	}
	if (d->h.flags & RF_NOTREG) {
		lv.skipped++;
		return (1);
	}
	if (d->h.flags & RF_CUT) {
		lv.cut++;
		note(path, "%s", "cut at the size bound (64 MiB)");
	}
	if (d->h.err == 0)
		return (0);
	if (d->h.err == ENOENT || d->h.err == ESRCH) {
		lv.vanished++;
		snprintf(msg, sizeof(msg), "vanished before it was read%s",
		    as);
	} else if (d->h.err == EIO && d->h.len == 0) {
		lv.eio++;
		snprintf(msg, sizeof(msg), "not read%s: %s", as,
		    strerror(d->h.err));
	} else if (d->h.len > 0) {
		lv.eio++;
		snprintf(msg, sizeof(msg), "read in part%s: %s", as,
		    strerror(d->h.err));
		note(path, "%s", msg);
		return (0);
	} else {
		lv.unreadable++;
		/* Run as root, what nobody cannot read is the norm. */
		if (lv.asroot && (d->h.err == EACCES || d->h.err == EPERM ||
		    d->h.err == EINVAL || d->h.err == EOPNOTSUPP ||
		    d->h.err == ENODEV || d->h.err == ENXIO))
			return (1);
		if (!lv.asroot && d->h.err != EACCES && d->h.err != EPERM &&
		    d->h.err != EIO) {
			/* Attributes that refuse reads: not worth a line. */
			return (1);
		}
		snprintf(msg, sizeof(msg), "not read%s: %s", as,
		    strerror(d->h.err));
	}
	note(path, "%s", msg);
	return (1);
}

/* Read a live file (both views when root) and audit it. */
static void
live_file(const char *path, mode_t mode)
{
	static struct rdata	a, b;

	lv.files++;
	rd_ask(&lv.priv, RK_FILE, path, &a);
	if (read_failed(path, &a, ""))
		return;
	lv.uerr = 0;
	lv.mode = mode;
	lv.is_kmsg = 0;
	if (!lv.asroot) {
		lv.who = "everyone";
		snprintf(lv.whybuf, sizeof(lv.whybuf), "read as %s",
		    lv.user);
		lv.why = lv.whybuf;
		audit_bytes(path, a.p, (size_t)a.h.len, NULL, 0);
		return;
	}
	/* Only what may hold an address is read again as the user. */
	if (!is_binary(a.p, (size_t)a.h.len) &&
	    !has_hexrun(a.p, (size_t)a.h.len))
		return;
	rd_ask(&lv.unpriv, RK_FILE, path, &b);
	if (b.timeout)
		lv.uerr = ETIMEDOUT;
	else if (b.h.err != 0 && b.h.len == 0)
		lv.uerr = b.h.err;
	else if (b.h.flags & RF_NOTREG)
		lv.uerr = EACCES;
	audit_bytes(path, a.p, (size_t)a.h.len, lv.uerr == 0 ? b.p : NULL,
	    lv.uerr == 0 ? (size_t)b.h.len : 0);
	if (lv.uerr != 0)
		lv.nvals = 0;
}

/* The kernel log of the running system. */
static void
live_kmsg(void)
{
	static struct rdata	a, b;
	const char		*name;

	lv.klog = -1;
	rd_ask(&lv.priv, RK_KMSG, "/dev/kmsg", &a);
	if (read_failed("/dev/kmsg", &a, ""))
		return;
	name = (a.h.flags & RF_KLOGCTL) ? "klogctl" : "/dev/kmsg";
	lv.klog = (a.h.flags & RF_KLOGCTL) != 0;
	lv.files++;
	lv.is_kmsg = 1;
	lv.uerr = 0;
	if (!lv.asroot) {
		lv.who = "everyone";
		snprintf(lv.whybuf, sizeof(lv.whybuf), "read as %s",
		    lv.user);
		lv.why = lv.whybuf;
		scan_bytes(name, a.p, (size_t)a.h.len);
		return;
	}
	rd_ask(&lv.unpriv, RK_KMSG, "/dev/kmsg", &b);
	if (b.timeout)
		lv.uerr = ETIMEDOUT;
	else if (b.h.err != 0)
		lv.uerr = b.h.err;
	collect_vals(lv.uerr == 0 ? b.p : "", lv.uerr == 0 ?
	    (size_t)b.h.len : 0);
	scan_bytes(name, a.p, (size_t)a.h.len);
	lv.is_kmsg = 0;
}

/* The path of a system path inside the captured root. */
static const char *
in_root(const char *path, char *out, size_t size)
{
	if (lv.root == NULL)
		return (path);
	snprintf(out, size, "%s%s", lv.root, path);
	return (out);
}

/*
 * A captured file: read by the reader (regular files only), bounded in
 * time as a live one, since a capture may lie on a slow or hung file
 * system.
 */
static void
root_file(const char *path, const char *rpath)
{
	static struct rdata	d;

	lv.files++;
	rd_ask(&lv.priv, RK_FILE, rpath, &d);
	if (read_failed(path, &d, ""))
		return;
	captured_who(path);
	audit_bytes(path, d.p, (size_t)d.h.len, NULL, 0);
	lv.who = NULL;
}

/* Check the path names of the walk as text, one per line. */
static void
check_names(void)
{
	if (lv.names.len == 0)
		return;
	lv.uerr = 0;
	lv.is_kmsg = 0;
	if (lv.root != NULL) {
		lv.who = "unknown";
		lv.why = "captured system";
	} else if (!lv.asroot) {
		lv.who = "everyone";
		lv.why = "listed as this user";
	} else
		collect_vals(lv.unames.p != NULL ? lv.unames.p : "",
		    lv.unames.len);
	scan_bytes("path-names", lv.names.p, lv.names.len);
}

/* Walk the directories from top, breadth first. */
static void
walk_bfs(const char *top)
{
	struct qdir	*q = NULL;
	size_t		 nq = 0, aq = 0, head = 0;
	char		 rbuf[PATH_MAX], path[PATH_MAX], lnk[PATH_MAX];
	const char	*rdir;
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	int		 dfd, n, listable;
	ssize_t		 ln;
	char		*dirpath;

	q = xreallocarray(NULL, 16, sizeof(*q));
	aq = 16;
	q[nq].path = xstrdup(top);
	q[nq++].listable = 1;
	while (head < nq) {
		dirpath = q[head].path;
		listable = q[head].listable;
		head++;
		if (lv.deadline != 0 && now() >= lv.deadline) {
			lv.stopped = 1;
			free(dirpath);
			continue;
		}
		rdir = in_root(dirpath, rbuf, sizeof(rbuf));
		if ((dfd = open(rdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC)) == -1 || (d = fdopendir(dfd)) == NULL) {
			if (dfd != -1)
				close(dfd);
			if (errno == ENOENT)
				lv.vanished++;
			else
				lv.unreadable++;
			if (errno != EACCES || !lv.asroot)
				note(dirpath, "directory not read: %s",
				    strerror(errno));
			free(dirpath);
			continue;
		}
		lv.dirs++;
		while ((de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			n = snprintf(path, sizeof(path), "%s/%s",
			    strcmp(dirpath, "/") == 0 ? "" : dirpath,
			    de->d_name);
			if (n < 0 || (size_t)n >= sizeof(path)) {
				note(dirpath, "%s", "name too long: skipped");
				continue;
			}
			if (fstatat(dfd, de->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) == -1) {
				lv.vanished++;
				note(path, "%s", "vanished during the walk");
				continue;
			}
			if (S_ISLNK(st.st_mode)) {
				lv.symlinks++;
				ln = readlinkat(dfd, de->d_name, lnk,
				    sizeof(lnk) - 1);
				if (lv.root != NULL && ln > 0 && lnk[0] == '/') {
					lnk[ln] = '\0';
					lv.outside++;
					note(path, "absolute symlink to %s: "
					    "not followed out of the root",
					    lnk);
				}
				continue;
			}
			/* One /proc/PID: 1, or our own when not root. */
			if (strcmp(dirpath, "/proc") == 0 &&
			    de->d_name[0] >= '0' && de->d_name[0] <= '9') {
				char	own[32];

				snprintf(own, sizeof(own), "%ld",
				    (long)lv.ownpid);
				if (strcmp(de->d_name, (lv.root != NULL ||
				    lv.asroot) ? "1" : own) != 0)
					continue;
			}
			if (skip_path(path, de->d_name)) {
				lv.skipped++;
				continue;
			}
			if (has_hexrun(path, (size_t)n)) {
				buf_add(&lv.names, path, (size_t)n);
				buf_add(&lv.names, "\n", 1);
				if (listable) {
					buf_add(&lv.unames, path, (size_t)n);
					buf_add(&lv.unames, "\n", 1);
				}
			}
			if (S_ISDIR(st.st_mode)) {
				if (nq == aq) {
					aq *= 2;
					q = xreallocarray(q, aq, sizeof(*q));
				}
				q[nq].path = xstrdup(path);
				q[nq++].listable = listable &&
				    (st.st_mode & S_IROTH) &&
				    (st.st_mode & S_IXOTH);
				continue;
			}
			if (!S_ISREG(st.st_mode)) {
				lv.skipped++;
				continue;
			}
			if (lv.deadline != 0 && now() >= lv.deadline) {
				lv.stopped = 1;
				break;
			}
			if (lv.root != NULL)
				root_file(path, in_root(path, rbuf,
				    sizeof(rbuf)));
			else
				live_file(path, st.st_mode);
		}
		closedir(d);
		free(dirpath);
	}
	free(q);
}

/* A fact file of a captured archive, kept by the first pass. */
struct afact {
	char		*path;		/* system path */
	struct buf	 b;
};

static struct afact	*afacts;
static size_t		 nafacts;
static struct buf	 amap;		/* the archive's System.map */

/* The system paths the verdict section reads. */
static const char *const fact_paths[] = {
	"/proc/sys/kernel/kptr_restrict", "/proc/sys/kernel/dmesg_restrict",
	"/proc/sys/kernel/perf_event_paranoid", "/proc/sys/kernel/osrelease",
	"/proc/sys/kernel/arch", "/proc/cmdline", "/proc/cpuinfo",
	"/proc/version", "/sys/kernel/security/lockdown", "/proc/kallsyms",
	"/uname", "/sos_commands/kernel/uname_-a", NULL
};

/* The text of a fact file of the system in b; -1 when there is none. */
static int
fact_get(const char *path, struct buf *b)
{
	char		rpath[PATH_MAX];
	struct rhead	h;
	size_t		i;

	b->len = 0;
	if (lv.root != NULL && (!lv.root_dir || lv.sc)) {
		for (i = 0; i < nafacts; i++)
			if (strcmp(afacts[i].path, path) == 0) {
				buf_add(b, afacts[i].b.p != NULL ?
				    afacts[i].b.p : "", afacts[i].b.len);
				return (0);
			}
		return (-1);
	}
	memset(&h, 0, sizeof(h));
	rd_file(in_root(path, rpath, sizeof(rpath)), b, &h);
	if ((h.err != 0 && b->len == 0) || (h.flags & RF_NOTREG))
		return (-1);
	buf_add(b, "", 0);
	return (0);
}

/* An integer fact, or -1. */
static int
fact_int(const char *path)
{
	struct buf	b;
	int		v = -1;

	memset(&b, 0, sizeof(b));
	if (fact_get(path, &b) == 0 && b.len > 0)
		v = atoi(b.p);
	buf_free(&b);
	return (v);
}

/*
 * Load the system's map for live_symbol(): only a map of the system's
 * release (by its name), or one without a release in its name.
 */
static void
map_load(const char *p, size_t n, const char *name)
{
	struct kl_error	 err;
	const char	*r;

	memset(&err, 0, sizeof(err));
	if (lv.fx.symtab != NULL ||
	    (lv.fx.symtab = kl_sym_load_mem(p, n, name, &err)) == NULL)
		return;
	r = kl_sym_release(lv.fx.symtab);
	if (r != NULL && lv.fx.release[0] != '\0' &&
	    strcmp(r, lv.fx.release) != 0) {
		kl_sym_free(lv.fx.symtab);
		lv.fx.symtab = NULL;
	}
}

/* _text of a System.map file (raw or in b), into *v; 0 when found. */
static int
map_text(const char *p, size_t n, uint64_t *v)
{
	struct kl_symrange	r;

	if (kl_live_symrange(p, n, 8 * sizeof(void *), &r) == 0 ||
	    !r.have_text)
		return (-1);
	*v = r.text;
	return (0);
}

/* The architecture profile of a uname machine name. */
static enum kl_arch_id
machine_arch(const char *m, int la57)
{
	static const struct {
		const char	*m;
		const char	*arch;
	} tab[] = {
		{ "x86_64", "x86_64" }, { "aarch64", "arm64" },
		{ "arm64", "arm64" }, { "i386", "i386" }, { "i486", "i386" },
		{ "i586", "i386" }, { "i686", "i386" }, { "armv7l", "arm" },
		{ "armv6l", "arm" }, { "ppc64le", "ppc64" },
		{ "ppc64", "ppc64" }, { "ppc", "ppc32" },
		{ "riscv64", "riscv64" }, { "mips64", "mips64" },
		{ "loongarch64", "loongarch64" }, { "s390x", "s390x" },
		{ "sparc64", "sparc64" },
	};
	enum kl_arch_id	id;
	size_t		i;

	if (strcmp(m, "x86_64") == 0 && la57 == 1 &&
	    kl_arch_parse("x86_64-l5", &id) == 0)
		return (id);
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strcmp(m, tab[i].m) == 0 &&
		    kl_arch_parse(tab[i].arch, &id) == 0)
			return (id);
	return (KL_ARCH_AUTO);
}

/* The n-th (0-based) blank-separated word of s into out. */
static void
word_at(const char *s, int n, char *out, size_t size)
{
	const char	*e;
	int		 i;

	out[0] = '\0';
	for (i = 0; *s != '\0'; i++) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		e = s;
		while (*e != '\0' && *e != ' ' && *e != '\t' && *e != '\n')
			e++;
		if (e == s)
			return;
		if (i == n) {
			snprintf(out, size, "%.*s", (int)(e - s), s);
			return;
		}
		s = e;
	}
}

/* Learn the system's facts: sysctls, arch, paging, symbols. */
static void
learn_facts(void)
{
	struct facts	*fx = &lv.fx;
	struct utsname	 un;
	struct buf	 b;
	const char	*s, *e;
	char		 w[64];
	int		 i;

	memset(&b, 0, sizeof(b));
	fx->kptr_restrict = fact_int("/proc/sys/kernel/kptr_restrict");
	fx->dmesg_restrict = fact_int("/proc/sys/kernel/dmesg_restrict");
	memset(&b, 0, sizeof(b));
	if (fact_get("/proc/sys/kernel/perf_event_paranoid", &b) == 0 &&
	    b.len > 0) {
		fx->perf_event_paranoid = atoi(b.p);
		fx->have_perf = 1;
	}
	fx->no_hash_pointers = -1;
	if (fact_get("/proc/cmdline", &b) == 0)
		fx->no_hash_pointers = strstr(b.p, "no_hash_pointers") !=
		    NULL;
	if (fact_get("/sys/kernel/security/lockdown", &b) == 0 &&
	    (s = strchr(b.p, '[')) != NULL && (e = strchr(s, ']')) != NULL)
		snprintf(fx->lockdown, sizeof(fx->lockdown), "%.*s",
		    (int)(e - s - 1), s + 1);
	if (fact_get("/proc/cpuinfo", &b) == 0 &&
	    (s = strstr(b.p, "bits physical, ")) != NULL)
		fx->vbits = atoi(s + strlen("bits physical, "));
	/* x86 clears the la57 flag unless 5-level paging is on. */
	fx->la57 = -1;
	if (fact_get("/proc/cpuinfo", &b) == 0 &&
	    (s = strstr(b.p, "\nflags")) != NULL) {
		e = strchr(s + 1, '\n');
		fx->la57 = 0;
		for (s = strstr(s, " la57"); s != NULL && (e == NULL || s < e);
		    s = strstr(s + 1, " la57"))
			if (s[5] == ' ' || s[5] == '\n' || s[5] == '\0') {
				fx->la57 = 1;
				break;
			}
	}
	if (lv.root == NULL && uname(&un) == 0) {
		snprintf(fx->machine, sizeof(fx->machine), "%s", un.machine);
		snprintf(fx->release, sizeof(fx->release), "%s", un.release);
	} else {
		if (fact_get("/proc/sys/kernel/osrelease", &b) == 0)
			word_at(b.p, 0, fx->release, sizeof(fx->release));
		if (fx->release[0] == '\0' &&
		    fact_get("/proc/version", &b) == 0)
			word_at(b.p, 2, fx->release, sizeof(fx->release));
		if (fact_get("/proc/sys/kernel/arch", &b) == 0)
			word_at(b.p, 0, fx->machine, sizeof(fx->machine));
		if (fx->machine[0] == '\0' &&
		    (fact_get("/uname", &b) == 0 ||
		    fact_get("/sos_commands/kernel/uname_-a", &b) == 0)) {
			/* uname -a: the machine is before "GNU/Linux". */
			for (i = 1; i < 32; i++) {
				word_at(b.p, i, w, sizeof(w));
				if (w[0] == '\0' || strcmp(w, "GNU/Linux") == 0)
					break;
				snprintf(fx->machine, sizeof(fx->machine),
				    "%s", w);
			}
			if (fx->release[0] == '\0')
				word_at(b.p, 2, fx->release,
				    sizeof(fx->release));
		}
	}
	fx->arch = machine_arch(fx->machine, fx->la57);
	buf_free(&b);
}

/* The symbol table: kallsyms as read (privileged), and a map's _text. */
static void
learn_symbols(void)
{
	struct facts		*fx = &lv.fx;
	static struct rdata	 a, u;
	struct buf		 b;
	struct kl_symrange	 r;

	memset(&b, 0, sizeof(b));
	if (lv.root == NULL) {
		rd_ask(&lv.priv, RK_FILE, "/proc/kallsyms", &a);
		if (a.ok && a.h.err == 0)
			buf_add(&b, a.p, (size_t)a.h.len);
	} else
		(void)fact_get("/proc/kallsyms", &b);
	if (b.len > 0 && kl_live_symrange(b.p, b.len, 8 * sizeof(void *),
	    &r) > 0) {
		fx->have_syms = 1;
		fx->lo = r.lo;
		fx->hi = r.hi;
		fx->text = r.text;
		fx->have_text = r.have_text;
	}
	if (lv.root == NULL && fx->have_syms) {
		fx->kallsyms_known = 1;
		if (!lv.asroot)
			fx->kallsyms_everyone = 1;
		else {
			rd_ask(&lv.unpriv, RK_FILE, "/proc/kallsyms", &u);
			fx->kallsyms_everyone = u.ok && u.h.err == 0 &&
			    kl_live_symrange(u.p, (size_t)u.h.len,
			    8 * sizeof(void *), &r) > 0;
		}
	}
	/* The map: the first --system-map, else System.map-RELEASE. */
	b.len = 0;
	if (lv.cli->nmaps > 0)
		snprintf(fx->map, sizeof(fx->map), "%s", lv.cli->maps[0]);
	else if (lv.root == NULL || lv.root_dir)
		snprintf(fx->map, sizeof(fx->map), "%s/boot/System.map-%s",
		    lv.root != NULL ? lv.root : "", fx->release);
	if (fx->map[0] != '\0' && !fx->have_map_text) {
		struct rhead	h;

		memset(&h, 0, sizeof(h));
		rd_file(fx->map, &b, &h);
		if (b.len > 0 && map_text(b.p, b.len, &fx->map_text) == 0) {
			fx->have_map_text = 1;
			map_load(b.p, b.len, fx->map);
		} else
			fx->map[0] = '\0';
	}
	buf_free(&b);
}

/* Print s as a JSON string. */
static void
json_s(const char *s)
{
	const unsigned char	*p;

	if (s == NULL) {
		fputs("null", stdout);
		return;
	}
	putchar('"');
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

/* One line of the verdict section: a fact and what it lets users read. */
static void
verdict_row(int *first, const char *key, const char *val, const char *what)
{
	if (lv.cli->json) {
		printf("%s", *first ? "" : ",");
		json_s(key);
		printf(":{\"value\":");
		json_s(val);
		printf(",\"unprivileged\":");
		json_s(what);
		putchar('}');
	} else
		printf("live: %s=%s: %s\n", key, val, what);
	*first = 0;
}

/* The verdict section: the system's facts and what they let users read. */
static void
print_verdict(void)
{
	const struct facts	*fx = &lv.fx;
	const struct kl_arch	*ka;
	char			 v[128], w[256];
	uint64_t		 base;
	int			 first = 1;

	if (lv.cli->json) {
		printf("{\"type\":\"live\",\"system\":");
		json_s(lv.root != NULL ? lv.root : "running");
		printf(",\"arch\":");
		json_s(fx->arch != KL_ARCH_AUTO ? kl_arch_name(fx->arch) :
		    NULL);
		printf(",\"machine\":");
		json_s(fx->machine[0] != '\0' ? fx->machine : NULL);
		printf(",\"release\":");
		json_s(fx->release[0] != '\0' ? fx->release : NULL);
		printf(",\"virtual_bits\":");
		if (fx->vbits > 0)
			printf("%d", fx->vbits);
		else
			fputs("null", stdout);
		printf(",\"paging\":");
		json_s(strcmp(fx->machine, "x86_64") != 0 || fx->la57 < 0 ?
		    NULL : fx->la57 ? "5-level" : "4-level");
		printf(",\"facts\":{");
	} else {
		printf("live: system %s, %s (%s), release %s",
		    lv.root != NULL ? "captured" : "running",
		    fx->machine[0] != '\0' ? fx->machine : "unknown",
		    fx->arch != KL_ARCH_AUTO ? kl_arch_name(fx->arch) :
		    "profile unknown",
		    fx->release[0] != '\0' ? fx->release : "unknown");
		if (fx->vbits > 0)
			printf(", %d-bit virtual addresses", fx->vbits);
		if (strcmp(fx->machine, "x86_64") == 0 && fx->la57 >= 0)
			printf(", %s paging", fx->la57 ? "5-level" :
			    "4-level");
		putchar('\n');
	}
	snprintf(v, sizeof(v), "%d", fx->kptr_restrict);
	verdict_row(&first, "kptr_restrict", fx->kptr_restrict < 0 ?
	    "unknown" : v, fx->kptr_restrict < 0 ? "unknown" :
	    fx->kptr_restrict == 0 ? "%pK prints addresses to every reader "
	    "(kallsyms and modules: see perf_event_paranoid)" :
	    fx->kptr_restrict == 1 ? "%pK prints addresses only to readers "
	    "with CAP_SYSLOG; others see zeros" :
	    "%pK prints zeros to everyone, root too");
	snprintf(v, sizeof(v), "%d", fx->dmesg_restrict);
	verdict_row(&first, "dmesg_restrict", fx->dmesg_restrict < 0 ?
	    "unknown" : v, fx->dmesg_restrict < 0 ? "unknown" :
	    fx->dmesg_restrict == 0 ? "every user reads the kernel log" :
	    "reading the kernel log needs CAP_SYSLOG");
	snprintf(v, sizeof(v), "%d", fx->perf_event_paranoid);
	verdict_row(&first, "perf_event_paranoid", !fx->have_perf ?
	    "unknown" : v, !fx->have_perf ? "unknown" :
	    fx->perf_event_paranoid <= 1 ? (fx->kptr_restrict == 0 ?
	    "perf samples kernel addresses, and with kptr_restrict=0 "
	    "kallsyms and modules show addresses to every user" :
	    "perf samples kernel addresses") :
	    fx->perf_event_paranoid == 2 ? "perf measures user space only; "
	    "kallsyms and modules show addresses only with CAP_SYSLOG" :
	    "perf is closed to unprivileged users");
	verdict_row(&first, "no_hash_pointers", fx->no_hash_pointers < 0 ?
	    "unknown" : fx->no_hash_pointers ? "on" : "off",
	    fx->no_hash_pointers < 0 ? "unknown" : fx->no_hash_pointers ?
	    "%p prints raw addresses everywhere" :
	    "%p prints hashed values");
	verdict_row(&first, "lockdown", fx->lockdown[0] != '\0' ?
	    fx->lockdown : "unavailable",
	    strcmp(fx->lockdown, "confidentiality") == 0 ? "kernel memory "
	    "reads (kcore, BPF, perf) are refused, root too" :
	    strcmp(fx->lockdown, "integrity") == 0 ? "the running kernel "
	    "cannot be changed; reads are not restricted" :
	    "no restriction of reads");
	if (lv.root == NULL)
		verdict_row(&first, "kernel_log", lv.klog < 0 ? "unread" :
		    lv.klog ? "klogctl" : "/dev/kmsg", lv.klog < 0 ?
		    "neither /dev/kmsg nor klogctl(2) could be read" : lv.klog ?
		    "/dev/kmsg could not be opened: the ring read by "
		    "klogctl(2)" : "the ring read from its start");
	/* The slide, when kallsyms gives _text and a base is known. */
	ka = kl_arch_get(fx->arch);
	base = fx->have_map_text ? fx->map_text : ka != NULL ? ka->text_base :
	    0;
	if (fx->have_text && base != 0) {
		snprintf(v, sizeof(v), "0x%" PRIx64, fx->text - base);
		snprintf(w, sizeof(w), "from kallsyms _text and %s; %s",
		    fx->have_map_text ? "the map" : "the default base",
		    !fx->kallsyms_known ? "who can read kallsyms: unknown" :
		    fx->kallsyms_everyone ? "every user reads it" :
		    "only privileged readers see it");
		verdict_row(&first, "slide", v, w);
		if (fx->have_map_text)
			verdict_row(&first, "map", fx->map, "System.map used "
			    "for the slide");
	} else
		verdict_row(&first, "slide", "unknown", fx->have_syms ?
		    "kallsyms has no _text" : lv.root != NULL ? "the capture "
		    "holds no kallsyms with addresses" : "kallsyms shows no "
		    "addresses to this reader");
	if (lv.cli->json)
		printf("}}\n");
}

/* The counts of the walk: what was read, skipped, not read. */
static void
print_counts(void)
{
	static const char *const names[] = {
		"files", "dirs", "scanned", "binary", "raw_hits", "skipped",
		"symlinks", "outside_root", "unreadable", "vanished", "eio",
		"timeouts", "cut", "notes", "leaks_everyone",
		"leaks_privileged", "leaks_unknown",
	};
	uint64_t	vals[17];
	size_t		i;

	vals[0] = lv.files;
	vals[1] = lv.dirs;
	vals[2] = lv.scanned;
	vals[3] = lv.binary;
	vals[4] = lv.rawhits;
	vals[5] = lv.skipped;
	vals[6] = lv.symlinks;
	vals[7] = lv.outside;
	vals[8] = lv.unreadable;
	vals[9] = lv.vanished;
	vals[10] = lv.eio;
	vals[11] = lv.timeouts;
	vals[12] = lv.cut;
	vals[13] = lv.notes;
	vals[14] = lv.everyone;
	vals[15] = lv.privileged;
	vals[16] = lv.unknown;
	if (lv.cli->json) {
		printf("{\"type\":\"live_summary\",\"user\":");
		json_s(lv.root != NULL ? NULL : lv.user);
		printf(",\"complete\":%s", lv.stopped ? "false" : "true");
		for (i = 0; i < 17; i++)
			printf(",\"%s\":%" PRIu64, names[i], vals[i]);
		printf("}\n");
		return;
	}
	printf("live: %s", lv.stopped ? "stopped at --live-timeout" :
	    "complete");
	for (i = 0; i < 17; i++)
		printf(", %s %" PRIu64, names[i], vals[i]);
	putchar('\n');
}

/* Order squash rows by count, then key. */
static int
sqcmp(const void *a, const void *b)
{
	const struct squash	*x = a, *y = b;

	if (x->count != y->count)
		return (x->count > y->count ? -1 : 1);
	return (strcmp(x->key, y->key));
}

/* The --squash-by-* view, as leaking_addresses.pl prints it. */
static void
print_squash(void)
{
	const char	*by;
	size_t		 i;

	if (lv.cli == NULL ||
	    (!lv.cli->squash_by_path && !lv.cli->squash_by_filename))
		return;
	by = lv.cli->squash_by_filename ? "filename" : "path";
	if (lv.nsq > 1)
		qsort(lv.sq, lv.nsq, sizeof(*lv.sq), sqcmp);
	for (i = 0; i < lv.nsq; i++) {
		if (lv.cli->json) {
			printf("{\"type\":\"squash\",\"by\":\"%s\",\"key\":",
			    by);
			json_s(lv.sq[i].key);
			printf(",\"count\":%" PRIu64 ",\"example\":",
			    lv.sq[i].count);
			json_s(lv.sq[i].example);
			printf("}\n");
		} else {
			printf("[%" PRIu64 " %s] ", lv.sq[i].count,
			    print_name_esc(&lv.esc, lv.sq[i].key,
			    strlen(lv.sq[i].key), 0));
			printf("%s\n", print_text_esc(&lv.esc,
			    lv.sq[i].example, lv.sq[i].exlen));
		}
		free(lv.sq[i].key);
		free(lv.sq[i].example);
	}
	free(lv.sq);
	lv.sq = NULL;
	lv.nsq = 0;
}

/* Print the squashed view of a run that was not live. */
void
live_finish(const struct cli *cli)
{
	lv.cli = cli;
	print_squash();
}

/*
 * A supportconfig (SUSE's supportutils) is a flat directory of report
 * files, NAME.txt, each a run of sections:
 *	#==[ Configuration File ]===========================#
 *	# /proc/sys/kernel/kptr_restrict
 *	0
 * "Configuration File" and "Log File" sections hold a file of the system
 * (cat, or its last lines), "Command" sections a command's output
 * (boot.txt: "# /bin/dmesg").  The files of /proc, /sys and /var/log are
 * audited under their system paths (lines as in the file); the output of
 * dmesg under the report file's name, with its lines (the rest of that
 * file blanked, so line numbers stay those of the report file).
 */

/* Order strings (qsort of char *). */
static int
strpcmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* Is rel (relative to the root) a report file of a supportconfig? */
static int
sc_is_report(const char *rel)
{
	size_t	n = strlen(rel);

	return (strchr(rel, '/') == NULL && n > 4 &&
	    strcmp(rel + n - 4, ".txt") == 0);
}

/* Is the section kind k (of length n) kind? */
static int
sc_kind(const struct kl_live_section *sec, const char *kind)
{
	return (sec->klen == strlen(kind) &&
	    memcmp(sec->kind, kind, sec->klen) == 0);
}

/* The first word of the title into out (a path or a command). */
static void
sc_word(const struct kl_live_section *sec, char *out, size_t size)
{
	size_t	n;

	for (n = 0; n < sec->tlen && sec->title[n] != ' ' &&
	    sec->title[n] != '\t'; n++)
		;
	snprintf(out, size, "%.*s", (int)n, sec->title);
}

/* Is the section the output of dmesg (or journalctl -k)? */
static int
sc_is_log(const struct kl_live_section *sec)
{
	char		 w[PATH_MAX];
	const char	*b;

	if (!sc_kind(sec, "Command"))
		return (0);
	sc_word(sec, w, sizeof(w));
	b = strrchr(w, '/') != NULL ? strrchr(w, '/') + 1 : w;
	if (strcmp(b, "dmesg") == 0)
		return (1);
	return (strcmp(b, "journalctl") == 0 &&
	    (memmem(sec->title, sec->tlen, " -k", 3) != NULL ||
	    memmem(sec->title, sec->tlen, " --dmesg", 8) != NULL));
}

/* Keep a fact file of a supportconfig (the first copy of each). */
static void
sc_fact(const char *path, const char *p, size_t n)
{
	size_t	i;

	for (i = 0; i < nafacts; i++)
		if (strcmp(afacts[i].path, path) == 0)
			return;
	for (i = 0; fact_paths[i] != NULL; i++)
		if (strcmp(path, fact_paths[i]) == 0)
			break;
	if (fact_paths[i] == NULL)
		return;
	afacts = xreallocarray(afacts, nafacts + 1, sizeof(*afacts));
	memset(&afacts[nafacts], 0, sizeof(*afacts));
	afacts[nafacts].path = xstrdup(path);
	buf_add(&afacts[nafacts].b, p, n);
	nafacts++;
}

/*
 * A report file of a supportconfig, p[0..n): its facts (facts set), or
 * its audit.  p is changed (masks, the blanked kernel log).
 */
static void
sc_report(const char *file, char *p, size_t n, int facts)
{
	struct kl_live_section	 sec;
	struct buf	 log;
	char		 path[PATH_MAX];
	const char	*base;
	size_t		 off = 0, i;
	int		 nlog = 0;

	memset(&log, 0, sizeof(log));
	while (kl_live_section(p, n, &off, &sec)) {
		if (sc_is_log(&sec)) {
			/* Kept in place; the rest is blanked below. */
			if (nlog++ == 0) {
				buf_reserve(&log, n + 1);
				for (i = 0; i < n; i++)
					log.p[i] = p[i] == '\n' ? '\n' : ' ';
				log.len = n;
				log.p[n] = '\0';
			}
			memcpy(log.p + sec.body, p + sec.body, sec.blen);
			continue;
		}
		sc_word(&sec, path, sizeof(path));
		if (facts && sc_kind(&sec, "Command")) {
			base = strrchr(path, '/') != NULL ?
			    strrchr(path, '/') + 1 : path;
			if (strcmp(base, "uname") == 0)
				sc_fact("/uname", p + sec.body, sec.blen);
			continue;
		}
		if (sc_kind(&sec, "Command") || path[0] != '/' ||
		    sec.blen == 0)
			continue;
		if (facts) {
			sc_fact(path, p + sec.body, sec.blen);
			continue;
		}
		if (strncmp(path, "/proc/", 6) != 0 &&
		    strncmp(path, "/sys/", 5) != 0 &&
		    strncmp(path, "/var/log/", 9) != 0)
			continue;
		base = strrchr(path, '/') + 1;
		if (strncmp(path, "/var/log/", 9) != 0) {
			/* One /proc/PID, as on the running system. */
			if (strncmp(path, "/proc/", 6) == 0 &&
			    path[6] >= '0' && path[6] <= '9' &&
			    strncmp(path, "/proc/1/", 8) != 0)
				continue;
			if (skip_path(path, base)) {
				lv.skipped++;
				continue;
			}
			if (has_hexrun(path, strlen(path))) {
				buf_add(&lv.names, path, strlen(path));
				buf_add(&lv.names, "\n", 1);
			}
		}
		lv.files++;
		captured_who(path);
		audit_bytes(path, p + sec.body, sec.blen, NULL, 0);
		lv.who = NULL;
	}
	if (!facts && nlog > 0) {
		lv.files++;
		lv.sclog = 1;
		captured_who(file);
		lv.sclog = 0;
		audit_bytes(file, log.p, log.len, NULL, 0);
		lv.who = NULL;
	}
	buf_free(&log);
}

/* The report files of a supportconfig directory: facts, or the audit. */
static void
sc_dir(int facts)
{
	static struct rdata	 d;
	struct dirent		*de;
	char			 rpath[2 * PATH_MAX];
	char			**names = NULL;
	size_t			 n = 0, i;
	DIR			*dir;

	if ((dir = opendir(lv.root)) == NULL)
		return;
	while ((de = readdir(dir)) != NULL)
		if (sc_is_report(de->d_name)) {
			names = xreallocarray(names, n + 1, sizeof(*names));
			names[n++] = xstrdup(de->d_name);
		}
	closedir(dir);
	qsort(names, n, sizeof(*names), strpcmp);
	for (i = 0; i < n; i++) {
		snprintf(rpath, sizeof(rpath), "%s/%s", lv.root, names[i]);
		if (facts) {
			struct rhead	h;
			struct buf	b;

			memset(&h, 0, sizeof(h));
			memset(&b, 0, sizeof(b));
			rd_file(rpath, &b, &h);
			if (h.err == 0 && !(h.flags & RF_NOTREG) && b.len > 0)
				sc_report(names[i], b.p, b.len, 1);
			buf_free(&b);
		} else if (lv.deadline != 0 && now() >= lv.deadline)
			lv.stopped = 1;
		else {
			rd_ask(&lv.priv, RK_FILE, rpath, &d);
			if (!read_failed(names[i], &d, ""))
				sc_report(names[i], d.p, (size_t)d.h.len, 0);
		}
		free(names[i]);
	}
	free(names);
}

/* Open the captured archive; NULL (and an error) when it cannot be. */
static struct archive *
arc_open(void)
{
	struct archive	*a;

	if ((a = archive_read_new()) == NULL)
		return (NULL);
	(void)archive_read_support_filter_all(a);
	(void)archive_read_support_format_all(a);
	if (archive_read_open_filename(a, lv.root, 65536) != ARCHIVE_OK) {
		log_error(lv.root, strlen(lv.root), 0, "%s",
		    archive_error_string(a) != NULL ?
		    archive_error_string(a) : "cannot open");
		archive_read_free(a);
		return (NULL);
	}
	return (a);
}

/* Read the data of the current member into b, at most LIVE_FILE_MAX. */
static int
arc_data(struct archive *a, struct buf *b)
{
	la_ssize_t	r;

	b->len = 0;
	for (;;) {
		buf_reserve(b, b->len + 65536 + 1);
		r = archive_read_data(a, b->p + b->len, 65536);
		if (r < 0)
			return (-1);
		if (r == 0)
			break;
		b->len += (size_t)r;
		if (b->len >= LIVE_FILE_MAX) {
			b->len = LIVE_FILE_MAX;
			lv.cut++;
			break;
		}
	}
	b->p[b->len] = '\0';
	return (0);
}

/* First pass over a captured archive: the fact files and the map. */
static void
arc_facts(void)
{
	struct archive		*a;
	struct archive_entry	*e;
	const char		*rel;
	struct buf		 b;
	char			 sys[PATH_MAX];
	size_t			 i;
	int			 rc;

	if ((a = arc_open()) == NULL)
		return;
	memset(&b, 0, sizeof(b));
	while ((rc = archive_read_next_header(a, &e)) == ARCHIVE_OK ||
	    rc == ARCHIVE_WARN) {
		if (archive_entry_filetype(e) != AE_IFREG ||
		    (rel = kl_live_relpath(archive_entry_pathname(e))) == NULL)
			continue;
		snprintf(sys, sizeof(sys), "/%s", rel);
		if (sc_is_report(rel)) {
			/* A supportconfig's report files. */
			if (strcmp(rel, "basic-environment.txt") == 0)
				lv.sc = 1;
			if (arc_data(a, &b) == 0 && b.len > 0)
				sc_report(rel, b.p, b.len, 1);
			continue;
		}
		if (strncmp(rel, "boot/System.map-", 16) == 0 &&
		    !lv.fx.have_map_text) {
			if (arc_data(a, &b) == 0 &&
			    map_text(b.p, b.len, &lv.fx.map_text) == 0) {
				lv.fx.have_map_text = 1;
				snprintf(lv.fx.map, sizeof(lv.fx.map), "%s{%s}",
				    lv.root, archive_entry_pathname(e));
				buf_free(&amap);
				amap = b;
				memset(&b, 0, sizeof(b));
			}
			continue;
		}
		for (i = 0; fact_paths[i] != NULL; i++)
			if (strcmp(sys, fact_paths[i]) == 0)
				break;
		if (fact_paths[i] == NULL)
			continue;
		afacts = xreallocarray(afacts, nafacts + 1, sizeof(*afacts));
		memset(&afacts[nafacts], 0, sizeof(*afacts));
		afacts[nafacts].path = xstrdup(sys);
		if (arc_data(a, &afacts[nafacts].b) == -1)
			afacts[nafacts].b.len = 0;
		nafacts++;
	}
	if (rc != ARCHIVE_EOF)
		log_error(lv.root, strlen(lv.root), 0, "%s",
		    archive_error_string(a) != NULL ?
		    archive_error_string(a) : "cannot read");
	buf_free(&b);
	archive_read_free(a);
}

/* Is rel (relative to the root) a kernel log of a captured system? */
static int
is_captured_log(const char *rel)
{
	return (strncmp(rel, "sos_commands/kernel/dmesg", 25) == 0 ||
	    strncmp(rel, "var/log/", 8) == 0);
}

/* Second pass over a captured archive: audit it as the system. */
static void
arc_walk(void)
{
	struct archive		*a;
	struct archive_entry	*e;
	const char		*rel, *name, *base, *t;
	static struct buf	 b;
	char			 sys[PATH_MAX];
	size_t			 n;
	int			 rc, sysfile;

	if ((a = arc_open()) == NULL)
		return;
	while ((rc = archive_read_next_header(a, &e)) == ARCHIVE_OK ||
	    rc == ARCHIVE_WARN) {
		if ((rel = kl_live_relpath(archive_entry_pathname(e))) == NULL ||
		    *rel == '\0')
			continue;
		if (lv.sc && sc_is_report(rel) &&
		    archive_entry_filetype(e) == AE_IFREG) {
			if (lv.deadline != 0 && now() >= lv.deadline) {
				lv.stopped = 1;
				break;
			}
			if (arc_data(a, &b) == -1) {
				lv.unreadable++;
				note(rel, "not read: %s", archive_error_string(a)
				    != NULL ? archive_error_string(a) :
				    "read error");
			} else
				sc_report(rel, b.p, b.len, 0);
			continue;
		}
		n = strlen(rel);
		while (n > 0 && rel[n - 1] == '/')
			n--;
		snprintf(sys, sizeof(sys), "/%.*s", (int)n, rel);
		sysfile = strncmp(rel, "proc/", 5) == 0 ||
		    strncmp(rel, "sys/", 4) == 0;
		if (!sysfile && !is_captured_log(rel))
			continue;
		if (lv.deadline != 0 && now() >= lv.deadline) {
			lv.stopped = 1;
			break;
		}
		base = strrchr(sys, '/') + 1;
		if (archive_entry_filetype(e) == AE_IFLNK) {
			lv.symlinks++;
			t = archive_entry_symlink(e);
			if (t != NULL && t[0] == '/') {
				lv.outside++;
				note(sys, "absolute symlink to %s: not "
				    "followed out of the root", t);
			}
			continue;
		}
		if (sysfile) {
			/* One /proc/PID, as on the running system. */
			if (strncmp(sys, "/proc/", 6) == 0 && sys[6] >= '0' &&
			    sys[6] <= '9' && strncmp(sys, "/proc/1/", 8) != 0 &&
			    strcmp(sys, "/proc/1") != 0)
				continue;
			if (skip_path(sys, base)) {
				lv.skipped++;
				continue;
			}
			if (has_hexrun(sys, strlen(sys))) {
				buf_add(&lv.names, sys, strlen(sys));
				buf_add(&lv.names, "\n", 1);
			}
		}
		if (archive_entry_filetype(e) == AE_IFDIR) {
			lv.dirs++;
			continue;
		}
		if (archive_entry_filetype(e) != AE_IFREG) {
			lv.skipped++;
			continue;
		}
		lv.files++;
		if (arc_data(a, &b) == -1) {
			lv.unreadable++;
			note(sys, "not read: %s", archive_error_string(a) !=
			    NULL ? archive_error_string(a) : "read error");
			continue;
		}
		/* A captured log is named as in the capture. */
		name = sysfile || strncmp(rel, "var/log/", 8) == 0 ? sys : rel;
		captured_who(name);
		audit_bytes(name, b.p, b.len, NULL, 0);
		lv.who = NULL;
	}
	if (rc != ARCHIVE_EOF && !lv.stopped)
		log_error(lv.root, strlen(lv.root), 0, "%s",
		    archive_error_string(a) != NULL ?
		    archive_error_string(a) : "cannot read");
	archive_read_free(a);
}

/* The kernel logs of a captured directory. */
static void
dir_logs(void)
{
	char		 dir[PATH_MAX], rpath[2 * PATH_MAX], name[PATH_MAX];
	struct dirent	*de;
	DIR		*d;

	snprintf(dir, sizeof(dir), "%s/sos_commands/kernel", lv.root);
	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strncmp(de->d_name, "dmesg", 5) != 0)
				continue;
			snprintf(name, sizeof(name), "sos_commands/kernel/%s",
			    de->d_name);
			snprintf(rpath, sizeof(rpath), "%s/%s", lv.root, name);
			root_file(name, rpath);
		}
		closedir(d);
	}
	snprintf(dir, sizeof(dir), "%s/var/log", lv.root);
	if (access(dir, F_OK) == 0)
		walk_bfs("/var/log");
}

/*
 * Before the engine is made: what the system is (its architecture, when
 * --arch is not given; its System.map, when no map is given), the
 * readers, the facts of the verdict section.
 */
void
live_prepare(struct cli *cli)
{
	static const char	*map[1];
	struct passwd		*pw;
	struct stat		 st;

	memset(&lv, 0, sizeof(lv));
	lv.cli = cli;
	lv.memfd = -1;
	lv.priv.fd = lv.unpriv.fd = -1;
	lv.ownpid = getpid();
	lv.secs = LIVE_FILE_SECS;
	if (!cli->live && cli->live_root == NULL)
		return;
	fault_parse();
	if (cli->live_timeout != 0)
		lv.deadline = now() + (time_t)cli->live_timeout;
	if (cli->live_root != NULL) {
		lv.root = cli->live_root;
		if (stat(lv.root, &st) == -1)
			log_fatal("%s: %s", lv.root, strerror(errno));
		lv.root_dir = S_ISDIR(st.st_mode);
		if (!lv.root_dir)
			arc_facts();
		else {
			char	sc[PATH_MAX];

			snprintf(sc, sizeof(sc), "%s/basic-environment.txt",
			    lv.root);
			if (access(sc, F_OK) == 0) {
				lv.sc = 1;
				sc_dir(1);
			}
		}
	} else if (geteuid() == 0) {
		lv.asroot = 1;
		lv.user = cli->live_user != NULL ? cli->live_user : "nobody";
		if ((pw = getpwnam(lv.user)) == NULL)
			log_fatal("--live-user: no user '%s'", lv.user);
		if (pw->pw_uid == 0)
			log_fatal("--live-user: '%s' is root", lv.user);
		lv.uid = pw->pw_uid;
		lv.gid = pw->pw_gid;
		lv.unpriv.drop = 1;
		if (rd_start(&lv.priv) == -1 || rd_start(&lv.unpriv) == -1)
			log_fatal("cannot start a reader: %s",
			    strerror(errno));
	} else {
		pw = getpwuid(geteuid());
		lv.user = xstrdup(pw != NULL ? pw->pw_name : "this user");
		if (rd_start(&lv.priv) == -1)
			log_fatal("cannot start a reader: %s",
			    strerror(errno));
	}
	learn_facts();
	learn_symbols();
	if (amap.len > 0)	/* the map of a captured archive */
		map_load(amap.p, amap.len, lv.fx.map);
	buf_free(&amap);
	if (!cli->arch_set && lv.fx.arch != KL_ARCH_AUTO)
		cli->kl.arch = lv.fx.arch;
	if (cli->nmaps == 0 && lv.fx.have_map_text &&
	    (lv.root == NULL || lv.root_dir)) {
		map[0] = lv.fx.map;
		cli->maps = map;
		cli->nmaps = 1;
	}
}

/* Audit the live or captured system: findings go through scan. */
void
live_run(const struct cli *cli, int (*scan)(const char *, int))
{
	size_t	i;

	lv.cli = cli;
	lv.scan = scan;
	if (lv.root == NULL)
		live_kmsg();
	if (lv.root != NULL && !lv.root_dir)
		arc_walk();
	else if (lv.sc)
		sc_dir(0);
	else {
		walk_bfs("/proc");
		walk_bfs("/sys");
		if (lv.root != NULL)
			dir_logs();
	}
	check_names();
	rd_stop(&lv.priv, 0);
	rd_stop(&lv.unpriv, 0);
	if (lv.memfd != -1)
		close(lv.memfd);
	lv.memfd = -1;
	if (lv.stopped)
		log_error(lv.root != NULL ? lv.root : "live", strlen(
		    lv.root != NULL ? lv.root : "live"), 0, "stopped at "
		    "--live-timeout=%u: the audit is not complete",
		    cli->live_timeout);
	if (!cli->quiet && cli->mode == MODE_LINES) {
		print_squash();
		print_verdict();
		print_counts();
	}
	for (i = 0; i < nafacts; i++) {
		free(afacts[i].path);
		buf_free(&afacts[i].b);
	}
	free(afacts);
	afacts = NULL;
	nafacts = 0;
	free(lv.vals);
	lv.vals = NULL;
	buf_free(&lv.names);
	buf_free(&lv.unames);
	buf_free(&lv.esc);
	kl_sym_free(lv.fx.symtab);
	lv.fx.symtab = NULL;
}
