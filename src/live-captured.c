/*
 * live-captured.c - --live-root on a captured system (a copied /proc and
 * /sys, a sosreport or a supportconfig, as a directory or an archive):
 * its files read under the system's paths, symlinks never followed, its
 * fact files kept for the verdict section, and who could read each file
 * from the captured facts.
 */
#include "config.h"

#include <sys/types.h>

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleakscan.h"
#include "live.h"

/* The system paths the verdict section reads. */
static const char *const fact_paths[] = {
	"/proc/sys/kernel/kptr_restrict", "/proc/sys/kernel/dmesg_restrict",
	"/proc/sys/kernel/perf_event_paranoid", "/proc/sys/kernel/osrelease",
	"/proc/sys/kernel/arch", "/proc/cmdline", "/proc/cpuinfo",
	"/proc/version", "/sys/kernel/security/lockdown", "/proc/kallsyms",
	"/uname", "/sos_commands/kernel/uname_-a", NULL
};

/*
 * Who could read a file of a captured system, from its captured facts:
 * the kernel log (dmesg_restrict), the files printed through
 * kallsyms_show_value() (kptr_restrict, perf_event_paranoid); else
 * unknown.
 */
static void
captured_who(struct live *lv, const char *name)
{
	const struct facts	*fx = &lv->fx;

	lv->who = "unknown";
	lv->why = "captured system";
	if (strncmp(name, "sos_commands/kernel/dmesg", 25) == 0 || lv->sclog) {
		if (fx->dmesg_restrict == 0) {
			lv->who = "everyone";
			lv->why = "dmesg_restrict=0 (captured)";
		} else if (fx->dmesg_restrict > 0) {
			lv->who = "privileged";
			lv->why = "dmesg_restrict (captured)";
		}
		return;
	}
	if (strcmp(name, "/proc/kallsyms") != 0 &&
	    strcmp(name, "/proc/modules") != 0 &&
	    (strncmp(name, "/sys/module/", 12) != 0 ||
	    strstr(name, "/sections/") == NULL))
		return;
	if (fx->kptr_restrict < 0 || !fx->have_perf)
		return;
	if (fx->kptr_restrict == 0 && fx->perf_event_paranoid <= 1) {
		lv->who = "everyone";
		lv->why = "kptr_restrict=0, perf_event_paranoid<=1 (captured)";
	} else if (fx->kptr_restrict == 0) {
		lv->who = "privileged";
		lv->why = "CAP_SYSLOG (captured)";
	} else {
		lv->who = "privileged";
		lv->why = "kptr_restrict (captured)";
	}
}

/*
 * A captured file: read by the reader (regular files only), bounded in
 * time as a live one, since a capture may lie on a slow or hung file
 * system.
 */
void
captured_file(struct live *lv, const char *path, const char *rpath)
{
	static struct rdata	d;

	lv->files++;
	rd_ask(lv, &lv->priv, RK_FILE, rpath, &d);
	if (audit_failed(lv, path, &d, ""))
		return;
	captured_who(lv, path);
	audit_bytes(lv, path, d.p, (size_t)d.h.len, NULL, 0);
	lv->who = NULL;
}

/*
 * A supportconfig (SUSE's supportutils) is a flat directory of report
 * files, NAME.txt, each a run of sections:
 *	#==[ Configuration File ]===========================#
 *	# /proc/sys/kernel/kptr_restrict
 *	0
 * "Configuration File" and "Log File" sections hold a file of the system
 * (cat, or its last lines), "Command" sections a command's output
 * (boot.txt: "# /bin/dmesg").  The files of /proc, /sys and /var/log are
 * audited under their system paths (lines as in the file); the output of
 * dmesg under the report file's name, with its lines (the rest of that
 * file blanked, so line numbers stay those of the report file).
 */

/* Order strings (qsort of char *). */
static int
strpcmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* Is rel (relative to the root) a report file of a supportconfig? */
static int
sc_is_report(const char *rel)
{
	size_t	n = strlen(rel);

	return (strchr(rel, '/') == NULL && n > 4 &&
	    strcmp(rel + n - 4, ".txt") == 0);
}

/* Is the section kind k (of length n) kind? */
static int
sc_kind(const struct kl_live_section *sec, const char *kind)
{
	return (sec->klen == strlen(kind) &&
	    memcmp(sec->kind, kind, sec->klen) == 0);
}

/* The first word of the title into out (a path or a command). */
static void
sc_word(const struct kl_live_section *sec, char *out, size_t size)
{
	size_t	n;

	for (n = 0; n < sec->tlen && sec->title[n] != ' ' &&
	    sec->title[n] != '\t'; n++)
		;
	snprintf(out, size, "%.*s", (int)n, sec->title);
}

/* Is the section the output of dmesg (or journalctl -k)? */
static int
sc_is_log(const struct kl_live_section *sec)
{
	char		 w[PATH_MAX];
	const char	*b;

	if (!sc_kind(sec, "Command"))
		return (0);
	sc_word(sec, w, sizeof(w));
	b = strrchr(w, '/') != NULL ? strrchr(w, '/') + 1 : w;
	if (strcmp(b, "dmesg") == 0)
		return (1);
	return (strcmp(b, "journalctl") == 0 &&
	    (memmem(sec->title, sec->tlen, " -k", 3) != NULL ||
	    memmem(sec->title, sec->tlen, " --dmesg", 8) != NULL));
}

/* Keep a fact file of a supportconfig (the first copy of each). */
static void
sc_fact(struct live *lv, const char *path, const char *p, size_t n)
{
	size_t	i;

	for (i = 0; i < lv->nafacts; i++)
		if (strcmp(lv->afacts[i].path, path) == 0)
			return;
	for (i = 0; fact_paths[i] != NULL; i++)
		if (strcmp(path, fact_paths[i]) == 0)
			break;
	if (fact_paths[i] == NULL)
		return;
	lv->afacts = xreallocarray(lv->afacts, lv->nafacts + 1,
	    sizeof(*lv->afacts));
	memset(&lv->afacts[lv->nafacts], 0, sizeof(*lv->afacts));
	lv->afacts[lv->nafacts].path = xstrdup(path);
	audit_buf_add(&lv->afacts[lv->nafacts].b, p, n);
	lv->nafacts++;
}

/*
 * A report file of a supportconfig, p[0..n): its facts (facts set), or
 * its audit.  p is changed (masks, the blanked kernel log).
 */
static void
sc_report(struct live *lv, const char *file, char *p, size_t n, int facts)
{
	struct kl_live_section	 sec;
	struct buf	 log;
	char		 path[PATH_MAX];
	const char	*base;
	size_t		 off = 0, i;
	int		 nlog = 0;

	memset(&log, 0, sizeof(log));
	while (kl_live_section(p, n, &off, &sec)) {
		if (sc_is_log(&sec)) {
			/* Kept in place; the rest is blanked below. */
			if (nlog++ == 0) {
				buf_reserve(&log, n + 1);
				for (i = 0; i < n; i++)
					log.p[i] = p[i] == '\n' ? '\n' : ' ';
				log.len = n;
				log.p[n] = '\0';
			}
			memcpy(log.p + sec.body, p + sec.body, sec.blen);
			continue;
		}
		sc_word(&sec, path, sizeof(path));
		if (facts && sc_kind(&sec, "Command")) {
			base = strrchr(path, '/') != NULL ?
			    strrchr(path, '/') + 1 : path;
			if (strcmp(base, "uname") == 0)
				sc_fact(lv, "/uname", p + sec.body, sec.blen);
			continue;
		}
		if (sc_kind(&sec, "Command") || path[0] != '/' ||
		    sec.blen == 0)
			continue;
		if (facts) {
			sc_fact(lv, path, p + sec.body, sec.blen);
			continue;
		}
		if (strncmp(path, "/proc/", 6) != 0 &&
		    strncmp(path, "/sys/", 5) != 0 &&
		    strncmp(path, "/var/log/", 9) != 0)
			continue;
		base = strrchr(path, '/') + 1;
		if (strncmp(path, "/var/log/", 9) != 0) {
			/* One /proc/PID, as on the running system. */
			if (strncmp(path, "/proc/", 6) == 0 &&
			    path[6] >= '0' && path[6] <= '9' &&
			    strncmp(path, "/proc/1/", 8) != 0)
				continue;
			if (audit_skip(path, base)) {
				lv->skipped++;
				continue;
			}
			if (audit_hexrun(path, strlen(path))) {
				audit_buf_add(&lv->names, path, strlen(path));
				audit_buf_add(&lv->names, "\n", 1);
			}
		}
		lv->files++;
		captured_who(lv, path);
		audit_bytes(lv, path, p + sec.body, sec.blen, NULL, 0);
		lv->who = NULL;
	}
	if (!facts && nlog > 0) {
		lv->files++;
		lv->sclog = 1;
		captured_who(lv, file);
		lv->sclog = 0;
		audit_bytes(lv, file, log.p, log.len, NULL, 0);
		lv->who = NULL;
	}
	buf_free(&log);
}

/* The report files of a supportconfig directory: facts, or the audit. */
void
captured_sc(struct live *lv, int facts)
{
	static struct rdata	 d;
	struct dirent		*de;
	char			 rpath[2 * PATH_MAX];
	char			**names = NULL;
	size_t			 n = 0, i;
	DIR			*dir;

	if ((dir = opendir(lv->root)) == NULL)
		return;
	while ((de = readdir(dir)) != NULL)
		if (sc_is_report(de->d_name)) {
			names = xreallocarray(names, n + 1, sizeof(*names));
			names[n++] = xstrdup(de->d_name);
		}
	closedir(dir);
	qsort(names, n, sizeof(*names), strpcmp);
	for (i = 0; i < n; i++) {
		snprintf(rpath, sizeof(rpath), "%s/%s", lv->root, names[i]);
		if (facts) {
			struct rhead	h;
			struct buf	b;

			memset(&h, 0, sizeof(h));
			memset(&b, 0, sizeof(b));
			rd_file(lv, rpath, &b, &h);
			if (h.err == 0 && !(h.flags & RF_NOTREG) && b.len > 0)
				sc_report(lv, names[i], b.p, b.len, 1);
			buf_free(&b);
		} else if (lv->deadline != 0 && rd_now() >= lv->deadline)
			lv->stopped = 1;
		else {
			rd_ask(lv, &lv->priv, RK_FILE, rpath, &d);
			if (!audit_failed(lv, names[i], &d, ""))
				sc_report(lv, names[i], d.p, (size_t)d.h.len,
				    0);
		}
		free(names[i]);
	}
	free(names);
}

/* Open the captured archive; NULL (and an error) when it cannot be. */
static struct archive *
arc_open(struct live *lv)
{
	struct archive	*a;

	if ((a = archive_read_new()) == NULL)
		return (NULL);
	(void)archive_read_support_filter_all(a);
	(void)archive_read_support_format_all(a);
	if (archive_read_open_filename(a, lv->root, 65536) != ARCHIVE_OK) {
		log_error(lv->root, strlen(lv->root), 0, "%s",
		    archive_error_string(a) != NULL ?
		    archive_error_string(a) : "cannot open");
		archive_read_free(a);
		return (NULL);
	}
	return (a);
}

/* Read the data of the current member into b, at most LIVE_FILE_MAX. */
static int
arc_data(struct live *lv, struct archive *a, struct buf *b)
{
	la_ssize_t	r;

	b->len = 0;
	for (;;) {
		buf_reserve(b, b->len + 65536 + 1);
		r = archive_read_data(a, b->p + b->len, 65536);
		if (r < 0)
			return (-1);
		if (r == 0)
			break;
		b->len += (size_t)r;
		if (b->len >= LIVE_FILE_MAX) {
			b->len = LIVE_FILE_MAX;
			lv->cut++;
			break;
		}
	}
	b->p[b->len] = '\0';
	return (0);
}

/* First pass over a captured archive: the fact files and the map. */
void
captured_facts(struct live *lv)
{
	struct archive		*a;
	struct archive_entry	*e;
	const char		*rel;
	struct buf		 b;
	char			 sys[PATH_MAX];
	size_t			 i;
	int			 rc;

	if ((a = arc_open(lv)) == NULL)
		return;
	memset(&b, 0, sizeof(b));
	while ((rc = archive_read_next_header(a, &e)) == ARCHIVE_OK ||
	    rc == ARCHIVE_WARN) {
		if (archive_entry_filetype(e) != AE_IFREG ||
		    (rel = kl_live_relpath(archive_entry_pathname(e))) == NULL)
			continue;
		snprintf(sys, sizeof(sys), "/%s", rel);
		if (sc_is_report(rel)) {
			/* A supportconfig's report files. */
			if (strcmp(rel, "basic-environment.txt") == 0)
				lv->sc = 1;
			if (arc_data(lv, a, &b) == 0 && b.len > 0)
				sc_report(lv, rel, b.p, b.len, 1);
			continue;
		}
		if (strncmp(rel, "boot/System.map-", 16) == 0 &&
		    !lv->fx.have_map_text) {
			if (arc_data(lv, a, &b) == 0 &&
			    facts_map_text(b.p, b.len, &lv->fx) == 0) {
				snprintf(lv->fx.map, sizeof(lv->fx.map),
				    "%s{%s}", lv->root,
				    archive_entry_pathname(e));
				buf_free(&lv->amap);
				lv->amap = b;
				memset(&b, 0, sizeof(b));
			}
			continue;
		}
		for (i = 0; fact_paths[i] != NULL; i++)
			if (strcmp(sys, fact_paths[i]) == 0)
				break;
		if (fact_paths[i] == NULL)
			continue;
		lv->afacts = xreallocarray(lv->afacts, lv->nafacts + 1,
		    sizeof(*lv->afacts));
		memset(&lv->afacts[lv->nafacts], 0, sizeof(*lv->afacts));
		lv->afacts[lv->nafacts].path = xstrdup(sys);
		if (arc_data(lv, a, &lv->afacts[lv->nafacts].b) == -1)
			lv->afacts[lv->nafacts].b.len = 0;
		lv->nafacts++;
	}
	if (rc != ARCHIVE_EOF)
		log_error(lv->root, strlen(lv->root), 0, "%s",
		    archive_error_string(a) != NULL ?
		    archive_error_string(a) : "cannot read");
	buf_free(&b);
	archive_read_free(a);
}

/* Is rel (relative to the root) a kernel log of a captured system? */
static int
is_captured_log(const char *rel)
{
	return (strncmp(rel, "sos_commands/kernel/dmesg", 25) == 0 ||
	    strncmp(rel, "var/log/", 8) == 0);
}

/* Second pass over a captured archive: audit it as the system. */
void
captured_walk(struct live *lv)
{
	struct archive		*a;
	struct archive_entry	*e;
	const char		*rel, *name, *base, *t;
	static struct buf	 b;
	char			 sys[PATH_MAX];
	size_t			 n;
	int			 rc, sysfile;

	if ((a = arc_open(lv)) == NULL)
		return;
	while ((rc = archive_read_next_header(a, &e)) == ARCHIVE_OK ||
	    rc == ARCHIVE_WARN) {
		if ((rel = kl_live_relpath(archive_entry_pathname(e))) ==
		    NULL || *rel == '\0')
			continue;
		if (lv->sc && sc_is_report(rel) &&
		    archive_entry_filetype(e) == AE_IFREG) {
			if (lv->deadline != 0 && rd_now() >= lv->deadline) {
				lv->stopped = 1;
				break;
			}
			if (arc_data(lv, a, &b) == -1) {
				lv->unreadable++;
				audit_note(lv, rel, "not read: %s",
				    archive_error_string(a) != NULL ?
				    archive_error_string(a) : "read error");
			} else
				sc_report(lv, rel, b.p, b.len, 0);
			continue;
		}
		n = strlen(rel);
		while (n > 0 && rel[n - 1] == '/')
			n--;
		snprintf(sys, sizeof(sys), "/%.*s", (int)n, rel);
		sysfile = strncmp(rel, "proc/", 5) == 0 ||
		    strncmp(rel, "sys/", 4) == 0;
		if (!sysfile && !is_captured_log(rel))
			continue;
		if (lv->deadline != 0 && rd_now() >= lv->deadline) {
			lv->stopped = 1;
			break;
		}
		base = strrchr(sys, '/') + 1;
		if (archive_entry_filetype(e) == AE_IFLNK) {
			lv->symlinks++;
			t = archive_entry_symlink(e);
			if (t != NULL && t[0] == '/') {
				lv->outside++;
				audit_note(lv, sys, "absolute symlink to %s: "
				    "not followed out of the root", t);
			}
			continue;
		}
		if (sysfile) {
			/* One /proc/PID, as on the running system. */
			if (strncmp(sys, "/proc/", 6) == 0 && sys[6] >= '0' &&
			    sys[6] <= '9' && strncmp(sys, "/proc/1/", 8) != 0 &&
			    strcmp(sys, "/proc/1") != 0)
				continue;
			if (audit_skip(sys, base)) {
				lv->skipped++;
				continue;
			}
			if (audit_hexrun(sys, strlen(sys))) {
				audit_buf_add(&lv->names, sys, strlen(sys));
				audit_buf_add(&lv->names, "\n", 1);
			}
		}
		if (archive_entry_filetype(e) == AE_IFDIR) {
			lv->dirs++;
			continue;
		}
		if (archive_entry_filetype(e) != AE_IFREG) {
			lv->skipped++;
			continue;
		}
		lv->files++;
		if (arc_data(lv, a, &b) == -1) {
			lv->unreadable++;
			audit_note(lv, sys, "not read: %s",
			    archive_error_string(a) != NULL ?
			    archive_error_string(a) : "read error");
			continue;
		}
		/* A captured log is named as in the capture. */
		name = sysfile || strncmp(rel, "var/log/", 8) == 0 ? sys : rel;
		captured_who(lv, name);
		audit_bytes(lv, name, b.p, b.len, NULL, 0);
		lv->who = NULL;
	}
	if (rc != ARCHIVE_EOF && !lv->stopped)
		log_error(lv->root, strlen(lv->root), 0, "%s",
		    archive_error_string(a) != NULL ?
		    archive_error_string(a) : "cannot read");
	archive_read_free(a);
}

/*
 * The kernel logs of a captured directory: sos_commands/kernel/dmesg*;
 * 1 when it holds a /var/log for the walk.
 */
int
captured_logs(struct live *lv)
{
	char		 dir[PATH_MAX], rpath[2 * PATH_MAX], name[PATH_MAX];
	struct dirent	*de;
	DIR		*d;

	snprintf(dir, sizeof(dir), "%s/sos_commands/kernel", lv->root);
	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strncmp(de->d_name, "dmesg", 5) != 0)
				continue;
			snprintf(name, sizeof(name), "sos_commands/kernel/%s",
			    de->d_name);
			snprintf(rpath, sizeof(rpath), "%s/%s", lv->root, name);
			captured_file(lv, name, rpath);
		}
		closedir(d);
	}
	snprintf(dir, sizeof(dir), "%s/var/log", lv->root);
	return (access(dir, F_OK) == 0);
}

/* The system files a captured directory may hold of its kernel. */
static const char *const kernel_files[] = {
	"proc/kallsyms", "proc/sys/kernel/osrelease",
	"sos_commands/kernel/uname_-a", NULL
};

/* Read the file path whole (at most LIVE_FILE_MAX) into b: 0, or -1. */
static int
read_whole(const char *path, struct buf *b)
{
	FILE	*f;
	size_t	 r;

	b->len = 0;
	if ((f = fopen(path, "re")) == NULL)
		return (-1);
	for (;;) {
		buf_reserve(b, b->len + 65536 + 1);
		r = fread(b->p + b->len, 1, 65536, f);
		b->len += r;
		if (r == 0 || b->len >= LIVE_FILE_MAX)
			break;
	}
	if (b->len > LIVE_FILE_MAX)
		b->len = LIVE_FILE_MAX;
	b->p[b->len] = '\0';
	r = (size_t)ferror(f);
	fclose(f);
	return (r != 0 ? -1 : 0);
}

/*
 * The files of a captured system (a directory, or an archive such as a
 * sosreport) that tell where its kernel sits, for --redact-style=deslide:
 * got(arg, rel, bytes, n) for each regular file, relative to the
 * system's root (kl_live_relpath()), that want(arg, rel) asks for, read
 * whole up to LIVE_FILE_MAX.  A directory is asked for its kallsyms,
 * osrelease, uname -a and boot/System.map-*; an archive for each of its
 * members, in one reading of it before it is rewritten.  Returns 0, or
 * -1 when root cannot be read as either.
 */
int
captured_kernel_files(const char *root, int is_dir,
    int (*want)(void *, const char *),
    void (*got)(void *, const char *, const char *, size_t), void *arg)
{
	struct archive		*a;
	struct archive_entry	*e;
	struct dirent		*de;
	struct buf		 b;
	const char		*rel;
	char			 path[2 * PATH_MAX], name[PATH_MAX];
	DIR			*d;
	la_ssize_t		 r;
	size_t			 i;
	int			 rc = 0;

	memset(&b, 0, sizeof(b));
	if (is_dir) {
		for (i = 0; kernel_files[i] != NULL; i++) {
			snprintf(path, sizeof(path), "%s/%s", root,
			    kernel_files[i]);
			if (want(arg, kernel_files[i]) &&
			    read_whole(path, &b) == 0)
				got(arg, kernel_files[i], b.p, b.len);
		}
		snprintf(path, sizeof(path), "%s/boot", root);
		if ((d = opendir(path)) != NULL) {
			while ((de = readdir(d)) != NULL) {
				snprintf(name, sizeof(name), "boot/%s",
				    de->d_name);
				snprintf(path, sizeof(path), "%s/%s", root,
				    name);
				if (strncmp(de->d_name, "System.map-", 11) ==
				    0 && want(arg, name) &&
				    read_whole(path, &b) == 0)
					got(arg, name, b.p, b.len);
			}
			closedir(d);
		}
		buf_free(&b);
		return (0);
	}
	if ((a = archive_read_new()) == NULL)
		return (-1);
	(void)archive_read_support_filter_all(a);
	(void)archive_read_support_format_all(a);
	if (archive_read_open_filename(a, root, 65536) != ARCHIVE_OK) {
		archive_read_free(a);
		return (-1);
	}
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK ||
	    r == ARCHIVE_WARN) {
		if (archive_entry_filetype(e) != AE_IFREG ||
		    (rel = kl_live_relpath(archive_entry_pathname(e))) ==
		    NULL || !want(arg, rel))
			continue;
		for (b.len = 0;;) {
			buf_reserve(&b, b.len + 65536 + 1);
			if ((r = archive_read_data(a, b.p + b.len, 65536)) <= 0)
				break;
			b.len += (size_t)r;
			if (b.len >= LIVE_FILE_MAX)
				break;
		}
		if (r < 0) {
			rc = -1;
			break;
		}
		b.p[b.len] = '\0';
		got(arg, rel, b.p, b.len);
	}
	archive_read_free(a);
	buf_free(&b);
	return (rc);
}
