/*
 * shard.c - --shard K/N: which inputs of the listing this process scans.
 *
 * Every process of a sharded run walks the whole listing (operands,
 * --files-from, the files found in directory walks) and scans only the
 * inputs whose path, as given or as the walk makes it (DIR/sub/file),
 * hashes to its shard: FNV-1a 64 of the path's bytes, modulo N, plus 1.
 * A path that cannot be opened or walked is reported by the shard it
 * hashes to, so errors are counted once over the N processes.  Standard
 * input hashes as "-".
 *
 * Every input listed, scanned here or not, gets its place in the listing
 * (0, 1, ...): the report keeps it with its examples, so that --merge
 * can tell which of two shards' examples one run would have met first.
 * The listing's size and a hash of its paths go to the report's merge
 * state: shards of different listings do not merge.  With -j the
 * workers cannot know the places; the parent keeps the places of the
 * inputs it handed out, in order, for print-report.c to read back.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleakscan.h"

static struct {
	unsigned		 k, n;		/* 0/0: not sharded */
	uint64_t		 listed;	/* inputs listed so far */
	uint64_t		 hash;		/* of their paths */
	uint64_t		 cur;		/* place of the input scanned */
	uint64_t		*given;		/* places handed to workers */
	size_t			 ngiven, cap;
	struct walk_cb		 up;		/* the callbacks wrapped */
} sh = { 0, 0, 0, FNV_OFFSET, 0, NULL, 0, 0,
    { NULL, NULL, NULL, NULL } };

/* The shard (1..n) of a path. */
unsigned
shard_of(const char *path, unsigned n)
{
	return ((unsigned)(fnv64(FNV_OFFSET, path, strlen(path)) % n) + 1);
}

/* Parse --shard K/N; -1 when it is not 1 <= K <= N <= SHARD_MAX. */
int
shard_parse(const char *s, unsigned *k, unsigned *n)
{
	char		*end;
	unsigned long	 a, b;

	if (*s < '0' || *s > '9')
		return (-1);
	a = strtoul(s, &end, 10);
	if (*end != '/' || end[1] < '0' || end[1] > '9')
		return (-1);
	b = strtoul(end + 1, &end, 10);
	if (*end != '\0' || a < 1 || b < 1 || a > b || b > SHARD_MAX)
		return (-1);
	*k = (unsigned)a;
	*n = (unsigned)b;
	return (0);
}

/* Set the shard of this process (0/0: every input). */
void
shard_init(unsigned k, unsigned n)
{
	sh.k = k;
	sh.n = n;
}

/* Is path this process's? */
static int
mine(const char *path)
{
	return (sh.n <= 1 || shard_of(path, sh.n) == sh.k);
}

/* Count a listed input; is it this process's?  Its place is kept. */
int
shard_take(const char *path)
{
	sh.cur = sh.listed++;
	sh.hash = fnv64(sh.hash, path, strlen(path) + 1);
	if (!mine(path))
		return (0);
	if (sh.ngiven == sh.cap) {
		sh.cap = sh.cap == 0 ? 256 : sh.cap * 2;
		sh.given = xreallocarray(sh.given, sh.cap,
		    sizeof(*sh.given));
	}
	sh.given[sh.ngiven++] = sh.cur;
	return (1);
}

/* The place in the listing of the input being scanned (-j 1). */
uint64_t
shard_place(void)
{
	return (sh.cur);
}

/* The place of the i-th input this process scanned (-j: the parent). */
uint64_t
shard_given(size_t i)
{
	return (i < sh.ngiven ? sh.given[i] : UINT64_MAX);
}

/* The listing: inputs, hash of their paths; the shard: k, n (1/1). */
void
shard_listing(uint64_t *listed, uint64_t *hash, unsigned *k, unsigned *n)
{
	*listed = sh.listed;
	*hash = sh.hash;
	*k = sh.n == 0 ? 1 : sh.k;
	*n = sh.n == 0 ? 1 : sh.n;
}

/* Wrapped walk callback: a named file. */
static int
sh_input(void *arg, const char *path, int fd)
{
	(void)arg;
	if (!shard_take(path)) {
		close(fd);
		return (0);
	}
	return (sh.up.input(sh.up.arg, path, fd));
}

/* Wrapped walk callback: a file met in a walk. */
static int
sh_walked(void *arg, const char *path, int fd)
{
	(void)arg;
	if (!shard_take(path)) {
		close(fd);
		return (0);
	}
	if (sh.up.walked == NULL)
		return (sh.up.input(sh.up.arg, path, fd));
	return (sh.up.walked(sh.up.arg, path, fd));
}

/* Wrapped walk callback: an error, reported by the path's shard. */
static void
sh_error(void *arg, const char *path, uint64_t line, const char *msg)
{
	(void)arg;
	if (mine(path))
		sh.up.error(sh.up.arg, path, line, msg);
}

/* Put the shard filter in front of the walk callbacks cb. */
void
shard_wrap(struct walk_cb *cb)
{
	sh.up = *cb;
	cb->arg = NULL;
	cb->input = sh_input;
	cb->walked = sh_walked;
	cb->error = sh_error;
}
