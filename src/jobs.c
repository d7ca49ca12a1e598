/*
 * jobs.c - scan inputs in worker processes (-j N), output in input order.
 *
 * The parent walks the inputs as before and hands each open input to one
 * of N forked workers over a socket (the descriptor goes with it); a
 * worker runs the ordinary scan of that input and sends its counters
 * back in one small record.  Each worker has up to DEPTH inputs queued so
 * that it never waits for the parent between two small files.  The
 * worker of the oldest input in flight writes straight to stdout and
 * stderr; the others write to unlinked temporary files (one for both
 * when stdout and stderr are the same file, so that 2>&1 keeps its
 * interleaving), so memory stays flat whatever they print.  Small
 * regular files go in batches of consecutive inputs, one message, one
 * output file and one record for up to BATCH_MAX of them, so that the
 * hand-over does not cost more than their scan.  The parent
 * copies each input's output once every input before it is out, sums the
 * counters and reports walk errors in their place: the bytes written are
 * the ones -j 1 writes.  A job can also be one unit of an archive that
 * the parent read (members.c): its file descriptor holds the unit's
 * bytes and names, and the worker replays it through the unit callbacks.
 * What was loaded before the workers started (the
 * engine, the symbol maps, the leak sources) is shared copy-on-write.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleakscan.h"

#define DEPTH			2	/* inputs sent ahead to a worker */
#define QUEUE_PER_WORKER	64	/* inputs in flight per worker */
#define FDS_SPARE		64	/* descriptors kept for the rest */
#define FDS_FEW			12	/* ...when there are few: the std
					   streams, the walk, an input, a
					   socket pair, what a scan opens */
#define COPY_SIZE		(64 * 1024)
#define MSG_MAX			(64 * 1024)	/* the names of a job */
#define BATCH_MAX		32	/* small inputs in one job */
#define SMALL_MAX		(64 * 1024)	/* a small input, bytes */
#define BATCH_BYTES		(512 * 1024)	/* a batch is full */

/* One input in flight, or a walk error waiting for its turn. */
struct job {
	int		 w;		/* its worker, -1: a walk error */
	int		 out;		/* stdout file, -1: written directly */
	int		 err;		/* stderr file, -1: direct or in out */
	int		 done;		/* its record came or its worker died */
	int		 have;		/* its record came */
	int		 status;	/* the wait status of a dead worker */
	struct jobres	 r;
	char		*path;		/* a walk error */
	uint64_t	 line;
	char		*msg;
};

/* A worker process: scans the inputs sent on its socket, one at a time. */
struct worker {
	pid_t		 pid;
	int		 sock;		/* -1: dead */
	unsigned	 busy;		/* jobs out to it */
	unsigned	 first;		/* the oldest of them in job[] */
	size_t		 job[DEPTH];	/* queue positions, in order */
};

/* Room for the descriptors that come with a job. */
union fdmsg {
	struct cmsghdr	h;
	char		b[CMSG_SPACE((BATCH_MAX + 2) * sizeof(int))];
};

/*
 * What the parent sends with a job: the fds come alongside, the inputs'
 * names follow, each ended by a NUL.
 */
struct jobmsg {
	int		 is_stdin;	/* one input, standard input */
	int		 ninputs;	/* input fds, 1 to BATCH_MAX */
	int		 nfds;		/* inputs, then stdout, stderr files */
	int		 has_path;	/* the names are paths */
	uint32_t	 walked;	/* bit i: input i was met in a walk */
	size_t		 namelen;	/* the names, with their NULs */
	int		 unit;		/* one unit of an archive (members.c):
					   the fd holds it, no name */
};

/* A small input waiting for its batch to be sent. */
struct pendin {
	int		 fd;
	int		 walked;	/* met in a directory walk */
	char		*name;
};

static struct {
	const struct jobs_ops	*ops;
	unsigned		 max;		/* workers */
	struct worker		*w;
	unsigned		 nw;		/* started */
	struct job		*q;		/* a ring, input order */
	size_t			 qcap;
	size_t			 head;		/* queue position of q[0] */
	size_t			 n;
	int			 merged;	/* stdout is stderr */
	int			*pool;		/* emptied temporary files */
	size_t			 npool;
	int			 stop;		/* -q: a leak was found */
	int			 warned;	/* no temporary file, said so */
	int			 in_stdin;	/* a job reads stdin ... */
	size_t			 stdin_job;	/* ... at this position */
	struct pendin		 bat[BATCH_MAX];	/* the next batch */
	size_t			 batmax;	/* inputs in a batch */
	const char		*tmpdir;	/* where temporary files go */
	int			 wsock;		/* worker: its socket */
	int			 wtmp;		/* worker: output to files */
	size_t			 nbat;
	size_t			 batlen;	/* their names, with NULs */
	uint64_t		 batbytes;
	char			*names;		/* MSG_MAX */
} js;

_Static_assert(BATCH_MAX <= 32, "struct jobmsg's walked has a bit a input");
_Static_assert(sizeof(struct jobres) <= PIPE_BUF,
    "a worker's record must be one message");

/* The job at queue position pos. */
static struct job *
job_at(size_t pos)
{
	return (&js.q[pos % js.qcap]);
}

/* Set up the workers: at most n at once, started on first use. */
void
jobs_init(unsigned n, const struct jobs_ops *ops)
{
	struct stat	so, se;
	struct rlimit	rl;
	size_t		fds;

	js.ops = ops;
	js.max = n;
	/*
	 * A long input at the head holds back the output of every input
	 * after it: the more may wait, the longer the other workers go on.
	 * The parent's descriptors: a socket per worker, the inputs of the
	 * batch being gathered, and two temporary files per waiting input
	 * (the head writes directly; an emptied file goes to the pool and
	 * is taken again before a new one is made, so the pool never adds
	 * to that).  With few descriptors, batches and the queue shrink
	 * rather than temporary files failing.
	 */
	js.qcap = (size_t)n * QUEUE_PER_WORKER + 1;
	js.batmax = BATCH_MAX;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY) {
		fds = rl.rlim_cur >= 4 * FDS_SPARE ? FDS_SPARE : FDS_FEW;
		fds = rl.rlim_cur > fds + n ? (size_t)rl.rlim_cur - fds - n :
		    0;
		if (js.batmax > fds / 4)
			js.batmax = fds / 4 > 0 ? fds / 4 : 1;
		fds = fds > js.batmax ? fds - js.batmax : 0;
		if (js.qcap > fds / 2 + 1)
			js.qcap = fds / 2 + 1;
	}
	if ((js.tmpdir = getenv("TMPDIR")) == NULL || *js.tmpdir == '\0')
		js.tmpdir = "/tmp";
	js.wsock = -1;
	js.q = xreallocarray(NULL, js.qcap, sizeof(*js.q));
	js.w = xreallocarray(NULL, n, sizeof(*js.w));
	js.pool = xreallocarray(NULL, 2 * js.qcap, sizeof(*js.pool));
	js.names = xmalloc(MSG_MAX);
	js.merged = fstat(STDOUT_FILENO, &so) == 0 &&
	    fstat(STDERR_FILENO, &se) == 0 && so.st_dev == se.st_dev &&
	    so.st_ino == se.st_ino;
}

/* An unlinked temporary file for a worker's output, new or emptied; -1. */
static int
tmp_file(void)
{
	const char	*dir = js.tmpdir;
	char		 path[4096];
	int		 fd;

	if (js.npool > 0)
		return (js.pool[--js.npool]);
#ifdef O_TMPFILE
	if ((fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) != -1)
		return (fd);
#endif
	if ((size_t)snprintf(path, sizeof(path), "%s/kleakscan.XXXXXX",
	    dir) >= sizeof(path))
		errno = ENAMETOOLONG;
	else if ((fd = mkstemp(path)) != -1) {
		(void)unlink(path);
		return (fd);
	}
	if (!js.warned)
		log_warnx("cannot create a temporary file in %s: %s: "
		    "scanning one input at a time", dir, strerror(errno));
	js.warned = 1;
	return (-1);
}

/* Copy a worker's temporary file to fd; out says it is stdout. */
static void
copy_out(int from, int to, int out)
{
	static char	b[COPY_SIZE];
	ssize_t		r, w;
	size_t		off;

	if (lseek(from, 0, SEEK_SET) == -1)
		log_fatal("cannot rewind a temporary file: %s",
		    strerror(errno));
	for (;;) {
		do
			r = read(from, b, sizeof(b));
		while (r == -1 && errno == EINTR);
		if (r == -1)
			log_fatal("cannot read a temporary file: %s",
			    strerror(errno));
		if (r == 0)
			return;
		for (off = 0; off < (size_t)r; off += (size_t)w) {
			do
				w = write(to, b + off, (size_t)r - off);
			while (w == -1 && errno == EINTR);
			if (w == -1) {
				if (out)
					js.ops->out_failed(errno);
				return;	/* stderr: as fputs, no error */
			}
		}
	}
}

/* Empty a temporary file for the next job, or close it. */
static void
tmp_done(int fd)
{
	if (fd == -1)
		return;
	if (js.npool < 2 * js.qcap && ftruncate(fd, 0) == 0 &&
	    lseek(fd, 0, SEEK_SET) == 0)
		js.pool[js.npool++] = fd;
	else
		close(fd);
}

/* Free what a job holds. */
static void
job_free(struct job *j)
{
	tmp_done(j->out);
	tmp_done(j->err);
	free(j->path);
	free(j->msg);
	memset(j, 0, sizeof(*j));
	j->w = -1;
	j->out = j->err = -1;
}

/* Drop the job at the head of the queue. */
static void
pop(void)
{
	job_free(job_at(js.head));
	js.head++;
	js.n--;
}

/* Receive one job with its fds into m, names, fds: 0 at the end. */
static int
recv_job(int sock, struct jobmsg *m, char *name, int *fds)
{
	union fdmsg	 cb;
	struct msghdr	 mh;
	struct iovec	 iov[2];
	struct cmsghdr	*c;
	ssize_t		 r;

	iov[0].iov_base = m;
	iov[0].iov_len = sizeof(*m);
	iov[1].iov_base = name;
	iov[1].iov_len = MSG_MAX;
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = iov;
	mh.msg_iovlen = 2;
	mh.msg_control = cb.b;
	mh.msg_controllen = sizeof(cb.b);
	do
		r = recvmsg(sock, &mh, 0);
	while (r == -1 && errno == EINTR);
	if (r == 0)
		return (0);
	if (r < (ssize_t)sizeof(*m) || m->ninputs < 1 ||
	    m->ninputs > BATCH_MAX || m->nfds < m->ninputs ||
	    m->nfds > m->ninputs + 2 || m->namelen < 1 ||
	    m->namelen != (size_t)r - sizeof(*m) || name[m->namelen - 1] != 0 ||
	    (c = CMSG_FIRSTHDR(&mh)) == NULL || c->cmsg_level != SOL_SOCKET ||
	    c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN((size_t)m->nfds * sizeof(int)))
		_exit(2);
	memcpy(fds, CMSG_DATA(c), (size_t)m->nfds * sizeof(int));
	return (1);
}

/* A worker: scan what comes on sock until the parent closes it. */
static _Noreturn void
worker(int sock)
{
	struct jobmsg	 m;
	struct jobres	 r, one;
	char		*name, *at, *end;
	int		 fds[BATCH_MAX + 2], so, se, i, k;
	ssize_t		 n;

	name = xmalloc(MSG_MAX);
	if ((so = dup(STDOUT_FILENO)) == -1 || (se = dup(STDERR_FILENO)) == -1)
		_exit(2);
	js.wsock = sock;
	while (recv_job(sock, &m, name, fds)) {
		k = m.ninputs;
		js.wtmp = m.nfds > k;
		(void)log_write_errno();
		/* Straight out, or to the files the parent copies later. */
		if (m.nfds == k) {
			if (dup2(so, STDOUT_FILENO) == -1 ||
			    dup2(se, STDERR_FILENO) == -1)
				_exit(2);
		} else if (dup2(fds[k], STDOUT_FILENO) == -1 ||
		    dup2(fds[m.nfds - 1], STDERR_FILENO) == -1)
			_exit(2);
		for (i = k; i < m.nfds; i++)
			close(fds[i]);
		/* The inputs in order; -q's leak ends the batch. */
		memset(&r, 0, sizeof(r));
		at = name;
		end = name + m.namelen;
		for (i = 0; i < k; i++) {
			if (at >= end)
				_exit(2);
			if (!r.stop && m.unit) {
				memset(&one, 0, sizeof(one));
				js.ops->unit(js.ops->arg, fds[i], &one);
				jobres_add(&r, &one);
			} else if (!r.stop) {
				memset(&one, 0, sizeof(one));
				js.ops->scan(js.ops->arg, at,
				    m.has_path ? at : NULL, fds[i], m.is_stdin,
				    (m.walked >> i) & 1, &one);
				jobres_add(&r, &one);
			}
			close(fds[i]);
			at += strlen(at) + 1;
		}
		if (fflush(stdout) == EOF || ferror(stdout))
			js.ops->out_failed(errno);
		/* A message lost in a full temporary file is an error too. */
		if (js.wtmp && (i = log_write_errno()) != 0)
			jobs_write_failed(i);
		do
			n = send(sock, &r, sizeof(r), MSG_NOSIGNAL);
		while (n == -1 && errno == EINTR);
		if (n != (ssize_t)sizeof(r))
			_exit(2);
	}
	_exit(0);
}

/*
 * Writing stdout or stderr failed with errnum.  In a worker writing to
 * temporary files, tell the parent (which says what could not be
 * written, in its turn) and end; elsewhere, return.
 */
void
jobs_write_failed(int errnum)
{
	struct jobmsg	 m;
	struct jobres	 r;
	char		*name;
	int		 fds[BATCH_MAX + 2], i;

	if (js.wsock == -1 || !js.wtmp)
		return;
	memset(&r, 0, sizeof(r));
	r.tmp_errno = errnum != 0 ? errnum : EIO;
	/*
	 * The jobs queued behind fail the same way: answered, not left
	 * unread (a socket closed with unread messages loses the record).
	 */
	name = xmalloc(MSG_MAX);
	do {
		if (send(js.wsock, &r, sizeof(r), MSG_NOSIGNAL) == -1)
			break;
		if (!recv_job(js.wsock, &m, name, fds))
			break;
		for (i = 0; i < m.nfds; i++)
			close(fds[i]);
	} while (1);
	_exit(2);
}

/* In a new worker: close the parent's descriptors it has no use for. */
static void
close_inherited(void)
{
	struct job	*j;
	size_t		 i;

	for (i = 0; i < js.npool; i++)
		close(js.pool[i]);
	for (i = 0; i < js.n; i++) {
		j = job_at(js.head + i);
		if (j->out != -1)
			close(j->out);
		if (j->err != -1)
			close(j->err);
	}
	for (i = 0; i < js.nbat; i++)
		close(js.bat[i].fd);
}

/* Start one more worker. */
static struct worker *
start_worker(void)
{
	struct worker	*w;
	unsigned	 i;
	int		 sv[2];
	pid_t		 pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) == -1)
		log_fatal("cannot make a socket pair: %s", strerror(errno));
	if (fflush(stdout) == EOF || ferror(stdout))
		js.ops->out_failed(errno);
	if ((pid = fork()) == -1)
		log_fatal("cannot start a worker: %s", strerror(errno));
	if (pid == 0) {
		for (i = 0; i < js.nw; i++)
			if (js.w[i].sock != -1)
				close(js.w[i].sock);
		close(sv[0]);
		close_inherited();
		worker(sv[1]);
	}
	close(sv[1]);
	w = &js.w[js.nw++];
	w->pid = pid;
	w->sock = sv[0];
	w->busy = 0;
	w->first = 0;
	return (w);
}

/* End every worker: killed unheard (-q), or told there is no more. */
static void
end_workers(int kill_them)
{
	unsigned	i;
	int		st;

	for (i = 0; i < js.nw; i++) {
		if (js.w[i].sock == -1)
			continue;
		if (kill_them)
			(void)kill(js.w[i].pid, SIGKILL);
		js.w[i].busy = 0;
		close(js.w[i].sock);
		js.w[i].sock = -1;
		while (waitpid(js.w[i].pid, &st, 0) == -1 && errno == EINTR)
			continue;
	}
}

/* Wait until a busy worker sends its record or dies. */
static void
collect(void)
{
	struct pollfd	 pf[JOBS_MAX];
	unsigned	 wi[JOBS_MAX];
	struct worker	*w;
	struct job	*j;
	unsigned	 i, k;
	ssize_t		 r;
	int		 st;

	for (i = k = 0; i < js.nw; i++)
		if (js.w[i].sock != -1 && js.w[i].busy) {
			pf[k].fd = js.w[i].sock;
			pf[k].events = POLLIN;
			pf[k].revents = 0;
			wi[k++] = i;
		}
	if (k == 0)
		log_fatal("no worker left to wait for");
	while (poll(pf, k, -1) == -1)
		if (errno != EINTR)
			log_fatal("waiting for the workers: %s",
			    strerror(errno));
	for (i = 0; i < k; i++) {
		if (pf[i].revents == 0)
			continue;
		w = &js.w[wi[i]];
		j = job_at(w->job[w->first]);
		do
			r = recv(w->sock, &j->r, sizeof(j->r), 0);
		while (r == -1 && errno == EINTR);
		if (r == (ssize_t)sizeof(j->r)) {
			j->done = j->have = 1;
			w->first = (w->first + 1) % DEPTH;
			w->busy--;
			continue;
		}
		/* It died: its first job ends the run when its turn comes. */
		close(w->sock);
		w->sock = -1;
		while (waitpid(w->pid, &st, 0) == -1 && errno == EINTR)
			continue;
		for (; w->busy > 0; w->busy--) {
			j = job_at(w->job[w->first]);
			j->done = 1;
			j->status = st;
			w->first = (w->first + 1) % DEPTH;
		}
	}
}

/* -q found its leak: end the workers of the later inputs, unheard. */
static void
stop_rest(void)
{
	js.stop = 1;
	end_workers(1);
	while (js.n > 0)
		pop();
}

/* A worker that sent no record died: end as it did. */
static _Noreturn void
died(int status)
{
	int	sig;

	stop_rest();
	if (fflush(stdout) == EOF)
		js.ops->out_failed(errno);
	if (WIFSIGNALED(status)) {
		sig = WTERMSIG(status);
		(void)signal(sig, SIG_DFL);
		(void)raise(sig);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		exit(WEXITSTATUS(status));
	log_fatal("a worker ended without its results");
}

/* Write out the jobs at the head of the queue that are complete. */
static void
emit(void)
{
	struct job	*j;
	int		 stop, e;

	while (js.n > 0 && !js.stop) {
		j = job_at(js.head);
		if (j->w != -1 && !j->done)
			return;
		if (fflush(stdout) == EOF || ferror(stdout))
			js.ops->out_failed(errno);
		stop = 0;
		if (j->w == -1)
			js.ops->error(js.ops->arg, j->path, j->line, j->msg);
		else {
			/* Its output is cut short: say so, go no further. */
			if (j->have && j->r.tmp_errno != 0) {
				e = j->r.tmp_errno;
				stop_rest();
				log_fatal("cannot write a temporary file "
				    "in %s: %s", js.tmpdir, strerror(e));
			}
			if (j->out != -1)
				copy_out(j->out, STDOUT_FILENO, 1);
			if (j->err != -1)
				copy_out(j->err, STDERR_FILENO, 0);
			if (!j->have)
				died(j->status);
			js.ops->merge(js.ops->arg, &j->r);
			stop = j->r.stop;
		}
		pop();
		/* Nothing after it is kept: -j 1 never scanned it. */
		if (stop)
			stop_rest();
	}
}

/*
 * The worker to send the next input to: an idle one, a new one, or one
 * with room in its queue (so that it does not wait for the parent
 * between inputs); NULL when all are full.
 */
static struct worker *
idle_worker(void)
{
	struct worker	*best;
	unsigned	 i;

	best = NULL;
	for (i = 0; i < js.nw; i++)
		if (js.w[i].sock != -1 && (best == NULL ||
		    js.w[i].busy < best->busy))
			best = &js.w[i];
	if (best != NULL && best->busy == 0)
		return (best);
	if (js.nw < js.max)
		return (start_worker());
	if (best != NULL && best->busy < DEPTH)
		return (best);
	return (NULL);
}

/*
 * Hand the inputs fd[0..k) (names: their names, each ended by a NUL,
 * namelen bytes in all) to a worker as one job.  Non-zero: -q found
 * its leak, stop the walk.
 */
static int
send_job(const int *in, int k, const char *names, size_t namelen,
    int has_path, int is_stdin, uint32_t walked, int unit)
{
	union fdmsg	 cb;
	struct msghdr	 mh;
	struct iovec	 iov[2];
	struct cmsghdr	*c;
	struct jobmsg	 m;
	struct worker	*w;
	struct job	*j;
	int		 fds[BATCH_MAX + 2], out, err;
	ssize_t		 r;

	emit();
	/* Standard input given twice: the second read starts at its end. */
	while (!js.stop && is_stdin && js.in_stdin &&
	    js.stdin_job >= js.head && !job_at(js.stdin_job)->done) {
		collect();
		emit();
	}
	while (!js.stop && (js.n >= js.qcap || (w = idle_worker()) == NULL)) {
		collect();
		emit();
	}
	if (js.stop)
		return (1);
	memset(&m, 0, sizeof(m));
	m.is_stdin = is_stdin;
	m.has_path = has_path;
	m.walked = walked;
	m.unit = unit;
	m.ninputs = k;
	m.namelen = namelen;
	memcpy(fds, in, (size_t)k * sizeof(int));
	m.nfds = k;
	/* The oldest job in flight writes directly. */
	if (js.n > 0) {
		out = tmp_file();
		err = out == -1 || js.merged ? -1 : tmp_file();
		if (out == -1 || (err == -1 && !js.merged)) {
			/* Nowhere to keep it: wait for the others. */
			tmp_done(out);
			while (js.n > 0 && !js.stop) {
				collect();
				emit();
			}
			if (js.stop)
				return (1);
			w = idle_worker();
		} else {
			fds[m.nfds++] = out;
			if (err != -1)
				fds[m.nfds++] = err;
		}
	}
	j = job_at(js.head + js.n);
	memset(j, 0, sizeof(*j));
	j->out = m.nfds > k ? fds[k] : -1;
	j->err = m.nfds > k + 1 ? fds[k + 1] : -1;
	iov[0].iov_base = &m;
	iov[0].iov_len = sizeof(m);
	iov[1].iov_base = (void *)(uintptr_t)names;
	iov[1].iov_len = namelen;
	memset(&mh, 0, sizeof(mh));
	memset(&cb, 0, sizeof(cb));
	mh.msg_iov = iov;
	mh.msg_iovlen = 2;
	mh.msg_control = cb.b;
	mh.msg_controllen = CMSG_SPACE((size_t)m.nfds * sizeof(int));
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN((size_t)m.nfds * sizeof(int));
	memcpy(CMSG_DATA(c), fds, (size_t)m.nfds * sizeof(int));
	do
		r = sendmsg(w->sock, &mh, MSG_NOSIGNAL);
	while (r == -1 && errno == EINTR);
	if (r != (ssize_t)(sizeof(m) + namelen))
		log_fatal("cannot hand an input to a worker: %s",
		    r == -1 ? strerror(errno) : "short write");
	if (is_stdin) {
		js.in_stdin = 1;
		js.stdin_job = js.head + js.n;
	}
	j->w = (int)(w - js.w);
	w->job[(w->first + w->busy) % DEPTH] = js.head + js.n;
	w->busy++;
	js.n++;
	return (0);
}

/* Send the batch of small inputs waiting, if any.  Non-zero: -q. */
static int
flush_batch(void)
{
	uint32_t walked;
	int	fds[BATCH_MAX], stop;
	size_t	i, len, off;

	if (js.nbat == 0)
		return (js.stop);
	walked = 0;
	for (i = off = 0; i < js.nbat; i++) {
		fds[i] = js.bat[i].fd;
		if (js.bat[i].walked)
			walked |= (uint32_t)1 << i;
		len = strlen(js.bat[i].name) + 1;
		memcpy(js.names + off, js.bat[i].name, len);
		off += len;
	}
	stop = send_job(fds, (int)js.nbat, js.names, off, 1, 0, walked, 0);
	for (i = 0; i < js.nbat; i++) {
		close(js.bat[i].fd);
		free(js.bat[i].name);
	}
	js.nbat = 0;
	js.batlen = 0;
	js.batbytes = 0;
	return (stop);
}

/*
 * Scan one input in a worker; the caller closes fd.  path is name, or
 * NULL for stdin; walked: met in a directory walk, not named.  Non-zero:
 * -q found its leak, stop the walk.
 */
int
jobs_input(const char *name, const char *path, int fd, int is_stdin,
    int walked)
{
	struct stat	st;
	size_t		namelen;
	int		stop, d;

	namelen = strlen(name) + 1;
	if (namelen > MSG_MAX)
		log_fatal("an input name is too long for a worker");
	/* A small regular file joins the batch: a copy of its fd. */
	if (path != NULL && !is_stdin && fstat(fd, &st) == 0 &&
	    S_ISREG(st.st_mode) && st.st_size <= SMALL_MAX) {
		if (js.batlen + namelen > MSG_MAX &&
		    (stop = flush_batch()) != 0)
			return (stop);
		if ((d = fcntl(fd, F_DUPFD_CLOEXEC, 0)) != -1) {
			js.bat[js.nbat].fd = d;
			js.bat[js.nbat].walked = walked;
			js.bat[js.nbat].name = xstrdup(name);
			js.nbat++;
			js.batlen += namelen;
			js.batbytes += (uint64_t)st.st_size;
			if (js.nbat == js.batmax || js.batbytes >= BATCH_BYTES)
				return (flush_batch());
			return (js.stop);
		}
	}
	if ((stop = flush_batch()) != 0)
		return (stop);
	return (send_job(&fd, 1, name, namelen, path != NULL, is_stdin,
	    walked ? 1 : 0, 0));
}

/*
 * Scan one unit of an archive in a worker: fd holds its bytes and what
 * names it (members.c); the caller closes fd.  Non-zero: -q found its
 * leak, stop the input.
 */
int
jobs_unit(int fd)
{
	int	stop;

	if ((stop = flush_batch()) != 0)
		return (stop);
	/* What the caller printed itself (members.c) goes first. */
	if (fflush(stdout) == EOF || ferror(stdout))
		js.ops->out_failed(errno);
	return (send_job(&fd, 1, "", 1, 1, 0, 0, 1));
}

/*
 * Write out every input in flight, waiting for their workers, so that
 * the caller may write the next output itself.  Non-zero: -q.
 */
int
jobs_drain(void)
{
	(void)flush_batch();
	for (;;) {
		emit();
		if (js.n == 0 || js.stop)
			break;
		collect();
	}
	if (fflush(stdout) == EOF || ferror(stdout))
		js.ops->out_failed(errno);
	return (js.stop);
}

/*
 * Start every worker now, while the caller has no other thread: the
 * input layer's producer thread (members.c) must not be running when
 * one is forked (a lock it holds would stay held in the worker).
 */
void
jobs_start(void)
{
	while (js.nw < js.max)
		(void)start_worker();
}

/* Has -q found its leak (nothing more is scanned)? */
int
jobs_stopped(void)
{
	return (js.stop);
}

/* A walk error: reported in its place among the inputs. */
void
jobs_error(const char *path, uint64_t line, const char *msg)
{
	struct job	*j;

	(void)flush_batch();
	emit();
	if (js.stop)
		return;
	if (js.n == 0) {
		js.ops->error(js.ops->arg, path, line, msg);
		return;
	}
	while (!js.stop && js.n >= js.qcap) {
		collect();
		emit();
	}
	if (js.stop)
		return;
	j = job_at(js.head + js.n);
	memset(j, 0, sizeof(*j));
	j->w = -1;
	j->out = j->err = -1;
	j->path = xstrdup(path);
	j->line = line;
	j->msg = xstrdup(msg);
	js.n++;
}

/* Wait for every worker and write out what is left. */
void
jobs_finish(void)
{
	(void)flush_batch();
	for (;;) {
		emit();
		if (js.n == 0 || js.stop)
			break;
		collect();
	}
	end_workers(0);
	free(js.q);
	js.q = NULL;
	free(js.w);
	js.w = NULL;
	while (js.npool > 0)
		close(js.pool[--js.npool]);
	free(js.pool);
	js.pool = NULL;
	free(js.names);
	js.names = NULL;
}

/* Add the record r to *into: counters summed, flags kept. */
void
jobres_add(struct jobres *into, const struct jobres *r)
{
	struct totals		*d = &into->tot;
	const struct totals	*t = &r->tot;
	size_t			 i;

	d->inputs += t->inputs;
	d->skipped_binary += t->skipped_binary;
	d->errors += t->errors;
	d->bytes += t->bytes;
	d->lines += t->lines;
	d->findings += t->findings;
	d->boots += t->boots;
	d->unhashed += t->unhashed;
	for (i = 0; i < KL_REGION_COUNT; i++) {
		d->region[i] += t->region[i];
		d->disclosed[i] += t->disclosed[i];
	}
	for (i = 0; i < KL_SUP_COUNT; i++)
		d->suppressed[i] += t->suppressed[i];
	d->slides += t->slides;
	d->baselined += t->baselined;
	into->errors += r->errors;
	into->leaked |= r->leaked;
	into->stop |= r->stop;
}
