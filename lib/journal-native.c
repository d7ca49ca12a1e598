/*
 * journal-native.c - native journal files (*.journal, *.journal~) read
 * through libsystemd's sd-journal, which also decompresses data objects.
 *
 * Each entry is delivered like one of journal.c: first the metadata
 * fields journalctl -o export prints (__CURSOR, __REALTIME_TIMESTAMP,
 * __MONOTONIC_TIMESTAMP), then every data field in sd-journal's order,
 * so that an export of the same file gives the same fields.  Offsets are
 * 0 and no field is exact: there is no stream.  The same limits hold as
 * for streams (KL_JOURNAL_ENTRY_MAX bytes, KL_JOURNAL_FIELDS_MAX fields
 * per entry); a field sd-journal cannot read (corrupt, unsupported
 * compression) is an error for its entry, which is delivered partial.
 * A file that cannot be opened or iterated further is a failure.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_SYSTEMD
#include <systemd/sd-journal.h>
#endif

#include "kleak.h"
#include "kleak-int.h"

#ifdef HAVE_SYSTEMD

/* A field of the entry being built: offsets into the arena. */
struct nfld {
	size_t		 name;
	size_t		 data;
	size_t		 len;
};

/* The state of one file's read. */
struct native {
	const struct kl_journal_ops	*ops;
	struct kl_error			*err;
	uint64_t			 index;
	uint64_t			 realtime;
	int				 partial;
	int				 drop;
	uint8_t				*arena;
	size_t				 alen;
	size_t				 acap;
	struct nfld			*f;
	size_t				 nf;
	size_t				 fcap;
	struct kl_jfield		*out;
	size_t				 outcap;
	struct kl_error			 first;
	int				 have_first;
};

/* Why sd-journal refused, in journalctl's words where it has them. */
static const char *
nat_why(int e)
{
	switch (e) {
	case EBADMSG:
		return ("not a journal file, or corrupt");
	case ENODATA:
		return ("truncated");
	case EPROTONOSUPPORT:
		return ("uses a feature this libsystemd does not support");
	default:
		return (strerror(e));
	}
}

/* The error code for an errno from sd-journal. */
static enum kl_errcode
nat_code(int e)
{
	if (e == EBADMSG || e == ENODATA || e == EPROTONOSUPPORT)
		return (KL_EFORMAT);
	return (e == ENOMEM ? KL_ENOMEM : KL_EIO);
}

/* Out of memory.  Returns -1. */
static int
nat_nomem(struct native *n)
{
	kl_error_set(n->err, KL_ENOMEM, ENOMEM,
	    "out of memory reading journal entry %" PRIu64, n->index);
	return (-1);
}

/* Report a recoverable error of the current entry; 1 when stopped. */
static int KL_PRINTFLIKE(2, 3)
nat_report(struct native *n, const char *fmt, ...)
{
	struct kl_error e;
	char body[sizeof(e.msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	memset(&e, 0, sizeof(e));
	kl_error_set(&e, KL_EFORMAT, 0, "entry %" PRIu64 ": %s", n->index,
	    body);
	n->partial = 1;
	if (n->ops->error != NULL)
		return (n->ops->error(n->ops->arg, &e) != 0);
	if (!n->have_first) {
		n->first = e;
		n->have_first = 1;
	}
	return (0);
}

/* Append b[0..len) and a NUL to the arena; sets *at.  -1 on failure. */
static int
nat_put(struct native *n, const void *b, size_t len, size_t *at)
{
	size_t want, cap;
	uint8_t *a;

	if (kl_add(n->alen, len, &want) == -1 || kl_add(want, 1, &want) == -1)
		return (nat_nomem(n));
	if (want > n->acap) {
		cap = n->acap < 4096 ? 4096 : n->acap;
		while (cap < want)
			if (kl_mul(cap, 2, &cap) == -1)
				return (nat_nomem(n));
		if ((a = realloc(n->arena, cap)) == NULL)
			return (nat_nomem(n));
		n->arena = a;
		n->acap = cap;
	}
	*at = n->alen;
	if (len > 0)
		memcpy(n->arena + n->alen, b, len);
	n->alen += len;
	n->arena[n->alen++] = '\0';
	return (0);
}

/* Add the field name=value to the entry, within the limits. */
static int
nat_add(struct native *n, const char *name, size_t nlen, const void *v,
    size_t vlen)
{
	struct nfld *f;
	size_t cap, sz, need;
	int rc;

	if (n->drop)
		return (0);
	if (n->nf >= KL_JOURNAL_FIELDS_MAX || kl_add(nlen, vlen, &need) == -1 ||
	    need + 2 < need || need + 2 > KL_JOURNAL_ENTRY_MAX - n->alen) {
		n->drop = 1;
		if (n->nf >= KL_JOURNAL_FIELDS_MAX)
			rc = nat_report(n, "more than %u fields at field %.*s; "
			    "the rest of the entry is dropped",
			    KL_JOURNAL_FIELDS_MAX, (int)(nlen > 64 ? 64 : nlen),
			    name);
		else
			rc = nat_report(n, "entry exceeds the %u MiB limit at "
			    "field %.*s; the rest of the entry is dropped",
			    KL_JOURNAL_ENTRY_MAX >> 20,
			    (int)(nlen > 64 ? 64 : nlen), name);
		return (rc);
	}
	if (n->nf == n->fcap) {
		cap = n->fcap == 0 ? 32 : n->fcap * 2;
		if (cap > KL_JOURNAL_FIELDS_MAX)
			cap = KL_JOURNAL_FIELDS_MAX;
		if (kl_mul(cap, sizeof(*f), &sz) == -1 ||
		    (f = realloc(n->f, sz)) == NULL)
			return (nat_nomem(n));
		n->f = f;
		n->fcap = cap;
	}
	f = &n->f[n->nf];
	if (nat_put(n, name, nlen, &f->name) == -1 ||
	    nat_put(n, v, vlen, &f->data) == -1)
		return (-1);
	f->len = vlen;
	n->nf++;
	return (0);
}

/* Add a metadata field holding the decimal v. */
static int
nat_add_u64(struct native *n, const char *name, uint64_t v)
{
	char b[24];
	int len;

	len = snprintf(b, sizeof(b), "%" PRIu64, v);
	return (nat_add(n, name, strlen(name), b, (size_t)len));
}

/* Deliver the entry built.  Returns 1 when the callback stops. */
static int
nat_deliver(struct native *n)
{
	struct kl_jentry en;
	struct kl_jfield *o;
	const char *nm;
	const uint8_t *d;
	size_t i, sz;

	if (n->nf == 0)
		return (0);
	if (n->outcap < n->nf) {
		if (kl_mul(n->fcap, sizeof(*o), &sz) == -1 ||
		    (o = realloc(n->out, sz)) == NULL)
			return (nat_nomem(n));
		n->out = o;
		n->outcap = n->fcap;
	}
	memset(&en, 0, sizeof(en));
	en.index = n->index;
	en.realtime = n->realtime;
	en.partial = n->partial;
	for (i = 0; i < n->nf; i++) {
		o = &n->out[i];
		nm = (const char *)n->arena + n->f[i].name;
		d = n->arena + n->f[i].data;
		o->name = nm;
		o->data = d;
		o->len = n->f[i].len;
		o->offset = 0;
		o->exact = 0;
		if (memchr(d, '\0', o->len) != NULL)
			continue;
		if (en.cursor == NULL && strcmp(nm, "__CURSOR") == 0)
			en.cursor = (const char *)d;
		else if (en.boot_id == NULL && strcmp(nm, "_BOOT_ID") == 0)
			en.boot_id = (const char *)d;
	}
	en.fields = n->out;
	en.nfields = n->nf;
	return (n->ops->entry(n->ops->arg, &en) != 0);
}

/* Read the entry sd-journal stands at into n, and deliver it. */
static int
nat_entry(struct native *n, sd_journal *sj)
{
	const void *d;
	const char *eq;
	char *cursor = NULL;
	sd_id128_t boot;
	uint64_t rt = 0, mono = 0;
	size_t len;
	int r, rc;

	n->alen = n->nf = 0;
	n->partial = n->drop = 0;
	n->realtime = 0;
	if (sd_journal_get_cursor(sj, &cursor) >= 0) {
		rc = nat_add(n, "__CURSOR", 8, cursor, strlen(cursor));
		free(cursor);
		if (rc != 0)
			return (rc);
	}
	if (sd_journal_get_realtime_usec(sj, &rt) >= 0) {
		n->realtime = rt;
		if ((rc = nat_add_u64(n, "__REALTIME_TIMESTAMP", rt)) != 0)
			return (rc);
	}
	if (sd_journal_get_monotonic_usec(sj, &mono, &boot) >= 0 &&
	    (rc = nat_add_u64(n, "__MONOTONIC_TIMESTAMP", mono)) != 0)
		return (rc);
	sd_journal_restart_data(sj);
	while ((r = sd_journal_enumerate_data(sj, &d, &len)) > 0) {
		eq = memchr(d, '=', len);
		if (eq == NULL) {
			if ((rc = nat_report(n, "data object without '=' "
			    "(%zu bytes) skipped", len)) != 0)
				return (rc);
			continue;
		}
		rc = nat_add(n, d, (size_t)(eq - (const char *)d), eq + 1,
		    len - (size_t)(eq - (const char *)d) - 1);
		if (rc != 0)
			return (rc);
	}
	if (r < 0 && (rc = nat_report(n, "cannot read a field: %s; the rest "
	    "of the entry is dropped", strerror(-r))) != 0)
		return (rc);
	return (nat_deliver(n));
}

/*
 * Read the native journal file at path, delivering every entry in order.
 * Returns 0, 1 when a callback stopped, -1 on failure or, without
 * ops->error, when an entry had errors (err holds the first).
 */
int
kl_journal_native(const char *path, const struct kl_journal_ops *ops,
    struct kl_error *err)
{
	const char *paths[2] = { path, NULL };
	struct native n;
	sd_journal *sj = NULL;
	int r, rc = 0;

	if (path == NULL || ops == NULL || ops->entry == NULL) {
		kl_error_set(err, KL_EINVAL, 0, "journal file read without a "
		    "path or an entry callback");
		return (-1);
	}
	r = sd_journal_open_files(&sj, paths, 0);
	if (r < 0) {
		kl_error_set(err, nat_code(-r), -r, "cannot open journal "
		    "file: %s", nat_why(-r));
		return (-1);
	}
	memset(&n, 0, sizeof(n));
	n.ops = ops;
	n.err = err;
	/* a hint to sd-journal: nothing longer is kept anyway */
	(void)sd_journal_set_data_threshold(sj, KL_JOURNAL_ENTRY_MAX);
	for (;;) {
		r = sd_journal_next(sj);
		if (r < 0) {
			kl_error_set(err, nat_code(-r), -r, "cannot read "
			    "journal entry %" PRIu64 ": %s", n.index,
			    nat_why(-r));
			rc = -1;
			break;
		}
		if (r == 0)
			break;
		if ((rc = nat_entry(&n, sj)) != 0)
			break;
		n.index++;
	}
	sd_journal_close(sj);
	free(n.arena);
	free(n.f);
	free(n.out);
	if (rc == 0 && n.have_first) {
		if (err != NULL)
			*err = n.first;
		rc = -1;
	}
	return (rc);
}

#else /* !HAVE_SYSTEMD */

/* Native journal files need libsystemd: say so. */
int
kl_journal_native(const char *path, const struct kl_journal_ops *ops,
    struct kl_error *err)
{
	(void)path;
	(void)ops;
	kl_error_set(err, KL_EINVAL, 0, "native journal files need "
	    "libsystemd: reconfigure with --with-systemd");
	return (-1);
}

#endif /* HAVE_SYSTEMD */
