/*
 * log.c - the bottom of the program: diagnostics on stderr, the error
 * counter, fatal errors, allocation helpers, the output buffer, the text
 * escaping of names and bytes, and the check of standard output.  Every
 * other file of src/ may use it; it uses none of them.
 *
 * Every message is "kleakscan: NAME:LINE: message" or "kleakscan: message",
 * with NAME (and its {member} levels) and the message escaped: nothing from
 * outside reaches the terminal raw.  Errors are counted even when -s hides
 * them; the exit status is decided from the count at the end.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kleakscan.h"

static int		 log_silent;	/* -s */
static uint64_t		 log_nerrors;
static struct buf	 log_ebuf;
static int		 log_werrno;	/* writing stderr failed */
static void		(*log_out_failed)(int);	/* out_check() failed */

/* Set up diagnostics: silent hides the per-input error messages. */
void
log_init(int silent)
{
	log_silent = silent;
}

static void	log_emit(const char *, uint64_t, const char *, va_list)
		    KL_PRINTFLIKE(3, 0);

/* Write "kleakscan: ", the escaped name and the escaped message. */
static void
log_emit(const char *escname, uint64_t line, const char *fmt, va_list ap)
{
	char	msg[1024];
	int	n;

	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (n < 0)
		msg[0] = '\0';

	/* Keep stdout and stderr in order when both go to one place. */
	fflush(stdout);
	fputs(PROGNAME ": ", stderr);
	if (escname != NULL) {
		fputs(escname, stderr);
		if (line != 0)
			fprintf(stderr, ":%" PRIu64, line);
		fputs(": ", stderr);
	}
	fputs(print_text_esc(&log_ebuf, msg, strlen(msg)), stderr);
	fputc('\n', stderr);
	if (fflush(stderr) == EOF || ferror(stderr)) {
		log_werrno = errno != 0 ? errno : EIO;
		clearerr(stderr);
	}
}

/* The errno of the last failed write to stderr (0: none); cleared. */
int
log_write_errno(void)
{
	int	e = log_werrno;

	log_werrno = 0;
	return (e);
}

/* Report an error about an input: counted, printed unless -s. */
void
log_error(const char *name, size_t namelen, uint64_t line, const char *fmt,
    ...)
{
	va_list	 ap;
	char	*esc;

	log_nerrors++;
	if (log_silent)
		return;
	esc = NULL;
	if (name != NULL)
		esc = xstrdup(print_name_esc(&log_ebuf, name, namelen, 0));
	va_start(ap, fmt);
	log_emit(esc, line, fmt, ap);
	va_end(ap);
	free(esc);
}

/* Report an error about a unit whose name is escaped already. */
void
log_error_esc(const char *escname, uint64_t line, const char *fmt, ...)
{
	va_list	ap;

	log_nerrors++;
	if (log_silent)
		return;
	va_start(ap, fmt);
	log_emit(escname, line, fmt, ap);
	va_end(ap);
}

/* Say something about a unit that is not an error; hidden by -s. */
void
log_note(const char *escname, const char *fmt, ...)
{
	va_list	ap;

	if (log_silent)
		return;
	va_start(ap, fmt);
	log_emit(escname, 0, fmt, ap);
	va_end(ap);
}

/* A note about a line of a unit (line 0: none); hidden by -s. */
void
log_note_at(const char *escname, uint64_t line, const char *fmt, ...)
{
	va_list	ap;

	if (log_silent)
		return;
	va_start(ap, fmt);
	log_emit(escname, line, fmt, ap);
	va_end(ap);
}

/* Print a warning that does not change the exit status. */
void
log_warnx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_emit(NULL, 0, fmt, ap);
	va_end(ap);
}

/* Count errors reported elsewhere (by a worker, jobs.c). */
void
log_add_errors(uint64_t n)
{
	log_nerrors += n;
}

/* Report a command line error and exit with status 2. */
void
log_usage(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_emit(NULL, 0, fmt, ap);
	va_end(ap);
	fputs("Try '" PROGNAME " --help' for more information.\n", stderr);
	exit(2);
}

/* Report an error nothing can recover from and exit with status 2. */
void
log_fatal(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_emit(NULL, 0, fmt, ap);
	va_end(ap);
	exit(2);
}

/* How many errors were reported so far. */
uint64_t
log_errors(void)
{
	return (log_nerrors);
}

/* malloc that exits on failure. */
void *
xmalloc(size_t size)
{
	void	*p;

	if ((p = malloc(size == 0 ? 1 : size)) == NULL)
		log_fatal("out of memory");
	return (p);
}

/* reallocarray that exits on failure or overflow. */
void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		log_fatal("out of memory");
	if ((p = realloc(p, n * size == 0 ? 1 : n * size)) == NULL)
		log_fatal("out of memory");
	return (p);
}

/* strdup that exits on failure. */
char *
xstrdup(const char *s)
{
	char	*p;

	if ((p = strdup(s)) == NULL)
		log_fatal("out of memory");
	return (p);
}

/* Make sure b can hold n bytes. */
void
buf_reserve(struct buf *b, size_t n)
{
	size_t	size;

	if (b->p != NULL && b->size >= n)
		return;
	size = b->size < 256 ? 256 : b->size;
	while (size < n) {
		if (size > SIZE_MAX / 2)
			log_fatal("out of memory");
		size *= 2;
	}
	b->p = xreallocarray(b->p, size, 1);
	b->size = size;
}

/* Release a buffer. */
void
buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->size = b->len = 0;
}

/*
 * Write n in decimal into d[0..20) (no NUL); returns the number of
 * digits.  printf's work for the printers, at a tenth of the cost.
 */
size_t
fmt_u64(char *d, uint64_t n)
{
	char	 r[20];
	size_t	 k = 0, i;

	do
		r[k++] = (char)('0' + n % 10);
	while ((n /= 10) > 0);
	for (i = 0; i < k; i++)
		d[i] = r[k - 1 - i];
	return (k);
}

/* FNV-1a 64 of s[0..n), going on from h (FNV_OFFSET to start). */
uint64_t
fnv64(uint64_t h, const void *s, size_t n)
{
	const uint8_t	*p = s;
	size_t		 i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= UINT64_C(0x100000001b3);
	}
	return (h);
}

/* Write n in decimal to stdout. */
void
put_u64(uint64_t n)
{
	char	 d[20];

	fwrite(d, 1, fmt_u64(d, n), stdout);
}

/* Escape len bytes of s for a terminal into b; returns a C string. */
const char *
print_text_esc(struct buf *b, const void *s, size_t len)
{
	size_t	n;

	buf_reserve(b, len + 1);
	n = kl_esc_text(b->p, b->size, s, len);
	if (n >= b->size) {
		buf_reserve(b, n + 1);
		n = kl_esc_text(b->p, b->size, s, len);
		if (n >= b->size)
			n = b->size - 1;
	}
	b->p[n] = '\0';
	b->len = n;
	return (b->p);
}

/*
 * Append len bytes of a name to b: the bytes in specials get a
 * backslash, the rest goes through kl_esc_text(), or raw with raw set.
 */
void
name_append(struct buf *b, const uint8_t *p, size_t len, const char *specials,
    int raw)
{
	size_t	i, j, n;

	if (len > (SIZE_MAX - b->len - 1) / 4)
		log_fatal("out of memory");
	buf_reserve(b, b->len + 4 * len + 1);
	for (i = 0; i < len; i = j) {
		for (j = i; j < len && (p[j] == '\0' ||
		    strchr(specials, p[j]) == NULL); j++)
			continue;
		if (j > i) {
			if (raw) {
				memcpy(b->p + b->len, p + i, j - i);
				n = j - i;
			} else
				n = kl_esc_text(b->p + b->len, b->size - b->len,
				    p + i, j - i);
			b->len += n;
		}
		if (j < len) {
			b->p[b->len++] = '\\';
			b->p[b->len++] = (char)p[j++];
		}
	}
	b->p[b->len] = '\0';
}

/*
 * Escape a name for text output: {, } and \ get a backslash, the rest as
 * print_text_esc(); with raw set only those three are escaped (for -0).
 */
const char *
print_name_esc(struct buf *b, const void *s, size_t len, int raw)
{
	b->len = 0;
	name_append(b, s, len, "{}\\", raw);
	return (b->p);
}

/* The text name of a unit: path{member}{inner}..., escaped, in b. */
const char *
print_unit_name(struct buf *b, const char *name, size_t namelen,
    const char *const *members, size_t nmembers)
{
	size_t	i;

	b->len = 0;
	name_append(b, (const uint8_t *)name, namelen, "{}\\", 0);
	for (i = 0; i < nmembers; i++) {
		name_append(b, (const uint8_t *)"{", 1, "", 1);
		name_append(b, (const uint8_t *)members[i], strlen(members[i]),
		    "{}\\", 0);
		name_append(b, (const uint8_t *)"}", 1, "", 1);
	}
	return (b->p);
}

/* Set what out_check() does when standard output cannot be written. */
void
out_on_failure(void (*fn)(int))
{
	log_out_failed = fn;
}

/* Stop quietly or with an error as soon as stdout cannot be written. */
void
out_check(void)
{
	if (ferror(stdout))
		log_out_failed(errno);
}
