/*
 * chunk.c - -j on one big plain file: its lines scanned on several
 * threads by the library (kl_scan_chunked()), the events in the order
 * and the bytes of -j 1.  The unit is the same as through the input
 * layer (unit.c): begin event, the scan, unit_finish().
 *
 * Only where the serial path can be proven the same: a regular file
 * named alone, at least KLEAKSCAN_CHUNK_BYTES (tests) or CHUNK_MIN
 * bytes, --format auto, the fast engine, no --redact, no call sites
 * (--kernel-source, --printk-index), no --max-member-size or
 * --max-total (the input layer counts those), whose first bytes
 * the input layer reads as a plain text unit (no archive, compressed
 * stream, journal, JSON, binary) that cannot be mail (mail_sniff()), and
 * a verdict whose line filter does not change during the scan.
 * KLEAKSCAN_NO_CHUNK=1 turns it off; KLEAKSCAN_CHUNK_DEBUG=1 says on
 * stderr how the chunks went.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleakscan.h"

/*
 * 4 MiB chunks.  With the default output every line is recorded as an
 * event (lib/chunk.c keeps a line in 56 bytes, a finding in 208): on
 * 256 MiB of the corpus's real logs, chunked -j2 peaks at 53 MB of RSS
 * printing text or JSON and 42 MB with -c, whose lists start in huge
 * pages (measured before them: 2 MiB chunks 34 and 25 MB; 8 MiB: 97 and
 * 63 MB).  Larger chunks pay the in-order scan of the lines before each
 * chunk's first new boot fewer times: -j2 -c took 0.70 s against -j1's
 * 1.26 s (1.80 x), 2 MiB chunks 0.75 s (1.68 x).  (That input repeats
 * the corpus, 3.9 MiB, which 4 MiB chunks align with: BENCHMARKS.md,
 * stop 42.)
 */
#define CHUNK_BYTES	(4u << 20)	/* a chunk, about */
/*
 * Smaller files are scanned in order.  A chunked scan starts with the
 * first touch of its slots and event lists (3,700 page faults, about
 * 30 ms on this VM): -c on the first 16, 32, 64 and 128 MB of real.log
 * took 0.04, 0.07, 0.13 and 0.26 s in order, 0.06, 0.08, 0.11 and 0.17 s
 * in chunks on two cores (stop 41, huge-page slot buffers).
 */
#define CHUNK_MIN	(64u << 20)
#define CHUNK_PEEK	(64u << 10)	/* the input layer's prefix */
#define CHUNK_TEXT	4096u		/* ...or this, without a NUL */
/*
 * A compressed stream this much smaller than CHUNK_MIN is chunked too:
 * logs shrink 10 to 40 times.
 */
#define STREAM_RATIO	32u

/* A positive size from the environment variable name, else 0. */
static size_t
env_size(const char *name)
{
	const char	*s;
	char		*end;
	unsigned long long v;

	if ((s = getenv(name)) == NULL || *s == '\0')
		return (0);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v == 0 || v > SIZE_MAX / 4)
		return (0);
	return ((size_t)v);
}

/*
 * Can no prefix of b[0, n) be sniffed as mail (kl_mime_sniff())?  True
 * when the first line does not start "From " and its first byte that
 * cannot be in a header field name (a space, a control byte, ':') is
 * there and is not ':': then no prefix starts with a header field.
 */
static int
never_mail(const uint8_t *b, size_t n)
{
	size_t	i;

	if (n >= 5 && memcmp(b, "From ", 5) == 0)
		return (0);
	for (i = 0; i < n; i++)
		if (b[i] <= 32 || b[i] >= 127 || b[i] == ':')
			break;
	return (i < n && b[i] != ':');
}

/* Does the input layer read b[0, n), a file's first bytes, as text? */
static int
plain_text(const uint8_t *b, size_t n)
{
	int	f, g;

	if (n < 5 || kl_input_container(b, n, &f, &g) != 0)
		return (0);
	/* It sniffs PEEK_TEXT bytes without a NUL, or up to PEEK_MAX. */
	if (memchr(b, 0, n) != NULL)
		return (0);
	if (kl_input_sniff(b, n < CHUNK_TEXT ? n : CHUNK_TEXT) !=
	    KL_UNIT_TEXT || kl_input_sniff(b, n) != KL_UNIT_TEXT)
		return (0);
	return (never_mail(b, n));
}

/*
 * May the scan be chunked under these options (the output of a chunked
 * scan is the serial one's under them)?  *chunk: the chunk size; *min:
 * the size of the smallest plain file to chunk.
 */
static int
chunk_allowed(const struct cli *cli, size_t *chunk, size_t *min)
{
	const char	*s;
	size_t		 n;

	if ((s = getenv("KLEAKSCAN_NO_CHUNK")) != NULL && *s != '\0' &&
	    strcmp(s, "0") != 0)
		return (0);
	if (cli->redact || cli->format != KL_FORMAT_AUTO ||
	    cli->kl.engine == KL_ENGINE_PCRE2 || !verdict_first_fixed() ||
	    cli->kernel_source != NULL || cli->printk_index != NULL ||
	    cli->limits.max_member != 0 || cli->limits.max_total != 0)
		return (0);
	*chunk = CHUNK_BYTES;
	*min = CHUNK_MIN;
	if ((n = env_size("KLEAKSCAN_CHUNK_BYTES")) != 0)
		*chunk = *min = n;
	return (1);
}

/*
 * How many threads to scan a compressed stream's text on, of threads.
 * Its decoder runs on a thread of its own (lib/pipe.c) while the text is
 * scanned, so a stream read in order already keeps two cores busy: the
 * chunks get one thread fewer.  Except where the sink reads every line
 * (no line_first filter: the leak sources are matched against each line,
 * for any output but -c, -l, -L and -q), work the main thread does in
 * order either way: there the scan the chunks take off the main thread
 * pays for their copies and replay.
 * On two cores (BENCHMARKS.md, stop 41), 256 MiB of real logs as .gz:
 * -c 0.53 s in order against 0.62 s in chunks (no hex: 0.29 against
 * 0.36 s), --report 1.77 against 1.53 s.
 */
static unsigned
stream_threads(const struct run *r, unsigned threads)
{
	if (r->sink.line != NULL && r->sink.line_first == NULL)
		return (threads);
	return (threads - 1);
}

/*
 * How the one input at fd may be scanned on threads threads, after one
 * look at its first bytes: CHUNK_FILE, a plain file of CHUNK_MIN bytes or
 * more, which chunk_input() reads in chunks; CHUNK_STREAM, a compressed
 * stream (not an archive: members.c splits those) of CHUNK_MIN /
 * STREAM_RATIO or more, whose text unit.c scans in chunks as it is
 * decompressed (kl_chunk_feed()) when stream_threads() leaves two or
 * more; CHUNK_NONE, neither.  For the first two, sets r->chunk_threads
 * and r->chunk_bytes, which the caller clears after the scan.
 */
enum chunk_kind
chunk_kind(struct run *r, int fd, unsigned threads)
{
	enum chunk_kind	 kind = CHUNK_NONE;
	struct stat	 st;
	uint8_t		*b;
	size_t		 chunk, min, n = 0;
	ssize_t		 k;
	off_t		 at;
	int		 f, g;

	if (threads < 2 || !chunk_allowed(r->cli, &chunk, &min) ||
	    fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size < min / STREAM_RATIO ||
	    (at = lseek(fd, 0, SEEK_CUR)) == -1)
		return (CHUNK_NONE);
	b = xmalloc(CHUNK_PEEK);
	while (n < CHUNK_PEEK) {
		k = pread(fd, b + n, CHUNK_PEEK - n, at + (off_t)n);
		if (k == -1 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	if ((uint64_t)st.st_size >= min && plain_text(b, n))
		kind = CHUNK_FILE;
	else if (kl_input_container(b, n, &f, &g) == 1 &&
	    stream_threads(r, threads) >= 2)
		kind = CHUNK_STREAM;
	free(b);
	if (kind != CHUNK_NONE) {
		r->chunk_threads = kind == CHUNK_STREAM ?
		    stream_threads(r, threads) : threads;
		r->chunk_bytes = chunk;
	}
	return (kind);
}

/*
 * Scan the plain file at fd (named path; chunk_kind(): CHUNK_FILE) in
 * chunks on threads, as kl_input_fd() and unit.c would.  Returns non-zero
 * to stop (-q), as scan_input().
 */
int
chunk_input(struct run *r, const char *path, int fd)
{
	struct kl_chunk_opt	opt;
	struct kl_chunk_stats	cs;
	struct kl_error		err;
	int			rc;

	if (unit_begin(path, NULL, 0, KL_UNIT_TEXT) == -1)
		return (r->stop == STOP_ALL);
	memset(&opt, 0, sizeof(opt));
	opt.threads = r->chunk_threads;
	opt.chunk = r->chunk_bytes;
	memset(&err, 0, sizeof(err));
	memset(&cs, 0, sizeof(cs));
	rc = kl_scan_chunked(r->scan, fd, &opt, &cs, &err);
	unit_chunk_note(&cs);
	if (rc != 0)
		r->u.dead = 1;
	if (r->stop == STOP_ALL) {
		unit_finish(NULL);
		return (1);
	}
	unit_finish(rc == -1 ? &err : NULL);
	return (0);
}
