/*
 * walk.c - turn operands and --files-from lists into open inputs.
 *
 * An operand is opened (symlinks followed); a directory is walked with
 * fts(3) in byte order of names, without following symlinks, so loops
 * cannot happen; only regular files inside a walk are inputs.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleakscan.h"

/* Order directory entries by the bytes of their names. */
static int
walk_cmp(const FTSENT **a, const FTSENT **b)
{
	return (strcmp((*a)->fts_name, (*b)->fts_name));
}

/* Report errno for path through the callbacks. */
static void
walk_errno(const struct walk_cb *cb, const char *path, int errnum)
{
	cb->error(cb->arg, path, 0, strerror(errnum));
}

/* Open one regular file met inside a walk; non-zero stops the walk. */
static int
walk_file(const struct walk_cb *cb, const char *path)
{
	struct stat	st;
	int		fd;

	fd = open(path, O_RDONLY | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC);
	if (fd == -1) {
		/* Replaced by a symlink since fts looked: not followed. */
		if (errno != ELOOP)
			walk_errno(cb, path, errno);
		return (0);
	}
	if (fstat(fd, &st) == -1) {
		walk_errno(cb, path, errno);
		close(fd);
		return (0);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return (0);
	}
	if (cb->walked != NULL)
		return (cb->walked(cb->arg, path, fd));
	return (cb->input(cb->arg, path, fd));
}

/* Walk a directory tree; non-zero when a callback asked to stop. */
static int
walk_dir(const struct walk_cb *cb, const char *path)
{
	FTS	*fts;
	FTSENT	*e;
	char	*argv[2];
	int	 stop;

	argv[0] = (char *)path;
	argv[1] = NULL;
	fts = fts_open(argv, FTS_PHYSICAL | FTS_NOCHDIR | FTS_COMFOLLOW,
	    walk_cmp);
	if (fts == NULL) {
		walk_errno(cb, path, errno);
		return (0);
	}
	stop = 0;
	while (!stop && (e = fts_read(fts)) != NULL) {
		switch (e->fts_info) {
		case FTS_F:
			stop = walk_file(cb, e->fts_path);
			break;
		case FTS_DNR:
		case FTS_ERR:
		case FTS_NS:
			walk_errno(cb, e->fts_path, e->fts_errno);
			break;
		default:
			/* Directories, symlinks, devices, FIFOs, sockets. */
			break;
		}
	}
	if (!stop && e == NULL && errno != 0)
		walk_errno(cb, path, errno);
	fts_close(fts);
	return (stop);
}

/* Scan one operand: a file, or a directory to walk. */
int
walk_operand(const struct walk_cb *cb, const char *path)
{
	struct stat	st;
	int		fd;

	fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (fd == -1) {
		walk_errno(cb, path, errno);
		return (0);
	}
	if (fstat(fd, &st) == -1) {
		walk_errno(cb, path, errno);
		close(fd);
		return (0);
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return (walk_dir(cb, path));
	}
	return (cb->input(cb->arg, path, fd));
}

/* Scan every name listed in file (- for stdin), split at newline or NUL. */
int
walk_list(const struct walk_cb *cb, const char *file, int nul)
{
	FILE		*f;
	char		*line;
	size_t		 size;
	ssize_t		 n;
	uint64_t	 lineno;
	int		 stop, delim;

	if (strcmp(file, "-") == 0)
		f = stdin;
	else if ((f = fopen(file, "re")) == NULL) {
		walk_errno(cb, file, errno);
		return (0);
	}
	delim = nul ? '\0' : '\n';
	line = NULL;
	size = 0;
	lineno = 0;
	stop = 0;
	while (!stop && (n = getdelim(&line, &size, delim, f)) != -1) {
		lineno++;
		if (n > 0 && line[n - 1] == delim)
			line[--n] = '\0';
		if (n == 0)
			continue;
		if (!nul && memchr(line, '\0', (size_t)n) != NULL) {
			cb->error(cb->arg, f == stdin ? "(standard input)" :
			    file, lineno, "file name contains a NUL byte");
			continue;
		}
		stop = walk_operand(cb, line);
	}
	if (!stop && ferror(f))
		walk_errno(cb, f == stdin ? "(standard input)" : file, errno);
	free(line);
	if (f != stdin)
		fclose(f);
	return (stop);
}
