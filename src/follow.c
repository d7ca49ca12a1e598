/*
 * follow.c - --follow: a log that grows, scanned as it grows.
 *
 * The whole run is one unit, so the state of a boot segment (its
 * architecture, its slide) carries on from record to record.  Each batch
 * of records is scanned as soon as it is readable: the scanner scans the
 * lines it holds (kl_scan_drain()), tokens waiting for the architecture
 * are decided when the source pauses or after FOLLOW_SETTLE_MS of a
 * steady stream, the rewriter writes what is settled, and standard output
 * and -o are flushed.  In a text log a boot banner starts a new segment
 * (the lines before it belong to an earlier boot, even when no banner of
 * theirs was read).
 *
 * The sources:
 * - /dev/kmsg (or the same device on standard input): from now, or from
 *   the start of the ring with --from-start.  A read gives one record.
 *   Records the kernel overwrote before they were read (EPIPE, a gap in
 *   the sequence numbers) are an error saying how many.  It is this
 *   machine's log: without --arch its profile is this machine's.
 * - A file, as tail -F follows one: waited for while it is missing; read
 *   from its end (from its start with --from-start, and always when it
 *   appears later); after a rename (logrotate's create) the old file is
 *   read to its end and kept open while it still grows (a writer that has
 *   not reopened yet), the new one is read from its start; after a
 *   truncation (copytruncate) the bytes the rotated copy holds past what
 *   was read are read from the copy (found beside the file by the bytes
 *   just before them), then the file from its start.  inotify on the
 *   directory says when to look; without it, every FOLLOW_POLL_MS.
 * - Standard input: a pipe is read until it ends (journalctl -f -o export
 *   or -o json, dmesg -w, any text log); a regular file is followed as it
 *   grows.
 * Lines are handed on whole (a line a read cut waits for its end), so
 * lines of two files never mix.
 *
 * Signals (through a signalfd, so none is lost between two looks):
 * SIGHUP reopens -o (logrotate moved it); SIGTERM and SIGINT end the run
 * as the end of the input would, with status 0.  A write error on -o
 * ends it with status 2 and a message.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kleakscan.h"

#define FOLLOW_READ	 (64u << 10)	/* bytes a read (a kmsg record fits) */
#define FOLLOW_BURST	 (4u << 20)	/* bytes read before signals are seen */
#define FOLLOW_POLL_MS	 50		/* look without inotify, and at a
					   rotated file still open */
#define FOLLOW_LOOK_MS	 1000		/* look anyway, with inotify */
#define FOLLOW_SETTLE_MS 50		/* tokens wait this long at most */
#define FOLLOW_OLD_MS	 5000		/* a rotated file idle this long is
					   closed */
#define FOLLOW_LINE_MAX	 (1u << 20)	/* a line waits this long for its end */
#define FOLLOW_TAIL	 64		/* bytes that recognise a file */
#define KMSG_MAJOR	 1		/* /dev/kmsg is char 1:11 */
#define KMSG_MINOR	 11
#define KMSG_SKIP_MAX	 (1u << 20)	/* records read to reach the end */

/* What is followed. */
enum fkind {
	F_KMSG = 0,		/* /dev/kmsg */
	F_FILE,			/* a named file, across rotations */
	F_PIPE,			/* standard input, until its end */
	F_REG,			/* standard input, a regular file */
};

/* An open file of the source. */
struct ffile {
	int		 fd;		/* -1: none */
	dev_t		 dev;
	ino_t		 ino;
	uint64_t	 off;		/* bytes read from it */
	uint8_t		 tail[FOLLOW_TAIL];	/* the last bytes read */
	size_t		 ntail;
	struct buf	 part;		/* a line waiting for its end */
	int64_t		 grew;		/* ms when it last grew */
	off_t		 size;		/* its size and time when last */
	struct timespec	 mtime;		/* ...looked at */
};

static struct {
	struct run		*run;
	const struct cli	*cli;
	enum fkind		 kind;
	const char		*path;		/* the file, or NULL */
	const char		*name;		/* as shown */
	struct ffile		 cur;
	struct ffile		 old;		/* rotated, read as it grows */
	int			 from_end;	/* open the file at its end */
	int			 first;		/* the first look at the file */
	char			*dir;		/* the file's directory */
	char			*base;		/* ... and name in it */
	int			 ifd;		/* inotify, or -1 */
	int			 wd;		/* its watch, or -1 */
	int			 sfd;		/* the signalfd */
	int			 eof;		/* standard input ended */
	int			 stop;		/* the unit is done */
	struct kl_unit		 ku;
	int			 begun;
	uint8_t			*rbuf;
	int64_t			 settled;	/* ms of the last settle */
	uint64_t		 seq;		/* kmsg: the last record's */
	int			 have_seq;
	FILE			*out;		/* -o */
	const char		*outpath;
} fw;

/* Milliseconds of the monotonic clock. */
static int64_t
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* Is st /dev/kmsg (char 1:11)? */
static int
is_kmsg(const struct stat *st)
{
	return (S_ISCHR(st->st_mode) && major(st->st_rdev) == KMSG_MAJOR &&
	    minor(st->st_rdev) == KMSG_MINOR);
}

/* Does this machine run 5-level paging (the la57 CPU flag, x86)? */
static int
this_la57(void)
{
	char	 b[1 << 16];
	ssize_t	 n;
	int	 fd;

	if ((fd = open("/proc/cpuinfo", O_RDONLY | O_CLOEXEC)) == -1)
		return (0);
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	if (n <= 0)
		return (0);
	b[n] = '\0';
	return (strstr(b, " la57 ") != NULL || strstr(b, " la57\n") != NULL);
}

/*
 * --follow: what is followed, decided before the scanner is made: a
 * kernel log of this machine is scanned with this machine's profile.
 */
void
follow_prepare(struct cli *cli)
{
	struct utsname	un;
	struct stat	st;
	enum kl_arch_id	id;

	if (!cli->follow)
		return;
	fw.cli = cli;
	fw.ifd = fw.wd = fw.sfd = -1;
	fw.cur.fd = fw.old.fd = -1;
	if (cli->noperands == 0 || strcmp(cli->operands[0], "-") == 0) {
		fw.name = cli->label != NULL ? cli->label :
		    "(standard input)";
		fw.kind = F_PIPE;
		if (fstat(STDIN_FILENO, &st) == 0 && is_kmsg(&st))
			fw.kind = F_KMSG;
		else if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode))
			fw.kind = F_REG;
	} else {
		fw.path = fw.name = cli->operands[0];
		fw.kind = F_FILE;
		if (stat(fw.path, &st) == 0 && is_kmsg(&st))
			fw.kind = F_KMSG;
		else if (stat(fw.path, &st) == 0 && S_ISFIFO(st.st_mode))
			fw.kind = F_PIPE;	/* a named pipe: to its end */
	}
	if (fw.kind == F_KMSG && !cli->arch_set && uname(&un) == 0 &&
	    (id = facts_machine_arch(un.machine, this_la57())) !=
	    KL_ARCH_AUTO)
		cli->kl.arch = id;
}

/* The redactor's output with -o: the file, appended to. */
static int
out_write(void *arg, const void *p, size_t n)
{
	(void)arg;
	if (n > 0 && fwrite(p, 1, n, fw.out) != n)
		log_fatal("cannot write %s: %s", fw.outpath, strerror(errno));
	return (0);
}

/* Open -o for appending (again, after SIGHUP). */
static void
out_open(void)
{
	FILE	*f;
	int	 fd;

	fd = open(fw.outpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC |
	    O_NOCTTY, 0666);
	if (fd == -1 || (f = fdopen(fd, "a")) == NULL)
		log_fatal("cannot open %s: %s", fw.outpath, strerror(errno));
	if (fw.out != NULL && fclose(fw.out) == EOF)
		log_fatal("cannot write %s: %s", fw.outpath, strerror(errno));
	fw.out = f;
}

/* Flush standard output and -o: a write error ends the run (status 2). */
static void
flush_out(void)
{
	(void)fflush(stdout);
	out_check();	/* a closed pipe ends quietly, else status 2 */
	if (fw.out != NULL && (fflush(fw.out) == EOF || ferror(fw.out)))
		log_fatal("cannot write %s: %s", fw.outpath,
		    strerror(errno != 0 ? errno : EIO));
}

/* An error of the source before its unit began: exit status 2. */
static void
source_error(const char *msg)
{
	log_error(fw.name, strlen(fw.name), 0, "%s", msg);
}

/* Begin the unit; its kind is the first bytes' (or --format's). */
static int
unit_start(const uint8_t *p, size_t n)
{
	enum kl_unit_kind	k;

	k = fw.kind == F_KMSG ? KL_UNIT_TEXT : kl_input_sniff(p, n);
	if (k == KL_UNIT_BINARY)	/* named or piped: scanned as text */
		k = KL_UNIT_TEXT;
	if (k == KL_UNIT_JOURNAL && fw.cli->format == KL_FORMAT_AUTO) {
		source_error("a native journal file cannot be followed: "
		    "follow journalctl -f -o export instead");
		return (-1);
	}
	memset(&fw.ku, 0, sizeof(fw.ku));
	fw.ku.path = fw.name;
	fw.ku.kind = k;
	fw.run->is_stdin = fw.path == NULL;
	fw.run->native = NULL;
	if (on_begin(fw.run, &fw.ku) != 0)
		return (-1);
	fw.begun = 1;
	return (0);
}

/* Hand bytes to the unit; non-zero when it takes no more. */
static int
give(const uint8_t *p, size_t n)
{
	if (n == 0 || fw.stop)
		return (fw.stop);
	if (!fw.begun && unit_start(p, n) == -1) {
		fw.stop = 1;
		return (1);
	}
	if (on_data(fw.run, &fw.ku, p, n) != 0 || !fw.run->u.open)
		fw.stop = 1;
	return (fw.stop);
}

/* Is the line l[0..n) (its newline too) a boot banner? */
static int
is_banner(const uint8_t *l, size_t n)
{
	struct kl_frame	fr;

	if (n > 0 && l[n - 1] == '\n')
		n--;
	kl_frame_line(l, n, KL_LINE_PLAIN, fw.cli->kl.format, &fr);
	return (fr.boot);
}

/*
 * A boot banner comes next: the segment open ends before it, whether or
 * not it began with a banner of its own.
 */
static int
new_boot(void)
{
	struct run	*r = fw.run;
	struct kl_error	 err;
	int		 rc;

	if (!fw.begun || !r->u.open || r->u.dead || r->u.jr != NULL ||
	    r->u.mail != NULL || r->u.in.skipped)
		return (0);
	memset(&err, 0, sizeof(err));
	if ((rc = kl_scan_drain(r->scan, &err)) == 0)
		rc = kl_scan_new_boot(r->scan);
	if (rc == -1)
		unit_error(err.line, lib_msg(&err));
	if (rc != 0)
		fw.stop = 1;
	return (fw.stop);
}

/*
 * Whole lines p[0..n) to the unit: a text line that is a boot banner
 * after other lines starts a new boot segment first.
 */
static int
give_lines(const uint8_t *p, size_t n)
{
	static const char *const marks[] = { "Linux version ", "-- Boot " };
	const uint8_t	*next[2] = { NULL, NULL };	/* end: none left */
	const uint8_t	*ls, *le, *end = p + n;
	size_t		 i;

	if (fw.begun && fw.run->u.jr != NULL)
		return (give(p, n));
	while (p < end) {
		/* The first line at or after p holding a mark. */
		ls = end;
		for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
			if (next[i] == NULL || next[i] < p) {
				next[i] = memmem(p, (size_t)(end - p),
				    marks[i], strlen(marks[i]));
				if (next[i] == NULL)
					next[i] = end;
			}
			if (next[i] < ls)
				ls = next[i];
		}
		if (ls == end)
			return (give(p, (size_t)(end - p)));
		while (ls > p && ls[-1] != '\n')
			ls--;
		le = memchr(ls, '\n', (size_t)(end - ls));
		le = le != NULL ? le + 1 : end;
		if (!is_banner(ls, (size_t)(le - ls))) {
			if (give(p, (size_t)(le - p)) != 0)
				return (1);
		} else if (give(p, (size_t)(ls - p)) != 0 || new_boot() != 0 ||
		    give(ls, (size_t)(le - ls)) != 0)
			return (1);
		p = le;
	}
	return (0);
}

/* Remember the last bytes read from f (they recognise it later). */
static void
keep_tail(struct ffile *f, const uint8_t *p, size_t n)
{
	size_t	keep;

	if (n >= FOLLOW_TAIL) {
		memcpy(f->tail, p + n - FOLLOW_TAIL, FOLLOW_TAIL);
		f->ntail = FOLLOW_TAIL;
		return;
	}
	keep = f->ntail + n > FOLLOW_TAIL ? FOLLOW_TAIL - n : f->ntail;
	memmove(f->tail, f->tail + f->ntail - keep, keep);
	memcpy(f->tail + keep, p, n);
	f->ntail = keep + n;
}

/* Append p[0..n) to the line f holds. */
static void
part_add(struct ffile *f, const uint8_t *p, size_t n)
{
	buf_reserve(&f->part, f->part.len + n);
	memcpy(f->part.p + f->part.len, p, n);
	f->part.len += n;
}

/*
 * Bytes read from f: its whole lines go on, the rest waits for its end
 * (a line longer than FOLLOW_LINE_MAX goes on as it is).  The line held
 * is completed in its buffer, the others go on from p: the buffer holds
 * one line at most.
 */
static int
give_read(struct ffile *f, const uint8_t *p, size_t n)
{
	const uint8_t	*nl, *first;
	size_t		 k;

	nl = n > 0 ? memrchr(p, '\n', n) : NULL;
	if (nl == NULL) {
		part_add(f, p, n);
		if (f->part.len < FOLLOW_LINE_MAX)
			return (0);
		k = f->part.len;
		f->part.len = 0;
		return (give((const uint8_t *)f->part.p, k));
	}
	if (f->part.len > 0) {
		first = memchr(p, '\n', n);
		k = (size_t)(first - p) + 1;
		part_add(f, p, k);
		p += k;
		n -= k;
		k = f->part.len;
		f->part.len = 0;
		if (give_lines((const uint8_t *)f->part.p, k) != 0)
			return (1);
	}
	k = nl >= p ? (size_t)(nl - p) + 1 : 0;
	if (k > 0 && give_lines(p, k) != 0)
		return (1);
	if (n > k)
		part_add(f, p + k, n - k);
	return (0);
}

/* The line f holds without its end goes on as it is (f is done). */
static void
give_part(struct ffile *f, int newline)
{
	size_t	n = f->part.len;

	if (n == 0)
		return;
	f->part.len = 0;
	if (newline) {
		buf_reserve(&f->part, n + 1);
		f->part.p[n++] = '\n';
	}
	(void)give_lines((const uint8_t *)f->part.p, n);
}

/* Close a file of the source; its last line ends here. */
static void
file_close(struct ffile *f)
{
	if (f->fd == -1)
		return;
	give_part(f, 1);
	buf_free(&f->part);
	close(f->fd);
	f->fd = -1;
	f->off = 0;
	f->ntail = 0;
}

/*
 * Read f up to its end, or FOLLOW_BURST bytes.  Returns 1 when more may
 * be there, 0 at its end, -1 on a read error (said).
 */
static int
file_read(struct ffile *f)
{
	size_t	total = 0;
	ssize_t	r;

	while (!fw.stop) {
		r = read(f->fd, fw.rbuf, FOLLOW_READ);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1 && errno == EAGAIN)
			return (0);
		if (r == -1) {
			if (fw.begun)
				unit_error(0, strerror(errno));
			else
				source_error(strerror(errno));
			fw.stop = 1;
			return (-1);
		}
		if (r == 0)
			return (0);
		f->off += (uint64_t)r;
		f->grew = now_ms();
		keep_tail(f, fw.rbuf, (size_t)r);
		if (give_read(f, fw.rbuf, (size_t)r) != 0)
			return (0);
		if ((total += (size_t)r) >= FOLLOW_BURST)
			return (1);
	}
	return (0);
}

/* Do the bytes of fd just before off still read as f's tail? */
static int
tail_at(int fd, const struct ffile *f, uint64_t off)
{
	uint8_t	b[FOLLOW_TAIL];

	if (f->ntail == 0 || off < f->ntail)
		return (f->ntail == 0);
	return (pread(fd, b, f->ntail, (off_t)(off - f->ntail)) ==
	    (ssize_t)f->ntail && memcmp(b, f->tail, f->ntail) == 0);
}

/*
 * copytruncate: the file was cut after it was copied.  The copy beside
 * it (NAME.1, NAME-DATE: a name that starts with the file's) whose bytes
 * before the offset read so far are the ones read last holds what was
 * written before the cut and not read yet: read it from there.
 */
static void
rescue_copy(struct ffile *f)
{
	struct dirent	*de;
	struct stat	 st;
	struct ffile	 c;
	DIR		*d;
	size_t		 blen = strlen(fw.base);
	time_t		 best = 0;
	int		 fd, bfd = -1;

	if (f->off == 0 || f->ntail == 0 || (d = opendir(fw.dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, fw.base, blen) != 0 ||
		    de->d_name[blen] == '\0')
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_NOFOLLOW |
		    O_NONBLOCK | O_CLOEXEC);
		if (fd == -1)
			continue;
		if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
		    (uint64_t)st.st_size <= f->off ||
		    (st.st_dev == f->dev && st.st_ino == f->ino) ||
		    !tail_at(fd, f, f->off) || (bfd != -1 &&
		    st.st_mtime < best)) {
			close(fd);
			continue;
		}
		if (bfd != -1)
			close(bfd);
		bfd = fd;
		best = st.st_mtime;
	}
	closedir(d);
	if (bfd == -1)
		return;
	/* Read the copy from f's offset, its lines joining f's. */
	c = *f;
	c.fd = bfd;
	if (lseek(bfd, (off_t)f->off, SEEK_SET) != -1)
		while (file_read(&c) == 1)
			;
	close(bfd);
	f->part = c.part;
}

/* The file was cut (or cut and written again): read it from its start. */
static void
file_cut(struct ffile *f)
{
	rescue_copy(f);
	give_part(f, 1);
	f->off = 0;
	f->ntail = 0;
	(void)lseek(f->fd, 0, SEEK_SET);
}

/* Open the file; from its end the first time, unless --from-start. */
static void
file_open(void)
{
	struct stat	st;
	int		fd;

	fd = open(fw.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd == -1) {
		if (errno != ENOENT && errno != ENOTDIR) {
			source_error(strerror(errno));
			fw.stop = 1;
		} else if (fw.first)
			log_note(NULL, "%s: not there yet: waiting for it",
			    fw.path);
		return;
	}
	if (fstat(fd, &st) == -1 || S_ISDIR(st.st_mode)) {
		source_error(S_ISDIR(st.st_mode) ? "is a directory: "
		    "--follow takes a file" : strerror(errno));
		close(fd);
		fw.stop = 1;
		return;
	}
	fw.cur.fd = fd;
	fw.cur.dev = st.st_dev;
	fw.cur.ino = st.st_ino;
	fw.cur.off = 0;
	fw.cur.ntail = 0;
	fw.cur.grew = now_ms();
	if (fw.from_end && S_ISREG(st.st_mode) && st.st_size > 0) {
		fw.cur.off = (uint64_t)st.st_size;
		fw.cur.ntail = st.st_size < FOLLOW_TAIL ? (size_t)st.st_size :
		    FOLLOW_TAIL;
		if (pread(fd, fw.cur.tail, fw.cur.ntail, st.st_size -
		    (off_t)fw.cur.ntail) != (ssize_t)fw.cur.ntail)
			fw.cur.ntail = 0;
		(void)lseek(fd, st.st_size, SEEK_SET);
	}
}

/* Look at the file's name: renamed, removed, cut, or there at last. */
static void
file_look(void)
{
	struct stat	st, fs;
	int		named;

	named = stat(fw.path, &st) == 0;
	if (fw.cur.fd != -1) {
		if (!named || st.st_dev != fw.cur.dev ||
		    st.st_ino != fw.cur.ino) {
			/* Rotated: the old file to its end, kept open. */
			while (file_read(&fw.cur) == 1)
				;
			file_close(&fw.old);
			fw.old = fw.cur;
			fw.old.grew = now_ms();	/* idle from now on */
			memset(&fw.cur.part, 0, sizeof(fw.cur.part));
			fw.cur.fd = -1;
		} else if (fstat(fw.cur.fd, &fs) == 0 && S_ISREG(fs.st_mode) &&
		    (fs.st_size != fw.cur.size ||
		    fs.st_mtim.tv_sec != fw.cur.mtime.tv_sec ||
		    fs.st_mtim.tv_nsec != fw.cur.mtime.tv_nsec)) {
			/* Changed: cut, or cut and written again? */
			fw.cur.size = fs.st_size;
			fw.cur.mtime = fs.st_mtim;
			if ((uint64_t)fs.st_size < fw.cur.off ||
			    !tail_at(fw.cur.fd, &fw.cur, fw.cur.off))
				file_cut(&fw.cur);
		}
	}
	if (fw.cur.fd == -1 && named && !fw.stop)
		file_open();
}

/* Watch the file's directory (again, once it is there). */
static void
watch(void)
{
	if (fw.ifd == -1 || fw.wd != -1)
		return;
	fw.wd = inotify_add_watch(fw.ifd, fw.dir, IN_MODIFY | IN_ATTRIB |
	    IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM |
	    IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF);
}

/* Read what inotify says: any event is a reason to look. */
static void
watch_events(void)
{
	char				 b[4096]
	    __attribute__((aligned(__alignof__(struct inotify_event))));
	const struct inotify_event	*ev;
	ssize_t				 n;
	char				*p;

	if (fw.ifd == -1)
		return;
	while ((n = read(fw.ifd, b, sizeof(b))) > 0)
		for (p = b; p < b + n; p += sizeof(*ev) + ev->len) {
			ev = (const struct inotify_event *)p;
			if (ev->mask & (IN_IGNORED | IN_DELETE_SELF |
			    IN_MOVE_SELF)) {
				if (fw.wd != -1)
					(void)inotify_rm_watch(fw.ifd, fw.wd);
				fw.wd = -1;
			}
		}
}

/* Parse the sequence number of a kmsg record ("prio,seq,..."). */
static int
kmsg_seq(const uint8_t *p, size_t n, uint64_t *seq)
{
	size_t	i = 0;

	while (i < n && p[i] >= '0' && p[i] <= '9')
		i++;
	if (i == 0 || i >= n || p[i++] != ',')
		return (-1);
	*seq = 0;
	for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
		if (*seq > (UINT64_MAX - 9) / 10)
			return (-1);
		*seq = *seq * 10 + (uint64_t)(p[i] - '0');
	}
	return (i < n && p[i] == ',' ? 0 : -1);
}

/*
 * Read the records /dev/kmsg holds now (up to a burst).  Returns 1 when
 * more may be there.  Overwritten records are an error on the unit.
 */
static int
kmsg_read(void)
{
	char	 msg[128];
	size_t	 total = 0;
	ssize_t	 r;
	uint64_t seq;

	while (!fw.stop) {
		r = read(fw.cur.fd, fw.rbuf, FOLLOW_READ);
		/* EPIPE: records lost; the next one says how many. */
		if (r == -1 && (errno == EINTR || errno == EPIPE))
			continue;
		if (r == -1 && errno == EAGAIN)
			return (0);
		if (r <= 0) {
			if (r == -1)
				source_error(strerror(errno));
			fw.stop = 1;
			return (0);
		}
		if (kmsg_seq(fw.rbuf, (size_t)r, &seq) == 0) {
			if (fw.have_seq && seq > fw.seq + 1 &&
			    (fw.begun || unit_start(fw.rbuf, 0) == 0)) {
				snprintf(msg, sizeof(msg), "%llu records were "
				    "overwritten in the kernel's ring buffer "
				    "before they were read",
				    (unsigned long long)(seq - fw.seq - 1));
				unit_error(0, msg);
			}
			fw.seq = seq;
			fw.have_seq = 1;
		}
		if (give_read(&fw.cur, fw.rbuf, (size_t)r) != 0)
			return (0);
		if ((total += (size_t)r) >= FOLLOW_BURST)
			return (1);
	}
	return (0);
}

/*
 * From now: read /dev/kmsg to the end of its ring, keeping the last
 * sequence number, from which records lost later are counted (lseek's
 * SEEK_END would not say it).  A ring that does not end in
 * KMSG_SKIP_MAX reads is left at its end.
 */
static void
kmsg_skip(int fd)
{
	uint64_t	seq;
	ssize_t		r;
	size_t		n;

	for (n = 0; n < KMSG_SKIP_MAX; n++) {
		r = read(fd, fw.rbuf, FOLLOW_READ);
		if (r == -1 && (errno == EINTR || errno == EPIPE))
			continue;
		if (r <= 0)
			return;
		if (kmsg_seq(fw.rbuf, (size_t)r, &seq) == 0) {
			fw.seq = seq;
			fw.have_seq = 1;
		}
	}
	(void)lseek(fd, 0, SEEK_END);
	fw.have_seq = 0;
}

/* Is fd readable now? */
static int
readable(int fd)
{
	struct pollfd	p;

	p.fd = fd;
	p.events = POLLIN;
	p.revents = 0;
	return (poll(&p, 1, 0) > 0);
}

/* Read standard input, a pipe, while it has bytes (up to a burst). */
static int
pipe_read(void)
{
	size_t	total = 0;
	ssize_t	r;

	while (!fw.stop && readable(fw.cur.fd)) {
		r = read(fw.cur.fd, fw.rbuf, FOLLOW_READ);
		if (r == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0) {
			if (r == -1)
				source_error(strerror(errno));
			fw.eof = 1;
			return (0);
		}
		if (give_read(&fw.cur, fw.rbuf, (size_t)r) != 0)
			return (0);
		if ((total += (size_t)r) >= FOLLOW_BURST)
			return (1);
	}
	return (0);
}

/* Read what the source has now.  Returns 1 when more may be there. */
static int
pump(void)
{
	int	more = 0;

	switch (fw.kind) {
	case F_KMSG:
		return (kmsg_read());
	case F_PIPE:
		return (pipe_read());
	case F_REG:
		return (file_read(&fw.cur) == 1);
	case F_FILE:
		if (fw.old.fd != -1) {
			more = file_read(&fw.old) == 1;
			if (now_ms() - fw.old.grew >= FOLLOW_OLD_MS)
				file_close(&fw.old);
		}
		file_look();
		if (fw.cur.fd != -1 && file_read(&fw.cur) == 1)
			more = 1;
		return (more);
	}
	return (0);
}

/*
 * After a batch: the scanner scans the lines it holds; waiting tokens are
 * decided when the source paused (idle) or FOLLOW_SETTLE_MS after the
 * last time; the rewriter writes what is settled; the output is flushed.
 */
static void
settle(int idle)
{
	struct run	*r = fw.run;
	struct unit	*u = &r->u;
	struct kl_error	 err;
	int64_t		 now = now_ms();
	int		 rc = 0;

	if (fw.begun && u->open && !u->dead && !u->in.skipped &&
	    r->stop == STOP_NONE) {
		memset(&err, 0, sizeof(err));
		if (u->jr == NULL && u->mail == NULL)
			rc = kl_scan_drain(r->scan, &err);
		if (rc == 0 && (idle || now - fw.settled >= FOLLOW_SETTLE_MS)) {
			rc = kl_scan_settle(r->scan);
			fw.settled = now;
		}
		if (rc == 0 && fw.cli->redact)
			rc = u->jr != NULL ? rewrite_settle_to(
			    kl_journal_settled(u->jr), &err) :
			    rewrite_settle(r->scan, &err);
		if (rc == -1) {
			unit_error(err.line, lib_msg(&err));
			if (fw.cli->redact)
				rewrite_fail();
			u->dead = 1;
		}
		if (rc != 0)
			fw.stop = 1;
	}
	flush_out();
}

/*
 * Read the signals that came: SIGHUP reopens -o; SIGTERM and SIGINT end
 * the run (returns 1).
 */
static int
signals(void)
{
	struct signalfd_siginfo	si;
	int			end = 0;

	while (read(fw.sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGHUP) {
			settle(1);
			if (fw.out != NULL)
				out_open();
		} else
			end = 1;
	}
	return (end);
}

/* Wait until the source may have more, a signal came, or ms passed. */
static void
wait_more(void)
{
	struct pollfd	p[3];
	nfds_t		n = 0;
	int		ms = -1;

	p[n].fd = fw.sfd;
	p[n++].events = POLLIN;
	if (fw.kind == F_KMSG || fw.kind == F_PIPE) {
		p[n].fd = fw.cur.fd;
		p[n++].events = POLLIN;
	} else if (fw.kind == F_FILE && fw.ifd != -1 && fw.wd != -1) {
		p[n].fd = fw.ifd;
		p[n++].events = POLLIN;
		ms = fw.old.fd != -1 ? FOLLOW_POLL_MS : FOLLOW_LOOK_MS;
	} else
		ms = FOLLOW_POLL_MS;
	while (poll(p, n, ms) == -1 && errno == EINTR)
		;
	watch_events();
}

/* Split the file's path into its directory and its name in it. */
static void
split_path(void)
{
	const char	*s;

	if ((s = strrchr(fw.path, '/')) == NULL) {
		fw.dir = xstrdup(".");
		fw.base = xstrdup(fw.path);
		return;
	}
	fw.dir = xmalloc((size_t)(s - fw.path) + 2);
	memcpy(fw.dir, fw.path, (size_t)(s - fw.path));
	fw.dir[s == fw.path ? 1 : s - fw.path] = '\0';
	if (s == fw.path)
		fw.dir[0] = '/';
	fw.base = xstrdup(s + 1);
}

/* Open the source: 0, or -1 when it cannot be followed (said). */
static int
source_open(void)
{
	int	fd;

	fw.rbuf = xmalloc(FOLLOW_READ);
	switch (fw.kind) {
	case F_KMSG:
		if (fw.path == NULL)
			fd = STDIN_FILENO;
		else if ((fd = open(fw.path, O_RDONLY | O_NONBLOCK |
		    O_CLOEXEC)) == -1) {
			source_error(strerror(errno));
			return (-1);
		}
		(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		fw.cur.fd = fd;
		/* From the ring's first record, or from now. */
		if (fw.cli->from_start && lseek(fd, 0, SEEK_SET) == -1) {
			source_error(strerror(errno));
			return (-1);
		}
		if (!fw.cli->from_start)
			kmsg_skip(fd);
		return (0);
	case F_PIPE:
		if (fw.path != NULL && (fw.cur.fd = open(fw.path, O_RDONLY |
		    O_CLOEXEC)) == -1) {
			source_error(strerror(errno));
			return (-1);
		}
		if (fw.path == NULL)
			fw.cur.fd = STDIN_FILENO;
		return (0);
	case F_REG:
		fw.cur.fd = STDIN_FILENO;
		if (!fw.cli->from_start)
			(void)lseek(STDIN_FILENO, 0, SEEK_END);
		return (0);
	case F_FILE:
		split_path();
		if (getenv("KLEAKSCAN_NO_INOTIFY") == NULL)
			fw.ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
		watch();
		/* What is there now is not read; a file made later is. */
		fw.from_end = !fw.cli->from_start;
		fw.first = 1;
		file_open();
		fw.from_end = fw.first = 0;
		return (fw.stop ? -1 : 0);
	}
	return (-1);
}

/* Block the signals the run reads from its signalfd. */
static void
signals_open(void)
{
	sigset_t	set;

	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, NULL) == -1 ||
	    (fw.sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC)) == -1)
		log_fatal("cannot set up the signals: %s", strerror(errno));
}

/*
 * --follow: read the source as it grows until its end (standard input),
 * a signal, -q's first leak, or an error that ends the unit; then finish
 * the unit as the end of an input does.  run.c prints the summary.
 */
void
follow_run(struct run *r)
{
	struct stat	so, si;
	int		more;

	fw.run = r;
	if (fw.cli->redact && fw.cli->output != NULL &&
	    strcmp(fw.cli->output, "-") != 0) {
		fw.outpath = fw.cli->output;
		out_open();
		rewrite_target(out_write, NULL);
	}
	if (source_open() == -1)
		fw.stop = 1;
	else if (fw.out != NULL && fw.cur.fd != -1 &&
	    fstat(fileno(fw.out), &so) == 0 && fstat(fw.cur.fd, &si) == 0 &&
	    so.st_dev == si.st_dev && so.st_ino == si.st_ino) {
		source_error("-o is the input itself: it would read what it "
		    "writes");
		fw.stop = 1;
	}
	/* After the source is open: a named pipe waits for its writer. */
	signals_open();
	fw.settled = now_ms();
	while (!fw.stop && !fw.eof) {
		if (signals()) {
			r->signalled = 1;
			break;
		}
		more = pump();
		settle(!more);
		if (more || fw.stop || fw.eof)
			continue;
		watch();
		wait_more();
	}
	/* What the files hold without an end of line goes on as it is. */
	give_part(&fw.old, 0);
	give_part(&fw.cur, 0);
	file_close(&fw.old);
	if (fw.begun)
		unit_finish(NULL);
	flush_out();
	if (fw.out != NULL && fclose(fw.out) == EOF)
		log_fatal("cannot write %s: %s", fw.outpath, strerror(errno));
	fw.out = NULL;
	rewrite_target(NULL, NULL);
	if (fw.cur.fd > STDIN_FILENO)
		close(fw.cur.fd);
	if (fw.ifd != -1)
		close(fw.ifd);
	buf_free(&fw.cur.part);
	buf_free(&fw.old.part);
	free(fw.rbuf);
	free(fw.dir);
	free(fw.base);
}
