/*
 * lines-harness.h - every file, and every line of every file, under a
 * directory, for the tests that read a line two ways and want one answer
 * (test-frame's fr_printk(), test-detect-line's detect_may(), test-lean's
 * lean path): the test logs, and the corpus at ../shared/corpus when it
 * is there.  Static, included once by
 * each test-*.c that uses it.
 */
#ifndef LINES_HARNESS_H
#define LINES_HARNESS_H

#include <sys/stat.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

/* The corpus beside the tree; a test reads it only when it is there. */
#define LH_CORPUS	TESTDATA "/../../../shared/corpus"

/* Called for each file (path); before its lines (start); each line. */
typedef void	lh_path_fn(void *, const char *);
typedef void	lh_file_fn(void *, const char *);
typedef void	lh_line_fn(void *, const char *, size_t, const uint8_t *,
		    size_t);

/*
 * Call fn with the path of each regular file under dir, down depth
 * directories.  Returns the files.
 */
static inline size_t
lh_walk(const char *dir, int depth, lh_path_fn *fn, void *arg)
{
	struct dirent *de;
	struct stat sb;
	char path[1024];
	size_t files = 0;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return (0);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
		    de->d_name) >= sizeof(path) || stat(path, &sb) != 0)
			continue;
		if (S_ISDIR(sb.st_mode)) {
			if (depth > 0)
				files += lh_walk(path, depth - 1, fn, arg);
		} else if (S_ISREG(sb.st_mode)) {
			fn(arg, path);
			files++;
		}
	}
	(void)closedir(d);
	return (files);
}

struct lh_lines {
	lh_file_fn	*start;
	lh_line_fn	*line;
	void		*arg;
	size_t		 lines;
};

/* lh_dir(): the lines of one file. */
static inline void
lh_file_lines(void *arg, const char *path)
{
	struct lh_lines *l = arg;
	char *buf = NULL;
	size_t cap = 0, no, len;
	ssize_t got;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		return;
	if (l->start != NULL)
		l->start(l->arg, path);
	for (no = 1; (got = getline(&buf, &cap, f)) > 0; no++) {
		len = (size_t)got;
		if (buf[len - 1] == '\n')
			len--;
		l->line(l->arg, path, no, (const uint8_t *)buf, len);
		l->lines++;
	}
	free(buf);
	(void)fclose(f);
}

/*
 * Call start, then line for each line (without its '\n') of each regular
 * file under dir, down depth directories.  Returns the lines read.
 */
static inline size_t
lh_dir(const char *dir, int depth, lh_file_fn *start, lh_line_fn *line,
    void *arg)
{
	struct lh_lines l = { start, line, arg, 0 };

	(void)lh_walk(dir, depth, lh_file_lines, &l);
	return (l.lines);
}

#endif /* LINES_HARNESS_H */
