/*
 * rewrite.c - where --redact writes: standard output, -o FILE, or each
 * input file in place; and the --receipt.
 *
 * The rewriting itself is lib/redact.c: this file opens and commits the
 * destinations.  A file is never written where it will end up: the
 * output goes to a temporary file in the same directory, which is
 * flushed, fsync'ed and renamed over the destination only when the
 * whole input (for -o: every input) was read and written without an
 * error; otherwise it is removed and the destination is left as it was.
 * --in-place keeps the mode, the extended attributes (POSIX ACLs,
 * user.*, security.* labels; one that cannot be copied is an error and
 * the file stays as it was) and, when it can, the owner of the file,
 * and leaves a file in which nothing was rewritten untouched.  It
 * refuses a file with other hard links unless --break-links: renaming
 * would leave the old bytes under the other names.  A temporary file of
 * ours found beside a destination (a run killed before its rename) is
 * named in a warning: it may hold what was to be redacted.
 *
 * A native journal comes as the export stream of its entries; to a file
 * that stream is piped to systemd-journal-remote, whose new journal file
 * (in a directory beside the temporary file) takes the temporary file's
 * place before the commit.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleakscan.h"

/* The state of the rewriting run. */
struct rewrite {
	const struct cli	*cli;
	struct kl_redact	*r;
	FILE			*out;		/* the current destination */
	char			*tmp;		/* its temporary file or NULL */
	char			*dest;		/* where tmp goes when done */
	struct stat		 orig;		/* --in-place: the input's */
	int			 failed;	/* the destination is bad */
	uint64_t		 changed;	/* tokens rewritten into it */
	FILE			*receipt;
	struct buf		 esc;
	uint64_t		 kill_after;	/* test hook: SIGKILL after */
	uint64_t		 written;	/* ...this many bytes */
	const char		*kill_at;	/* test hook: "rename" (just
						   before it), "renamed" */
	int			(*target)(void *, const void *, size_t);
	void			*target_arg;	/* a member's writer */
	int			 repacking;	/* members may be rewritten */
	uint64_t		 count;		/* tokens rewritten, ever */
	int			 ninputs;	/* inputs begun */
	int			 sealed;	/* -o holds a native journal */
	char			*ndir;		/* journal-remote's directory */
	pid_t			 npid;		/* journal-remote */
	int			 nfd;		/* the pipe to it */
	struct sigaction	 opipe;		/* SIGPIPE's action before */
	uint64_t		*entries;	/* journal entry offsets not */
	size_t			 nentries;	/* ...written out yet */
	size_t			 centries;
	int			 ofd;		/* --in-place: the input */
	int			 werr;		/* errno of a failed write */
	int			 wany;		/* ...in any input */
	char			 wmsg[PATH_MAX * 2 + 64];
	char			*sdir;		/* the directory looked at */
	char			**stale;	/* ...our files found in it */
	size_t			 nstale;
	/* --redact-style=deslide */
	const struct input	*in;		/* of the waiting tokens */
	uint64_t		 b_deslid;	/* tokens of the boot: */
	uint64_t		 b_rest;	/* ...de-slid, and not */
	uint64_t		 b_early;	/* ...decided before its end */
	uint64_t		 b_slide;	/* its slide, written as 0 */
	struct dsboot		*ds;		/* the unit's boots, told at */
	size_t			 nds;		/* ...its end */
	size_t			 cds;
	uint64_t		 t_boots;	/* boots with such tokens */
	uint64_t		 t_known;	/* ...whose slide was known */
	uint64_t		 t_zero;	/* ...rescanned at slide 0 */
	uint64_t		 t_none;	/* ...with no evidence left */
	uint64_t		 t_unchecked;	/* ...not rescanned */
	uint64_t		 t_other;	/* ...at another: refused */
	uint64_t		 t_deslid;	/* tokens in all */
	uint64_t		 t_rest;
	size_t			 hold;		/* bytes held at most */
};

/* A boot of the unit, as rewritten with --redact-style=deslide. */
struct dsboot {
	struct bootrep		 rep;
	struct kl_redact_image	 img;
	uint64_t		 deslid;	/* tokens de-slid */
	uint64_t		 rest;		/* ...in the rest style */
	uint64_t		 slide;		/* ...its slide, as 0 */
	uint64_t		 early;		/* ...decided before its end */
};

static struct rewrite	rw;

static int	deslide_early(struct kl_error *);

/* Write bytes to the destination as they are. */
int
rewrite_out(const void *p, size_t n)
{
	if (rw.out == NULL)
		return (-1);
	if (fwrite(p, 1, n, rw.out) != n) {
		if (rw.werr == 0)
			rw.werr = errno != 0 ? errno : EIO;
		rw.wany = 1;
		/* Standard output: as for a scan (quiet on a closed pipe). */
		if (rw.out == stdout)
			out_check();
		return (-1);
	}
	/* Test hook: die here, in the middle of a rewrite. */
	if (rw.kill_after != 0 && (rw.written += n) >= rw.kill_after) {
		(void)fflush(rw.out);
		(void)raise(SIGKILL);
	}
	return (0);
}

/*
 * The redactor's output callback: the destination, or the writer of the
 * archive member being rewritten (repack.c).
 */
static int
rw_write(void *arg, const void *p, size_t n)
{
	(void)arg;
	if (rw.cli->ropt.deslide)
		deslide_feed(p, n);
	if (rw.target != NULL)
		return (rw.target(rw.target_arg, p, n));
	return (rewrite_out(p, n));
}

/* Send the rewritten bytes of units to fn(arg) instead; NULL: undo. */
void
rewrite_target(int (*fn)(void *, const void *, size_t), void *arg)
{
	rw.target = fn;
	rw.target_arg = arg;
}

/* An archive or a compressed file is being repacked (on), or not. */
void
rewrite_repack(int on)
{
	rw.repacking = on;
}

/*
 * What a failed write of the rewritten bytes could not write and why,
 * or NULL when none failed in this input.
 */
const char *
rewrite_werror(void)
{
	if (rw.werr == 0)
		return (NULL);
	if (rw.tmp != NULL)
		snprintf(rw.wmsg, sizeof(rw.wmsg), "cannot write %s (to "
		    "become %s): %s", rw.tmp, rw.dest, strerror(rw.werr));
	else
		snprintf(rw.wmsg, sizeof(rw.wmsg), "cannot write standard "
		    "output: %s", strerror(rw.werr));
	return (rw.wmsg);
}

/* Tokens rewritten so far in the whole run. */
uint64_t
rewrite_count(void)
{
	return (rw.count);
}

/* The directory part of path, as a new string ("." when none). */
static char *
dir_of(const char *path)
{
	const char	*s;
	char		*d;
	size_t		 n;

	if ((s = strrchr(path, '/')) == NULL)
		return (xstrdup("."));
	n = s == path ? 1 : (size_t)(s - path);
	d = xmalloc(n + 1);
	memcpy(d, path, n);
	d[n] = '\0';
	return (d);
}

/* Is name one of our temporary files (or journal directories)? */
static int
is_ours(const char *name)
{
	const char	*s;
	size_t		 n;

	if (name[0] != '.' || (s = strstr(name, ".kleakscan-")) == NULL ||
	    s == name)
		return (0);
	for (;;) {
		n = strlen(s + 11);
		if (n == 6 || (n == 8 && strcmp(s + 17, ".d") == 0))
			return (1);
		if ((s = strstr(s + 1, ".kleakscan-")) == NULL)
			return (0);
	}
}

/* Forget the temporary files found in the last directory looked at. */
static void
stale_free(void)
{
	size_t	i;

	for (i = 0; i < rw.nstale; i++)
		free(rw.stale[i]);
	free(rw.stale);
	free(rw.sdir);
	rw.stale = NULL;
	rw.sdir = NULL;
	rw.nstale = 0;
}

/*
 * Warn about temporary files an earlier run left beside dest (killed
 * before its rename: they may hold the unredacted log).  A directory is
 * read once for all the inputs in it, before any file of ours is made.
 */
static void
stale_check(const char *dest)
{
	struct dirent	*de;
	const char	*base;
	DIR		*d;
	char		*dir;
	size_t		 i, n;

	base = strrchr(dest, '/');
	base = base != NULL ? base + 1 : dest;
	dir = dir_of(dest);
	if (rw.sdir == NULL || strcmp(rw.sdir, dir) != 0) {
		stale_free();
		rw.sdir = dir;
		if ((d = opendir(dir)) != NULL) {
			while ((de = readdir(d)) != NULL) {
				if (!is_ours(de->d_name))
					continue;
				rw.stale = xreallocarray(rw.stale,
				    rw.nstale + 1, sizeof(*rw.stale));
				rw.stale[rw.nstale++] = xstrdup(de->d_name);
			}
			closedir(d);
		}
	} else
		free(dir);
	n = strlen(base);
	for (i = 0; i < rw.nstale; i++)
		if (strncmp(rw.stale[i] + 1, base, n) == 0 &&
		    strncmp(rw.stale[i] + 1 + n, ".kleakscan-", 11) == 0 &&
		    (strlen(rw.stale[i] + 1 + n) == 17 ||
		    strcmp(rw.stale[i] + 1 + n + 17, ".d") == 0))
			log_warnx("%s/%s: a temporary file left by an "
			    "interrupted run (it may hold the unredacted "
			    "log): remove it", rw.sdir, rw.stale[i]);
}

/*
 * Open a temporary file beside dest (same directory, so that rename(2)
 * is atomic) as the current destination.  Returns 0, or -1 with errno.
 */
static int
open_temp(const char *dest)
{
	const char	*base;
	char		*dir;
	size_t		 n;
	int		 fd, e;

	stale_check(dest);
	base = strrchr(dest, '/');
	base = base != NULL ? base + 1 : dest;
	dir = dir_of(dest);
	n = strlen(dir) + strlen(base) + 32;
	rw.tmp = xmalloc(n);
	snprintf(rw.tmp, n, "%s/.%s.kleakscan-XXXXXX", dir, base);
	free(dir);
	if ((fd = mkstemp(rw.tmp)) == -1)
		goto fail;
	if ((rw.out = fdopen(fd, "w")) == NULL) {
		e = errno;
		close(fd);
		unlink(rw.tmp);
		errno = e;
		goto fail;
	}
	rw.dest = xstrdup(dest);
	rw.failed = 0;
	rw.changed = 0;
	return (0);
fail:
	free(rw.tmp);
	rw.tmp = NULL;
	return (-1);
}

/* Drop the temporary file: the destination stays as it was. */
static void
drop_temp(void)
{
	if (rw.out != NULL && rw.out != stdout)
		fclose(rw.out);
	rw.out = NULL;
	if (rw.tmp != NULL)
		unlink(rw.tmp);
	free(rw.tmp);
	free(rw.dest);
	rw.tmp = rw.dest = NULL;
	if (rw.ofd != -1)
		close(rw.ofd);
	rw.ofd = -1;
}

/*
 * Give the file to the extended attributes of the file from (ACLs are
 * system.posix_acl_*): those it lacks are set, those from lacks are
 * removed.  Returns 0, or -1 with msg set.
 */
static int
copy_xattrs(int from, int to, char *msg, size_t msgsize)
{
	char	*list = NULL, *tlist = NULL, *val = NULL, *cur = NULL, *s;
	ssize_t	 n, tn, vn, cn;
	int	 rc = -1;

	/* The names: what from has, then what the new file was given. */
	if ((n = flistxattr(from, NULL, 0)) == -1) {
		if (errno == ENOTSUP)
			return (0);
		snprintf(msg, msgsize, "cannot list its extended attributes: "
		    "%s", strerror(errno));
		return (-1);
	}
	list = xmalloc((size_t)n + 1);
	if ((n = flistxattr(from, list, (size_t)n)) == -1) {
		snprintf(msg, msgsize, "cannot list its extended attributes: "
		    "%s", strerror(errno));
		goto out;
	}
	if ((tn = flistxattr(to, NULL, 0)) > 0) {
		tlist = xmalloc((size_t)tn + 1);
		if ((tn = flistxattr(to, tlist, (size_t)tn)) == -1)
			tn = 0;
	} else
		tn = 0;
	for (s = tlist; s != NULL && s < tlist + tn; s += strlen(s) + 1) {
		if (fgetxattr(from, s, NULL, 0) != -1 || errno != ENODATA)
			continue;
		/* A label the system gives every new file may stay. */
		if (fremovexattr(to, s) == -1 &&
		    strncmp(s, "security.", 9) != 0) {
			snprintf(msg, msgsize, "cannot remove the extended "
			    "attribute %s from %s: %s", s, rw.tmp,
			    strerror(errno));
			goto out;
		}
	}
	for (s = list; s < list + n; s += strlen(s) + 1) {
		if ((vn = fgetxattr(from, s, NULL, 0)) == -1)
			goto noget;
		val = xreallocarray(val, (size_t)vn + 1, 1);
		cur = xreallocarray(cur, (size_t)vn + 1, 1);
		if ((vn = fgetxattr(from, s, val, (size_t)vn)) == -1)
			goto noget;
		/* The same already (a label given to every new file). */
		cn = fgetxattr(to, s, cur, (size_t)vn + 1);
		if (cn == vn && memcmp(cur, val, (size_t)vn) == 0)
			continue;
		if (fsetxattr(to, s, val, (size_t)vn, 0) == -1) {
			snprintf(msg, msgsize, "cannot copy the extended "
			    "attribute %s to %s: %s", s, rw.tmp,
			    strerror(errno));
			goto out;
		}
	}
	rc = 0;
	goto out;
noget:
	snprintf(msg, msgsize, "cannot read its extended attribute %s: %s", s,
	    strerror(errno));
out:
	free(list);
	free(tlist);
	free(val);
	free(cur);
	return (rc);
}

/* fsync the directory holding path, so that a rename is durable. */
static void
sync_dir(const char *path)
{
	char	*dir;
	int	 fd;

	dir = dir_of(path);
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) != -1) {
		(void)fsync(fd);
		close(fd);
	}
	free(dir);
}

/*
 * Flush, fsync and rename the temporary file over its destination.
 * Returns 0, or -1 with a message in msg (the temporary file is gone).
 */
static int
commit_temp(int keep_meta, char *msg, size_t msgsize)
{
	int	fd, e;

	fd = fileno(rw.out);
	if (fflush(rw.out) == EOF || ferror(rw.out) || fsync(fd) == -1) {
		e = errno;
		snprintf(msg, msgsize, "cannot write %s: %s", rw.tmp,
		    strerror(e));
		goto fail;
	}
	if (keep_meta) {
		/*
		 * Only root may give a file away: a failure is no error.
		 * The owner first (a chown clears set-id bits), then the
		 * extended attributes (--in-place), then the mode.
		 */
		(void)fchown(fd, rw.orig.st_uid, rw.orig.st_gid);
		if (rw.ofd != -1 && copy_xattrs(rw.ofd, fd, msg, msgsize) == -1)
			goto fail;
		if (fchmod(fd, rw.orig.st_mode & 07777) == -1) {
			e = errno;
			snprintf(msg, msgsize, "cannot set the mode of %s: %s",
			    rw.tmp, strerror(e));
			goto fail;
		}
	}
	if (fclose(rw.out) == EOF) {
		rw.out = NULL;
		e = errno;
		snprintf(msg, msgsize, "cannot write %s: %s", rw.tmp,
		    strerror(e));
		goto fail;
	}
	rw.out = NULL;
	/* Test hook: die just before or just after the rename. */
	if (rw.kill_at != NULL && strcmp(rw.kill_at, "rename") == 0)
		(void)raise(SIGKILL);
	if (rename(rw.tmp, rw.dest) == -1) {
		e = errno;
		snprintf(msg, msgsize, "cannot rename %s to %s: %s", rw.tmp,
		    rw.dest, strerror(e));
		goto fail;
	}
	if (rw.kill_at != NULL && strcmp(rw.kill_at, "renamed") == 0)
		(void)raise(SIGKILL);
	sync_dir(rw.dest);
	free(rw.tmp);
	free(rw.dest);
	rw.tmp = rw.dest = NULL;
	if (rw.ofd != -1)
		close(rw.ofd);
	rw.ofd = -1;
	return (0);
fail:
	drop_temp();
	return (-1);
}

/* Set up the rewriter, -o's temporary file and the receipt. */
void
rewrite_init(const struct cli *cli)
{
	struct kl_redact_opts ro;
	struct kl_error	 err;
	const char	*s;
	int		 fd;

	memset(&rw, 0, sizeof(rw));
	rw.cli = cli;
	rw.ofd = -1;
	if ((s = getenv("KLEAKSCAN_TEST_KILL_AFTER")) != NULL)
		rw.kill_after = strtoull(s, NULL, 10);
	rw.kill_at = getenv("KLEAKSCAN_TEST_KILL_AT");
	memset(&err, 0, sizeof(err));
	/* Test hook: a deslide hold of this many bytes. */
	ro = cli->ropt;
	if (cli->ropt.deslide &&
	    (s = getenv("KLEAKSCAN_TEST_DESLIDE_HOLD")) != NULL)
		ro.max_hold = (size_t)strtoull(s, NULL, 10);
	rw.hold = ro.max_hold;
	if ((rw.r = kl_redact_new(&ro, rw_write, NULL, &err)) == NULL)
		log_fatal("cannot set up the rewriter: %s", err.msg);
	/* --follow appends to -o itself (follow.c). */
	if (cli->output != NULL && strcmp(cli->output, "-") != 0 &&
	    !cli->follow) {
		if (open_temp(cli->output) == -1)
			log_fatal("cannot create a file beside %s: %s",
			    cli->output, strerror(errno));
	} else if (cli->output_dir == NULL)
		rw.out = stdout;
	if (cli->ropt.deslide)
		deslide_init(cli);
	if (cli->receipt != NULL) {
		fd = open(cli->receipt, O_WRONLY | O_CREAT | O_TRUNC |
		    O_CLOEXEC, 0600);
		if (fd == -1 || fchmod(fd, 0600) == -1 ||
		    (rw.receipt = fdopen(fd, "w")) == NULL)
			log_fatal("cannot write the receipt %s: %s",
			    cli->receipt, strerror(errno));
	}
}

/* mkdir -p the directories of path (not its last part): 0, or -1. */
static int
make_dirs(const char *path)
{
	char	*p, *s;
	int	 rc = 0;

	p = xstrdup(path);
	for (s = strchr(p + 1, '/'); s != NULL && rc == 0;
	    s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(p, 0777) == -1 && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	free(p);
	return (rc);
}

/*
 * --output-dir: the file that input name is written to, DIR/name with
 * a leading / and ./ dropped; NULL (msg set) when name has a ".." part
 * and would end up outside DIR.
 */
static char *
dir_dest(const char *name, char *msg, size_t msgsize)
{
	const char	*s = name, *p;
	char		*d;
	size_t		 n;

	while (*s == '/' || (s[0] == '.' && s[1] == '/'))
		s += *s == '/' ? 1 : 2;
	for (p = s; *p != '\0'; p += strcspn(p, "/"), p += *p == '/')
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' ||
		    p[2] == '\0')) {
			snprintf(msg, msgsize, "a name with \"..\" cannot go "
			    "under --output-dir");
			return (NULL);
		}
	if (*s == '\0') {
		snprintf(msg, msgsize, "no file name to write under "
		    "--output-dir");
		return (NULL);
	}
	n = strlen(rw.cli->output_dir) + strlen(s) + 2;
	d = xmalloc(n);
	snprintf(d, n, "%s/%s", rw.cli->output_dir, s);
	return (d);
}

/* --output-dir: open the temporary file for input name (fd). */
static int
dir_begin(const char *name, int fd, char *msg, size_t msgsize)
{
	struct stat	 st;
	char		*dest;

	if ((dest = dir_dest(name, msg, msgsize)) == NULL)
		return (-1);
	if (fstat(fd, &rw.orig) == -1 || !S_ISREG(rw.orig.st_mode))
		rw.orig.st_mode = 0644;
	/* Never the input itself. */
	if (stat(dest, &st) == 0 && S_ISREG(rw.orig.st_mode) &&
	    st.st_dev == rw.orig.st_dev && st.st_ino == rw.orig.st_ino) {
		snprintf(msg, msgsize, "%s is the input itself", dest);
		free(dest);
		return (-1);
	}
	if (make_dirs(dest) == -1 || open_temp(dest) == -1) {
		snprintf(msg, msgsize, "cannot write %s: %s", dest,
		    strerror(errno));
		free(dest);
		return (-1);
	}
	free(dest);
	return (0);
}

/*
 * An input starts (path: its file, NULL for stdin; name: as shown).
 * For --in-place, open the temporary file beside it; for --output-dir,
 * the one in the directory.  Returns 0, or -1 with msg set.
 */
int
rewrite_input_begin(const char *path, const char *name, int fd, char *msg,
    size_t msgsize)
{
	char	*real;

	rw.ninputs++;
	rw.werr = 0;
	if (rw.sealed) {
		snprintf(msg, msgsize, "%s holds a native journal: nothing "
		    "more can go in it", rw.cli->output);
		return (-1);
	}
	if (rw.cli->output_dir != NULL)
		return (dir_begin(path != NULL ? path : name, fd, msg,
		    msgsize));
	if (!rw.cli->in_place)
		return (0);
	if (path == NULL) {
		snprintf(msg, msgsize, "--in-place cannot rewrite standard "
		    "input");
		return (-1);
	}
	if (fstat(fd, &rw.orig) == -1 || !S_ISREG(rw.orig.st_mode)) {
		snprintf(msg, msgsize, "--in-place rewrites regular files "
		    "only");
		return (-1);
	}
	/* Rewrite the file a symlink points to, not the link. */
	if ((real = realpath(path, NULL)) == NULL) {
		snprintf(msg, msgsize, "cannot resolve the path: %s",
		    strerror(errno));
		return (-1);
	}
	if (open_temp(real) == -1) {
		snprintf(msg, msgsize, "cannot create a file beside it: %s",
		    strerror(errno));
		free(real);
		return (-1);
	}
	free(real);
	/* Kept for its links and extended attributes at the commit. */
	if ((rw.ofd = fcntl(fd, F_DUPFD_CLOEXEC, 3)) == -1) {
		snprintf(msg, msgsize, "cannot keep it open: %s",
		    strerror(errno));
		drop_temp();
		return (-1);
	}
	return (0);
}

/* The input is done; ok: it was read and rewritten without an error. */
int
rewrite_input_end(int ok, char *msg, size_t msgsize)
{
	struct stat	st, now;

	if (rw.cli->output_dir != NULL && rw.tmp != NULL) {
		/* Every input has its copy, rewritten or not. */
		if (!ok || rw.failed) {
			drop_temp();
			return (0);
		}
		return (commit_temp(1, msg, msgsize));
	}
	if (!rw.cli->in_place || rw.tmp == NULL)
		return (0);
	/* Nothing rewritten: leave the file (and its times) alone. */
	if (!ok || rw.failed || rw.changed == 0) {
		drop_temp();
		return (0);
	}
	if (fstat(rw.ofd, &now) == -1 || stat(rw.dest, &st) == -1 ||
	    st.st_dev != now.st_dev || st.st_ino != now.st_ino) {
		snprintf(msg, msgsize, "not rewritten: it was replaced or "
		    "removed while it was read");
		drop_temp();
		return (-1);
	}
	/* Other names would keep every address that was redacted. */
	if (now.st_nlink > 1 && !rw.cli->break_links) {
		snprintf(msg, msgsize, "not rewritten: it has %ju hard links "
		    "and the other names would keep what was redacted "
		    "(--break-links rewrites this name alone)",
		    (uintmax_t)now.st_nlink);
		drop_temp();
		return (-1);
	}
	return (commit_temp(1, msg, msgsize));
}

/*
 * A unit starts.  Only a text unit can be rewritten: a plain file, or
 * a member of what repack.c is repacking.  Returns -1 with msg set for
 * others and journals.
 */
int
rewrite_unit_begin(const struct kl_unit *u, enum kl_unit_kind kind,
    char *msg, size_t msgsize)
{
	kl_redact_reset(rw.r);
	rw.in = NULL;
	rw.nds = 0;
	rw.b_deslid = rw.b_rest = rw.b_early = rw.b_slide = 0;
	/* Text units are rescanned as they are written (deslide.c). */
	if (rw.cli->ropt.deslide)
		deslide_begin(kind == KL_UNIT_TEXT);
	if (!rw.repacking && (u->nmembers > 0 || u->filter != NULL)) {
		snprintf(msg, msgsize, "cannot rewrite archives or compressed "
		    "files yet: nothing written for this input");
		return (-1);
	}
	rw.nentries = 0;
	if (kind == KL_UNIT_JOURNAL && u->nmembers == 0) {
		snprintf(msg, msgsize, "a native journal can only be "
		    "rewritten from a file: give its name");
		return (-1);
	}
	if (kind != KL_UNIT_TEXT && kind != KL_UNIT_EXPORT &&
	    kind != KL_UNIT_JSON) {
		snprintf(msg, msgsize, "cannot rewrite %s yet: nothing "
		    "written for this input", kind == KL_UNIT_BINARY ?
		    "binary files (give --format=text)" :
		    "native journals inside archives");
		return (-1);
	}
	return (0);
}

/*
 * A journal entry starts at unit offset off.  The entries before the
 * one holding the scanner's settled offset (the first token waiting for
 * the architecture) are written out; that entry is kept whole, since a
 * JSON value decoded from escapes is found again from its start.
 */
int
rewrite_settle_at(struct kl_scan *sc, uint64_t off, struct kl_error *err)
{
	uint64_t	s, upto;
	size_t		i, k;

	if (rw.nentries == rw.centries) {
		rw.centries = rw.centries == 0 ? 16 : rw.centries * 2;
		rw.entries = xreallocarray(rw.entries, rw.centries,
		    sizeof(*rw.entries));
	}
	rw.entries[rw.nentries++] = off;
	s = kl_scan_settled(sc);
	if (s > off)
		s = off;
	/* The last entry starting at or before s. */
	for (k = 0; k + 1 < rw.nentries && rw.entries[k + 1] <= s; k++)
		;
	upto = rw.entries[k];
	for (i = k; i < rw.nentries; i++)
		rw.entries[i - k] = rw.entries[i];
	rw.nentries -= k;
	if (kl_redact_settle(rw.r, upto, err) == -1)
		return (-1);
	if (kl_redact_full(rw.r) && (kl_scan_settle(sc) != 0 ||
	    deslide_early(err) == -1))
		return (-1);
	return (0);
}

/* Hold the next bytes of the unit (before the scanner sees them). */
int
rewrite_data(const void *p, size_t n, struct kl_error *err)
{
	return (kl_redact_data(rw.r, p, n, err));
}

/* Write out what the scanner has settled; make it settle if too much. */
int
rewrite_settle(struct kl_scan *sc, struct kl_error *err)
{
	if (kl_redact_settle(rw.r, kl_scan_settled(sc), err) == -1)
		return (-1);
	if (kl_redact_full(rw.r)) {
		if (kl_scan_settle(sc) != 0 || deslide_early(err) == -1)
			return (-1);
		if (kl_redact_settle(rw.r, kl_scan_settled(sc), err) == -1)
			return (-1);
	}
	return (0);
}

/* The word of a way of rewriting, for the receipt. */
static const char *
how_name(enum kl_redact_how how)
{
	switch (how) {
	case KL_REDACT_HOW_DESLIDE:
		return ("deslide");
	case KL_REDACT_HOW_HASH:
		return ("hash");
	default:
		return ("zero");
	}
}

/* Start a receipt line of input in: {("type":TYPE,)"path":..,"members":[..], */
static void
receipt_head(const struct input *in, const char *type)
{
	size_t	i;

	buf_reserve(&rw.esc, in->namelen * 6 + 1);
	kl_esc_json(rw.esc.p, rw.esc.size, (const uint8_t *)in->name,
	    in->namelen);
	fputc('{', rw.receipt);
	if (type != NULL)
		fprintf(rw.receipt, "\"type\":\"%s\",", type);
	fprintf(rw.receipt, "\"path\":\"%s\",\"members\":[", rw.esc.p);
	for (i = 0; i < in->nmembers; i++) {
		buf_reserve(&rw.esc, strlen(in->members[i]) * 6 + 1);
		kl_esc_json(rw.esc.p, rw.esc.size,
		    (const uint8_t *)in->members[i], strlen(in->members[i]));
		fprintf(rw.receipt, "%s\"%s\"", i > 0 ? "," : "", rw.esc.p);
	}
	fputs("],", rw.receipt);
}

/*
 * Record one rewritten token in the receipt (JSON Lines); offset: where
 * its bytes start in the unit (in a JSON byte array, its first number).
 * With --redact-style=deslide, its boot and how it was rewritten too.
 */
static void
receipt_token(const struct input *in, uint64_t line, uint64_t column,
    uint64_t offset, const uint8_t *text, size_t textlen, const char *region,
    unsigned boot, enum kl_redact_how how)
{
	if (rw.receipt == NULL)
		return;
	receipt_head(in, NULL);
	fprintf(rw.receipt, "\"line\":%" PRIu64 ",\"column\":%" PRIu64
	    ",\"offset\":%" PRIu64 ",\"original\":\"%.*s\",\"region\":\"%s\"",
	    line, column, offset, (int)textlen, (const char *)text, region);
	if (rw.cli->ropt.deslide)
		fprintf(rw.receipt, ",\"boot\":%u,\"rewritten\":\"%s\"", boot,
		    how_name(how));
	fputs("}\n", rw.receipt);
}

/* Record one token rewritten at once (finding f) in the receipt. */
static void
receipt_line(const struct input *in, const struct kl_finding *f,
    uint64_t offset)
{
	receipt_token(in, f->line, f->column, offset, f->text, f->textlen,
	    f->suppressed != KL_SUP_NONE ? kl_suppress_name(f->suppressed) :
	    kl_region_name(f->region), f->boot, kl_redact_how(rw.r, f, NULL));
}

/* A waiting token was rewritten (kl_redact_resolve()): count, record. */
static void
token_done(void *arg, const struct kl_redact_token *t)
{
	(void)arg;
	if (t->how == KL_REDACT_HOW_DESLIDE)
		rw.b_deslid++;
	else
		rw.b_rest++;
	rw.changed++;
	rw.count++;
	if (rw.in != NULL)
		receipt_token(rw.in, t->line, t->column, t->offset, t->text,
		    t->textlen, kl_region_name(t->region), t->boot, t->how);
}

/*
 * Too much is held while tokens wait for their boot's slide: decide
 * them with what the segment has told so far (its slide, or none).
 */
static int
deslide_early(struct kl_error *err)
{
	struct kl_redact_image	img;
	size_t			n = kl_redact_waiting(rw.r);

	if (n == 0)
		return (0);
	verdict_image(KL_ARCH_AUTO, &img);
	rw.b_early += n;
	return (kl_redact_resolve(rw.r, &img, token_done, NULL, err));
}

/* The kinds of evidence that give a slide, as the notes name them. */
static const enum kl_evidence_kind slide_kinds[] = {
	KL_EV_KERNEL_OFFSET, KL_EV_KASLR_OFF, KL_EV_KALLSYMS, KL_EV_FRAME,
	KL_EV_REGISTER, KL_EV_LAYOUT_DUMP, KL_EV_CAPTURE,
};

/*
 * The evidence of a boot's slide, in words, into buf: the first line of
 * each kind kept and how many more ("kallsyms line 357 and 9 more").
 */
static void
evidence_words(const struct bootrep *rep, char *buf, size_t size)
{
	const struct kl_boot_verdict	*v = &rep->v;
	size_t				 i, k, n, first, len = 0;

	buf[0] = '\0';
	for (k = 0; k < sizeof(slide_kinds) / sizeof(slide_kinds[0]); k++) {
		for (i = n = 0, first = SIZE_MAX; i < v->nev; i++)
			if (v->ev[i].kind == slide_kinds[k] &&
			    v->ev[i].region == KL_REGION_TEXT && n++ == 0)
				first = i;
		if (n == 0 || len >= size)
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
		    len > 0 ? ", " : "", kl_evidence_name(slide_kinds[k]));
		if (len < size && v->ev[first].line != 0)
			len += (size_t)snprintf(buf + len, size - len,
			    " line %" PRIu64, v->ev[first].line);
		if (len < size && n > 1)
			len += (size_t)snprintf(buf + len, size - len,
			    " and %zu more", n - 1);
	}
	if (len == 0)
		snprintf(buf, size, "%s", v->has_slide ? "no KASLR on this "
		    "architecture, with the map" : "none");
}

/*
 * A boot line in the receipt: its slide and evidence, what was done, and
 * what the rescan of the output found (c, or NULL when not rescanned).
 */
static void
receipt_boot(const struct input *in, const struct dsboot *d,
    const struct check_boot *c)
{
	const struct kl_boot_verdict	*v = &d->rep.v;
	size_t				 i;

	if (rw.receipt == NULL)
		return;
	receipt_head(in, "boot");
	fprintf(rw.receipt, "\"boot\":%u,\"first_line\":%" PRIu64
	    ",\"last_line\":%" PRIu64 ",\"slide\":", d->rep.b.boot,
	    d->rep.b.first_line, d->rep.b.last_line);
	if (d->img.known)
		fprintf(rw.receipt, "\"0x%" PRIx64 "\"", d->img.slide);
	else
		fputs("null", rw.receipt);
	fputs(",\"map\":", rw.receipt);
	if (d->rep.has_map) {
		buf_reserve(&rw.esc, strlen(d->rep.map) * 6 + 1);
		kl_esc_json(rw.esc.p, rw.esc.size,
		    (const uint8_t *)d->rep.map, strlen(d->rep.map));
		fprintf(rw.receipt, "\"%s\"", rw.esc.p);
	} else
		fputs("null", rw.receipt);
	fputs(",\"evidence\":[", rw.receipt);
	for (i = 0; i < v->nev; i++)
		fprintf(rw.receipt, "%s{\"kind\":\"%s\",\"line\":%" PRIu64
		    ",\"region\":\"%s\"}", i > 0 ? "," : "",
		    kl_evidence_name(v->ev[i].kind), v->ev[i].line,
		    kl_region_name(v->ev[i].region));
	fprintf(rw.receipt, "],\"deslid\":%" PRIu64 ",\"rest\":%" PRIu64
	    ",\"slide_tokens\":%" PRIu64 ",\"early\":%" PRIu64
	    ",\"rescan_slide\":", d->deslid, d->rest, d->slide, d->early);
	if (c == NULL)
		fputs("\"not rescanned\"", rw.receipt);
	else if (c->has_slide)
		fprintf(rw.receipt, "\"0x%" PRIx64 "\"", c->slide);
	else
		fputs("null", rw.receipt);
	fputs("}\n", rw.receipt);
}

/*
 * A boot segment ended (--redact-style=deslide): its waiting tokens are
 * written as its image says (img: the slide known, or not).  A boot that
 * had such tokens or stated its slide is kept, to be told once the unit
 * is written and rescanned (deslide_told()).
 */
int
rewrite_boot(const struct input *in, const struct bootrep *rep,
    const struct kl_redact_image *img, struct kl_error *err)
{
	struct dsboot	*d;
	int		 rc;

	rw.in = in;
	rc = kl_redact_resolve(rw.r, img, token_done, NULL, err);
	deslide_learn(img);
	if (rw.b_deslid + rw.b_rest + rw.b_slide > 0) {
		if (rw.nds == rw.cds) {
			rw.cds = rw.cds == 0 ? 4 : rw.cds * 2;
			rw.ds = xreallocarray(rw.ds, rw.cds, sizeof(*rw.ds));
		}
		d = &rw.ds[rw.nds++];
		d->rep = *rep;
		d->img = *img;
		d->deslid = rw.b_deslid;
		d->rest = rw.b_rest;
		d->slide = rw.b_slide;
		d->early = rw.b_early;
	}
	rw.b_deslid = rw.b_rest = rw.b_early = rw.b_slide = 0;
	return (rc);
}

/* What the rescan says of a boot, in words (c NULL: not rescanned). */
static const char *
rescan_words(const struct check_boot *c, char *buf, size_t size)
{
	if (c == NULL)
		return ("not rescanned (a journal stream)");
	if (!c->has_slide)
		return ("a rescan finds no slide evidence left");
	snprintf(buf, size, "a rescan finds slide %s (%u piece%s of "
	    "evidence)", c->slide == 0 ? "0" : "other than 0", c->votes,
	    c->votes == 1 ? "" : "s");
	return (buf);
}

/*
 * The unit is written: tell each of its boots kept by rewrite_boot(),
 * with what the rescan of the output found (deslide.c): a note and a
 * receipt line.  A boot of the output that tells a slide other than 0
 * fails the unit: 0, or -1 and err.
 */
static int
deslide_told(const struct input *in, struct kl_error *err)
{
	const struct check_boot	*cb, *c;
	const struct dsboot	*d;
	char			 ev[256], rs[96];
	const char		*rest;
	ssize_t			 nc;
	size_t			 i, j;
	int			 rc = 0;

	nc = deslide_end(&cb);
	rest = rw.cli->ropt.style == KL_REDACT_HASH ? "hashed" : "zeroed";
	for (j = 0; nc > 0 && j < (size_t)nc; j++)
		if (cb[j].has_slide && cb[j].slide != 0 && rc == 0) {
			kl_error_set(err, KL_EINVAL, 0, "boot %u of the "
			    "rewritten output still tells a KASLR slide (%u "
			    "piece%s of evidence): %s", cb[j].boot,
			    cb[j].votes, cb[j].votes == 1 ? "" : "s",
			    rw.tmp != NULL ? "not written" : "do not publish "
			    "what went to standard output");
			rc = -1;
		}
	for (i = 0; i < rw.nds && in != NULL; i++) {
		d = &rw.ds[i];
		for (j = 0, c = NULL; nc > 0 && j < (size_t)nc; j++)
			if (cb[j].boot == d->rep.b.boot)
				c = &cb[j];
		rw.t_boots++;
		rw.t_known += d->img.known;
		rw.t_deslid += d->deslid;
		rw.t_rest += d->rest;
		if (nc < 0)
			rw.t_unchecked++;
		else if (c != NULL && c->has_slide && c->slide == 0)
			rw.t_zero++;
		else if (c != NULL && c->has_slide)
			rw.t_other++;
		else
			rw.t_none++;
		receipt_boot(in, d, nc < 0 ? NULL : c);
		evidence_words(&d->rep, ev, sizeof(ev));
		if (d->img.known)
			log_note(in->disp, "boot %u (lines %" PRIu64 "-%"
			    PRIu64 "): de-slid (slide from %s%s%s): %" PRIu64
			    " image addresses at their System.map values, %"
			    PRIu64 " others %s%s; %s", d->rep.b.boot,
			    d->rep.b.first_line, d->rep.b.last_line, ev,
			    d->rep.has_map ? "; map " : "",
			    d->rep.has_map ? d->rep.map : "", d->deslid,
			    d->rest, rest, d->slide > 0 ? ", the slide it "
			    "states written as 0" : "", rescan_words(nc < 0 ?
			    NULL : c, rs, sizeof(rs)));
		else
			log_note(in->disp, "boot %u (lines %" PRIu64 "-%"
			    PRIu64 "): no slide known (%s): its %" PRIu64
			    " addresses %s; %s", d->rep.b.boot,
			    d->rep.b.first_line, d->rep.b.last_line,
			    d->rep.has_map ? "no evidence of it in the boot" :
			    "no map, and no Kernel Offset line", d->rest, rest,
			    rescan_words(nc < 0 ? NULL : c, rs, sizeof(rs)));
		if (d->early > 0)
			log_note(in->disp, "boot %u: %" PRIu64 " addresses "
			    "were decided before the boot ended (more than "
			    "%zu bytes held)", d->rep.b.boot, d->early,
			    rw.hold);
	}
	rw.nds = 0;
	return (rc);
}

/* A finding of the scanner: rewrite it if the level asks. */
int
rewrite_finding(const struct input *in, const struct kl_finding *f,
    struct kl_error *err)
{
	int	rc;

	rw.in = in;
	if ((rc = kl_redact_finding(rw.r, f, err)) == 1) {
		rw.changed++;
		rw.count++;
		receipt_line(in, f, kl_redact_where(rw.r));
		if (f->flags & KL_F_SLIDE)
			rw.b_slide++;
	}
	return (rc == -1 ? -1 : 0);
}

/*
 * A finding in a mail (f in decoded offsets, placed: the same finding
 * at its stored place): write each digit back in the encoding it is
 * stored in (mime.c), in place, so the mail keeps its size.
 */
int
rewrite_mail(const struct input *in, const struct kl_finding *f,
    const struct kl_finding *placed, const struct kl_mime *m,
    struct kl_error *err)
{
	struct kl_mime_pos	pos;
	struct kl_redact_image	img;
	enum kl_redact_how	how;
	uint8_t			d[64], *b;
	uint64_t		base;
	size_t			i, len;

	if (f->textlen > sizeof(d))
		goto fail;
	/* A mail's token cannot wait: decided with what is known now. */
	verdict_image(KL_ARCH_AUTO, &img);
	if (kl_redact_digits_as(rw.r, f, rw.cli->ropt.deslide ? &img : NULL,
	    d, &how) == 0)
		return (0);
	for (i = 0; i < f->textlen; i++) {
		if (kl_mime_place(m, f->offset + i, &pos) == -1 ||
		    (b = kl_redact_hold(rw.r, pos.offset, 1, &base,
		    &len)) == NULL ||
		    kl_mime_put(m, f->offset + i, d[i], b, base, len) == -1)
			goto fail;
	}
	kl_redact_count(rw.r, placed->offset);
	rw.changed++;
	rw.count++;
	receipt_token(in, placed->line, placed->column, placed->offset,
	    placed->text, placed->textlen, placed->suppressed != KL_SUP_NONE ?
	    kl_suppress_name(placed->suppressed) :
	    kl_region_name(placed->region), placed->boot, how);
	if (f->flags & KL_F_SLIDE)
		rw.b_slide++;
	else if (how == KL_REDACT_HOW_DESLIDE)
		rw.b_deslid++;
	else if (rw.cli->ropt.deslide)
		rw.b_rest++;
	return (0);
fail:
	kl_error_set(err, KL_EINVAL, 0, "token at byte %llu cannot be "
	    "rewritten in its mail encoding",
	    (unsigned long long)placed->offset);
	err->line = placed->line;
	return (-1);
}

/* Write out the stored bytes of a mail below off (mime.c settled them). */
int
rewrite_settle_to(uint64_t off, struct kl_error *err)
{
	return (kl_redact_settle(rw.r, off, err));
}

/* Does the rewriter hold more than it should (the scanner must settle)? */
int
rewrite_full(void)
{
	return (kl_redact_full(rw.r));
}

/*
 * The unit is complete: write out the rest.  With --redact-style=deslide,
 * tell its boots and what the rescan of the output found.
 */
int
rewrite_unit_end(struct kl_error *err)
{
	if (kl_redact_end(rw.r, err) == -1) {
		rw.failed = 1;
		(void)deslide_end(NULL);
		rw.nds = 0;
		return (-1);
	}
	if (rw.cli->ropt.deslide && deslide_told(rw.in, err) == -1) {
		rw.failed = 1;
		return (-1);
	}
	return (0);
}

/* An error on the current destination: it must not be committed. */
void
rewrite_fail(void)
{
	rw.failed = 1;
}

/*
 * --redact-style=deslide, the run is done (ok: without an error): what
 * was de-slid, what the rescans found, and so what the output tells.
 */
static void
deslide_summary(int ok)
{
	const char	*rest;
	char		 un[128];

	if (rw.t_boots == 0)
		return;
	rest = rw.cli->ropt.style == KL_REDACT_HASH ? "hashed" : "zeroed";
	un[0] = '\0';
	if (rw.t_unchecked > 0)
		snprintf(un, sizeof(un), "; %" PRIu64 " not rescanned "
		    "(journal streams)", rw.t_unchecked);
	if (rw.t_other > 0)
		snprintf(un + strlen(un), sizeof(un) - strlen(un), "; %"
		    PRIu64 " at another slide (refused)", rw.t_other);
	log_note(NULL, "deslide: %" PRIu64 " boot%s with kernel addresses: %"
	    PRIu64 " de-slid, %" PRIu64 " without a known slide; %" PRIu64
	    " addresses at their System.map values, %" PRIu64 " others %s; "
	    "a rescan of the output finds slide 0 in %" PRIu64 ", no slide "
	    "evidence in %" PRIu64 "%s", rw.t_boots,
	    rw.t_boots == 1 ? "" : "s", rw.t_known, rw.t_boots - rw.t_known,
	    rw.t_deslid, rw.t_rest, rest, rw.t_zero, rw.t_none, un);
	if (ok && rw.t_unchecked == 0 && rw.t_other == 0)
		log_note(NULL, "deslide verdict: the output discloses no KASLR "
		    "slide: its kernel image addresses are those of the "
		    "public System.map, the rest is %s", rest);
}

/*
 * The run is done; ok: no error anywhere.  Commit -o's file, close the
 * receipt.  Returns 0, or -1 after printing why.
 */
int
rewrite_finish(int ok)
{
	char	msg[PATH_MAX + 256];
	int	rc = 0;

	if (rw.cli->output != NULL && rw.tmp != NULL) {
		if (!ok || rw.failed) {
			drop_temp();
			/* A failed write of its own was said already. */
			if (!rw.wany)
				log_warnx("%s not written: an input had an "
				    "error", rw.cli->output);
			rc = -1;
		} else if (commit_temp(0, msg, sizeof(msg)) == -1) {
			log_error(NULL, 0, 0, "%s", msg);
			rc = -1;
		}
	}
	if (rw.receipt != NULL && (fclose(rw.receipt) == EOF)) {
		log_error(NULL, 0, 0, "cannot write the receipt %s: %s",
		    rw.cli->receipt, strerror(errno));
		rc = -1;
	}
	rw.receipt = NULL;
	if (rw.cli->ropt.deslide) {
		deslide_summary(ok && rc == 0);
		deslide_free();
		free(rw.ds);
		rw.ds = NULL;
	}
	stale_free();
	kl_redact_free(rw.r);
	rw.r = NULL;
	buf_free(&rw.esc);
	free(rw.entries);
	rw.entries = NULL;
	return (rc);
}

/*
 * systemd-journal-remote: $KLEAKSCAN_JOURNAL_REMOTE when set, else the
 * first of the systemd directories holding it; NULL when none does.
 */
static const char *
journal_remote(void)
{
	static const char *const paths[] = {
		"/lib/systemd/systemd-journal-remote",
		"/usr/lib/systemd/systemd-journal-remote",
	};
	const char	*s;
	size_t		 i;

	if ((s = getenv("KLEAKSCAN_JOURNAL_REMOTE")) != NULL && *s != '\0')
		return (access(s, X_OK) == 0 ? s : NULL);
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (access(paths[i], X_OK) == 0)
			return (paths[i]);
	return (NULL);
}

/* The rewriter's output for a native journal: journal-remote's pipe. */
static int
pipe_write(void *arg, const void *p, size_t n)
{
	const uint8_t	*b = p;
	ssize_t		 r;

	(void)arg;
	while (n > 0) {
		if ((r = write(rw.nfd, b, n)) == -1) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		b += r;
		n -= (size_t)r;
	}
	return (0);
}

/* A new string: dir/name. */
static char *
path_in(const char *dir, const char *name)
{
	char	*p;
	size_t	 n;

	n = strlen(dir) + strlen(name) + 2;
	p = xmalloc(n);
	snprintf(p, n, "%s/%s", dir, name);
	return (p);
}

/* Remove journal-remote's directory and what it left there. */
static void
native_cleanup(void)
{
	struct dirent	*de;
	DIR		*d;

	if (rw.ndir == NULL)
		return;
	if ((d = opendir(rw.ndir)) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (strcmp(de->d_name, ".") != 0 &&
			    strcmp(de->d_name, "..") != 0)
				(void)unlinkat(dirfd(d), de->d_name, 0);
		closedir(d);
	}
	(void)rmdir(rw.ndir);
	free(rw.ndir);
	rw.ndir = NULL;
}

/*
 * A native journal input starts; its entries come as an export stream.
 * To standard output that stream is written as it is; to a file (-o,
 * --in-place, --output-dir) it goes through systemd-journal-remote,
 * which writes a new journal file into a directory beside the temporary
 * file.  Returns 0, or -1 with msg set.
 */
int
rewrite_native_begin(char *msg, size_t msgsize)
{
	struct sigaction	 sa;
	const char		*jr;
	char			*out, *errp;
	int			 fds[2], fd;

	if (rw.tmp == NULL)
		return (0);
	if (rw.cli->output != NULL && (rw.ninputs > 1 ||
	    ftello(rw.out) != 0)) {
		snprintf(msg, msgsize, "a native journal can go to %s only as "
		    "its only input", rw.cli->output);
		return (-1);
	}
	if ((jr = journal_remote()) == NULL) {
		snprintf(msg, msgsize, "cannot write a native journal: "
		    "systemd-journal-remote not found in /lib/systemd or "
		    "/usr/lib/systemd");
		return (-1);
	}
	rw.ndir = xmalloc(strlen(rw.tmp) + 3);
	snprintf(rw.ndir, strlen(rw.tmp) + 3, "%s.d", rw.tmp);
	if (mkdir(rw.ndir, 0700) == -1) {
		snprintf(msg, msgsize, "cannot make %s: %s", rw.ndir,
		    strerror(errno));
		free(rw.ndir);
		rw.ndir = NULL;
		return (-1);
	}
	if (pipe(fds) == -1) {
		snprintf(msg, msgsize, "cannot make a pipe: %s",
		    strerror(errno));
		native_cleanup();
		return (-1);
	}
	out = path_in(rw.ndir, "out.journal");
	errp = path_in(rw.ndir, "messages");
	if ((rw.npid = fork()) == 0) {
		/* journal-remote's messages go to a file, read on failure. */
		fd = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (dup2(fds[0], STDIN_FILENO) == -1 || fd == -1 ||
		    dup2(fd, STDOUT_FILENO) == -1 ||
		    dup2(fd, STDERR_FILENO) == -1)
			_exit(126);
		close(fds[0]);
		close(fds[1]);
		execl(jr, "systemd-journal-remote", "-o", out, "-",
		    (char *)NULL);
		_exit(127);
	}
	free(out);
	free(errp);
	close(fds[0]);
	if (rw.npid == -1) {
		snprintf(msg, msgsize, "cannot start %s: %s", jr,
		    strerror(errno));
		close(fds[1]);
		native_cleanup();
		return (-1);
	}
	(void)fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	rw.nfd = fds[1];
	/* A journal-remote that dies is an error, not a signal. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGPIPE, &sa, &rw.opipe);
	rewrite_target(pipe_write, NULL);
	return (0);
}

/* The last line journal-remote wrote, made printable, in msg. */
static void
native_message(char *msg, size_t msgsize)
{
	char	 b[1024], *s, *e;
	ssize_t	 n;
	int	 fd;
	char	*p;

	msg[0] = '\0';
	p = path_in(rw.ndir, "messages");
	fd = open(p, O_RDONLY | O_CLOEXEC);
	free(p);
	if (fd == -1)
		return;
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	if (n <= 0)
		return;
	b[n] = '\0';
	while (n > 0 && (b[n - 1] == '\n' || b[n - 1] == '\r'))
		b[--n] = '\0';
	s = (e = strrchr(b, '\n')) != NULL ? e + 1 : b;
	for (e = s; *e != '\0'; e++)
		if ((unsigned char)*e < 0x20 || (unsigned char)*e >= 0x7f)
			*e = '?';
	snprintf(msg, msgsize, ": %.200s", s);
}

/*
 * The native journal input is done; ok: read and rewritten without an
 * error.  journal-remote's file, when it wrote one, takes the place of
 * the temporary file, which rewrite_input_end() (or rewrite_finish() for
 * -o) renames as usual.  Returns 0, or -1 with msg set.
 */
int
rewrite_native_end(int ok, char *msg, size_t msgsize)
{
	char	 why[300], *out;
	int	 st, fd, rc = 0;

	if (rw.ndir == NULL)
		return (0);
	rewrite_target(NULL, NULL);
	close(rw.nfd);
	while (waitpid(rw.npid, &st, 0) == -1 && errno == EINTR)
		;
	(void)sigaction(SIGPIPE, &rw.opipe, NULL);
	out = path_in(rw.ndir, "out.journal");
	msg[0] = '\0';
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		native_message(why, sizeof(why));
		snprintf(msg, msgsize, "systemd-journal-remote failed%s",
		    why);
		rc = -1;
	} else if (!ok || rw.failed)
		rc = -1;	/* said already */
	else {
		if ((fd = open(out, O_RDONLY | O_CLOEXEC)) == -1 ||
		    fsync(fd) == -1 || rename(out, rw.tmp) == -1) {
			snprintf(msg, msgsize, "cannot keep the journal "
			    "written to %s: %s", out, strerror(errno));
			rc = -1;
		}
		if (fd != -1)
			close(fd);
	}
	/* The destination is the journal now (its mode is set there). */
	if (rc == 0) {
		fclose(rw.out);
		if ((rw.out = fopen(rw.tmp, "r+")) == NULL) {
			snprintf(msg, msgsize, "cannot open %s: %s", rw.tmp,
			    strerror(errno));
			rc = -1;
		}
	}
	free(out);
	native_cleanup();
	if (rc == -1)
		rw.failed = 1;
	else if (rw.cli->output != NULL)
		rw.sealed = 1;
	return (rc);
}
