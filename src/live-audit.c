/*
 * live-audit.c - one file of the audited system to the scanner: its text
 * when it holds a run of hex digits, else the raw kernel addresses of
 * binary content; the values the unprivileged reader saw; the skips of
 * leaking_addresses.pl; the notes and counts of files not read.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/mman.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleakscan.h"
#include "live.h"

/* Paths leaking_addresses.pl skips, as it has them. */
static const char *const skip_abs[] = {
	"/proc/kmsg", "/proc/device-tree", "/proc/1/syscall",
	"/sys/firmware/devicetree", "/sys/kernel/debug/tracing/trace_pipe",
	"/sys/kernel/security/apparmor/revision",
	/* kleakscan adds: huge, binary or with side effects. */
	"/proc/kcore", "/proc/kpagecount", "/proc/kpageflags",
	"/proc/kpagecgroup", "/proc/sysrq-trigger",
	"/sys/kernel/tracing/trace_pipe",
	NULL
};

/* File names leaking_addresses.pl skips anywhere. */
static const char *const skip_any[] = {
	"pagemap", "events", "access", "registers", "snapshot_raw",
	"trace_pipe_raw", "ptmx", "trace_pipe", "fd", "usbmon",
	/* kleakscan adds. */
	"kmsg", "mem", "clear_refs", "syscall", "kcore", "map_files",
	"fdinfo", "trace_marker", "trace_marker_raw", "hw_random",
	NULL
};

/* Append n bytes to b. */
void
audit_buf_add(struct buf *b, const void *p, size_t n)
{
	buf_reserve(b, b->len + n + 1);
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* A one-line note about path, counted. */
void
audit_note(struct live *lv, const char *path, const char *fmt, ...)
{
	va_list	ap;
	char	msg[PATH_MAX + 128];

	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	lv->notes++;
	log_note(print_name_esc(&lv->esc, path, strlen(path), 0), "%s", msg);
}

/* Is c a hex digit? */
static int
ishex(int c)
{
	return ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F'));
}

/* Does p hold a run of LIVE_HEXRUN or more hex digits? */
int
audit_hexrun(const char *p, size_t n)
{
	size_t	i, run;

	for (i = run = 0; i < n; i++) {
		if (ishex((unsigned char)p[i])) {
			if (++run >= LIVE_HEXRUN)
				return (1);
		} else
			run = 0;
	}
	return (0);
}

/* Order values. */
static int
u64cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/* Collect the values of every 8- to 16-digit hex run of p, sorted. */
void
audit_vals(struct live *lv, const char *p, size_t n)
{
	size_t		i, j;
	uint64_t	v;
	int		c;

	lv->nvals = 0;
	for (i = 0; i < n; i = j) {
		if (!ishex((unsigned char)p[i])) {
			j = i + 1;
			continue;
		}
		for (j = i; j < n && ishex((unsigned char)p[j]); j++)
			;
		if (j - i < LIVE_HEXRUN || j - i > 16)
			continue;
		for (v = 0; i < j; i++) {
			c = (unsigned char)p[i];
			v = v << 4 | (uint64_t)(c <= '9' ? c - '0' :
			    (c | 0x20) - 'a' + 10);
		}
		if (lv->nvals == lv->avals) {
			lv->avals = lv->avals ? 2 * lv->avals : 256;
			lv->vals = xreallocarray(lv->vals, lv->avals,
			    sizeof(*lv->vals));
		}
		lv->vals[lv->nvals++] = v;
	}
	if (lv->nvals > 1)
		qsort(lv->vals, lv->nvals, sizeof(*lv->vals), u64cmp);
}

/* Does the unprivileged view hold v? */
int
audit_has_val(struct live *lv, uint64_t v)
{
	return (lv->nvals > 0 && bsearch(&v, lv->vals, lv->nvals,
	    sizeof(*lv->vals), u64cmp) != NULL);
}

/* Scan len bytes as a unit named name. */
void
audit_scan(struct live *lv, const char *name, const char *p, size_t len)
{
	if (lv->memfd == -1) {
		lv->memfd = memfd_create("kleakscan-live", MFD_CLOEXEC);
		if (lv->memfd == -1) {
			log_error(name, strlen(name), 0, "cannot hold the "
			    "file: %s", strerror(errno));
			return;
		}
	}
	if (ftruncate(lv->memfd, 0) == -1 || lseek(lv->memfd, 0, SEEK_SET) ==
	    -1 || (len > 0 && write(lv->memfd, p, len) != (ssize_t)len) ||
	    lseek(lv->memfd, 0, SEEK_SET) == -1) {
		log_error(name, strlen(name), 0, "cannot hold the file: %s",
		    strerror(errno));
		return;
	}
	lv->scanned++;
	lv->active = 1;
	/* Saved logs may hold older boots: the slide is not theirs. */
	lv->sysunit = strncmp(name, "/var/log/", 9) != 0;
	(void)lv->scan(name, lv->memfd);
	lv->active = 0;
	lv->sysunit = 0;
	lv->who = NULL;
}

/* Is the content binary (a NUL in its first 4 KiB)? */
int
audit_binary(const char *p, size_t n)
{
	return (memchr(p, '\0', n < 4096 ? n : 4096) != NULL);
}

/*
 * Binary content: the raw kernel addresses in it (host byte order and
 * width, aligned), as text lines the scanner classifies.
 */
static void
raw_lines(struct live *lv, const char *p, size_t n, struct buf *out)
{
	uint64_t	v;
	uint32_t	w;
	size_t		i, step;
	char		line[64];
	int		k;

	out->len = 0;
	if (!lv->fx.have_syms)
		return;
	step = sizeof(void *);
	for (i = 0; i + step <= n; i += step) {
		if (step == 8)
			memcpy(&v, p + i, 8);
		else {
			memcpy(&w, p + i, 4);
			v = w;
		}
		if (v < lv->fx.lo || v > lv->fx.hi)
			continue;
		k = snprintf(line, sizeof(line), "raw at 0x%zx: %0*" PRIx64
		    "\n", i, (int)(2 * step), v);
		audit_buf_add(out, line, (size_t)k);
	}
}

/* Audit one file's bytes: the scanner sees text, or raw addresses. */
void
audit_bytes(struct live *lv, const char *name, char *p, size_t len, char *u,
    size_t ulen)
{
	static struct buf	raw, uraw;

	if (audit_binary(p, len)) {
		lv->binary++;
		raw_lines(lv, p, len, &raw);
		if (raw.len == 0)
			return;
		lv->rawhits++;
		if (u != NULL) {
			raw_lines(lv, u, ulen, &uraw);
			audit_vals(lv, uraw.p != NULL ? uraw.p : "", uraw.len);
		}
		audit_scan(lv, name, raw.p, raw.len);
		return;
	}
	if (!audit_hexrun(p, len))
		return;
	(void)kl_live_mask(p, len);
	if (u != NULL)
		audit_vals(lv, u, ulen);
	audit_scan(lv, name, p, len);
}

/* Should path (name its last part) be skipped? */
int
audit_skip(const char *path, const char *name)
{
	size_t	i;

	for (i = 0; skip_abs[i] != NULL; i++)
		if (strcmp(path, skip_abs[i]) == 0)
			return (1);
	for (i = 0; skip_any[i] != NULL; i++)
		if (strcmp(name, skip_any[i]) == 0)
			return (1);
	return (0);
}

/* Say why a read of path failed, counted; 1 when it did. */
int
audit_failed(struct live *lv, const char *path, const struct rdata *d,
    const char *as)
{
	char	msg[128];

	if (d->timeout) {
		lv->timeouts++;
		snprintf(msg, sizeof(msg), "not read%s: no answer in %d s",
		    as, lv->secs);
		audit_note(lv, path, "%s", msg);
		return (1);
	}
	if (d->h.flags & RF_NOTREG) {
		lv->skipped++;
		return (1);
	}
	if (d->h.flags & RF_CUT) {
		lv->cut++;
		audit_note(lv, path, "%s", "cut at the size bound (64 MiB)");
	}
	if (d->h.err == 0)
		return (0);
	if (d->h.err == ENOENT || d->h.err == ESRCH) {
		lv->vanished++;
		snprintf(msg, sizeof(msg), "vanished before it was read%s",
		    as);
	} else if (d->h.err == EIO && d->h.len == 0) {
		lv->eio++;
		snprintf(msg, sizeof(msg), "not read%s: %s", as,
		    strerror(d->h.err));
	} else if (d->h.len > 0) {
		lv->eio++;
		snprintf(msg, sizeof(msg), "read in part%s: %s", as,
		    strerror(d->h.err));
		audit_note(lv, path, "%s", msg);
		return (0);
	} else {
		lv->unreadable++;
		/* Run as root, what nobody cannot read is the norm. */
		if (lv->asroot && (d->h.err == EACCES || d->h.err == EPERM ||
		    d->h.err == EINVAL || d->h.err == EOPNOTSUPP ||
		    d->h.err == ENODEV || d->h.err == ENXIO))
			return (1);
		if (!lv->asroot && d->h.err != EACCES && d->h.err != EPERM &&
		    d->h.err != EIO) {
			/* Attributes that refuse reads: not worth a line. */
			return (1);
		}
		snprintf(msg, sizeof(msg), "not read%s: %s", as,
		    strerror(d->h.err));
	}
	audit_note(lv, path, "%s", msg);
	return (1);
}
