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
 * --in-place keeps the mode and, when it can, the owner of the file,
 * and leaves a file in which nothing was rewritten untouched.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/stat.h>

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
	char			*tmp;		/* its temporary file, or NULL */
	char			*dest;		/* where tmp goes when done */
	struct stat		 orig;		/* --in-place: the input's */
	int			 failed;	/* the destination is bad */
	uint64_t		 changed;	/* tokens rewritten into it */
	FILE			*receipt;
	struct buf		 esc;
	uint64_t		 kill_after;	/* test hook: SIGKILL after */
	uint64_t		 written;	/* ...this many bytes */
	int			(*target)(void *, const void *, size_t);
	void			*target_arg;	/* a member's writer */
	int			 repacking;	/* members may be rewritten */
	uint64_t		 count;		/* tokens rewritten, ever */
};

static struct rewrite	rw;

/* Write bytes to the destination as they are. */
int
rewrite_out(const void *p, size_t n)
{
	if (rw.out == NULL)
		return (-1);
	if (fwrite(p, 1, n, rw.out) != n)
		return (-1);
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
		if (fchmod(fd, rw.orig.st_mode & 07777) == -1) {
			e = errno;
			snprintf(msg, msgsize, "cannot set the mode of %s: %s",
			    rw.tmp, strerror(e));
			goto fail;
		}
		/* Only root may give a file away: a failure is no error. */
		(void)fchown(fd, rw.orig.st_uid, rw.orig.st_gid);
	}
	if (fclose(rw.out) == EOF) {
		rw.out = NULL;
		e = errno;
		snprintf(msg, msgsize, "cannot write %s: %s", rw.tmp,
		    strerror(e));
		goto fail;
	}
	rw.out = NULL;
	if (rename(rw.tmp, rw.dest) == -1) {
		e = errno;
		snprintf(msg, msgsize, "cannot rename %s to %s: %s", rw.tmp,
		    rw.dest, strerror(e));
		goto fail;
	}
	sync_dir(rw.dest);
	free(rw.tmp);
	free(rw.dest);
	rw.tmp = rw.dest = NULL;
	return (0);
fail:
	drop_temp();
	return (-1);
}

/* Set up the rewriter, -o's temporary file and the receipt. */
void
rewrite_init(const struct cli *cli)
{
	struct kl_error	 err;
	const char	*s;
	int		 fd;

	memset(&rw, 0, sizeof(rw));
	rw.cli = cli;
	if ((s = getenv("KLEAKSCAN_TEST_KILL_AFTER")) != NULL)
		rw.kill_after = strtoull(s, NULL, 10);
	memset(&err, 0, sizeof(err));
	if ((rw.r = kl_redact_new(&cli->ropt, rw_write, NULL, &err)) == NULL)
		log_fatal("cannot set up the rewriter: %s", err.msg);
	if (cli->output != NULL && strcmp(cli->output, "-") != 0) {
		if (open_temp(cli->output) == -1)
			log_fatal("cannot create a file beside %s: %s",
			    cli->output, strerror(errno));
	} else if (cli->output_dir == NULL)
		rw.out = stdout;
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
	return (0);
}

/* The input is done; ok: it was read and rewritten without an error. */
int
rewrite_input_end(int ok, char *msg, size_t msgsize)
{
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
	if (!rw.repacking && (u->nmembers > 0 || u->filter != NULL)) {
		snprintf(msg, msgsize, "cannot rewrite archives or compressed "
		    "files yet: nothing written for this input");
		return (-1);
	}
	if (kind != KL_UNIT_TEXT && kind != KL_UNIT_EXPORT) {
		snprintf(msg, msgsize, "cannot rewrite %s yet: nothing "
		    "written for this input", kind == KL_UNIT_BINARY ?
		    "binary files (give --format=text)" :
		    "journal JSON or native journals");
		return (-1);
	}
	return (0);
}

/*
 * A journal export entry starts at unit offset off: every finding
 * before it is in, so what lies before can be written out.
 */
int
rewrite_settle_at(uint64_t off, struct kl_error *err)
{
	return (kl_redact_settle(rw.r, off, err));
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
		if (kl_scan_settle(sc) != 0)
			return (-1);
		if (kl_redact_settle(rw.r, kl_scan_settled(sc), err) == -1)
			return (-1);
	}
	return (0);
}

/* Record one rewritten token in the receipt (JSON Lines). */
static void
receipt_line(const struct input *in, const struct kl_finding *f)
{
	size_t	i;

	if (rw.receipt == NULL)
		return;
	buf_reserve(&rw.esc, in->namelen * 6 + 1);
	kl_esc_json(rw.esc.p, rw.esc.size, (const uint8_t *)in->name,
	    in->namelen);
	fprintf(rw.receipt, "{\"path\":\"%s\",\"members\":[", rw.esc.p);
	for (i = 0; i < in->nmembers; i++) {
		buf_reserve(&rw.esc, strlen(in->members[i]) * 6 + 1);
		kl_esc_json(rw.esc.p, rw.esc.size,
		    (const uint8_t *)in->members[i], strlen(in->members[i]));
		fprintf(rw.receipt, "%s\"%s\"", i > 0 ? "," : "", rw.esc.p);
	}
	fprintf(rw.receipt, "],\"line\":%" PRIu64 ",\"column\":%" PRIu64
	    ",\"offset\":%" PRIu64 ",\"original\":\"%.*s\",\"region\":\"%s\""
	    "}\n", f->line, f->column, f->offset, (int)f->textlen,
	    (const char *)f->text, f->suppressed != KL_SUP_NONE ?
	    kl_suppress_name(f->suppressed) : kl_region_name(f->region));
}

/* A finding of the scanner: rewrite it if the level asks. */
int
rewrite_finding(const struct input *in, const struct kl_finding *f,
    struct kl_error *err)
{
	int	rc;

	/* A value decoded from JSON escapes has no place in the bytes. */
	if (f->record != NULL && !f->record->exact &&
	    kl_redact_wants(&rw.cli->ropt, f)) {
		kl_error_set(err, KL_EFORMAT, 0, "cannot rewrite a value "
		    "decoded from escapes (field %s)", f->record->field);
		return (-1);
	}
	if ((rc = kl_redact_finding(rw.r, f, err)) == 1) {
		rw.changed++;
		rw.count++;
		receipt_line(in, f);
	}
	return (rc == -1 ? -1 : 0);
}

/* The unit is complete: write out the rest. */
int
rewrite_unit_end(struct kl_error *err)
{
	if (kl_redact_end(rw.r, err) == -1) {
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
			log_warnx("%s not written: an input had an error",
			    rw.cli->output);
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
	kl_redact_free(rw.r);
	rw.r = NULL;
	buf_free(&rw.esc);
	return (rc);
}
