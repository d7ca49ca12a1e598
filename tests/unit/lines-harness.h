/*
 * lines-harness.h - every line of every file under a directory, for the
 * tests that read a line two ways and want one answer (test-frame's
 * fr_printk(), test-detect-line's detect_may()): the test logs, and the
 * corpus at ../shared/corpus when it is there.  Static, included once by
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

/* Called before the lines of each file (start) and for each line. */
typedef void	lh_file_fn(void *, const char *);
typedef void	lh_line_fn(void *, const char *, size_t, const uint8_t *,
		    size_t);

/*
 * Call start, then line for each line (without its '\n') of each regular
 * file under dir, down depth directories.  Returns the lines read.
 */
static size_t
lh_dir(const char *dir, int depth, lh_file_fn *start, lh_line_fn *line,
    void *arg)
{
	struct dirent *de;
	struct stat sb;
	char path[1024], *buf = NULL;
	size_t cap = 0, lines = 0, no, len;
	ssize_t got;
	FILE *f;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return (0);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &sb) != 0)
			continue;
		if (S_ISDIR(sb.st_mode)) {
			if (depth > 0)
				lines += lh_dir(path, depth - 1, start, line,
				    arg);
			continue;
		}
		if (!S_ISREG(sb.st_mode) || (f = fopen(path, "r")) == NULL)
			continue;
		if (start != NULL)
			start(arg, path);
		for (no = 1; (got = getline(&buf, &cap, f)) > 0; no++) {
			len = (size_t)got;
			if (buf[len - 1] == '\n')
				len--;
			line(arg, path, no, (const uint8_t *)buf, len);
			lines++;
		}
		(void)fclose(f);
	}
	free(buf);
	(void)closedir(d);
	return (lines);
}

#endif /* LINES_HARNESS_H */
