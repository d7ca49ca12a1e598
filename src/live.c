/*
 * live.c - --live and --live-root: audit a running system, or a captured
 * one, as scripts/leaking_addresses.pl does, from an unprivileged user's
 * point of view.
 *
 * The kernel log comes first (/dev/kmsg, non-blocking, from the start of
 * the ring; klogctl(2) when /dev/kmsg cannot be read), then a
 * breadth-first walk of /proc and /sys: symlinks are never followed, one
 * /proc/PID directory is walked, path names are checked as text, the
 * skips of leaking_addresses.pl and a few more apply.  Files are read by
 * reader processes that can be killed: one with the caller's privileges
 * and, run as root, one that dropped them (--live-user), so every finding
 * says who can read it.  Nothing is ever written to /proc or /sys.
 *
 * A captured tree (a copied /proc and /sys, a sosreport or supportconfig
 * directory or archive) is read as the system it came from: its files are
 * named by the system's paths, and symlinks are never followed.
 *
 * This file holds the run: its state, its order (what the system is, the
 * walk, the printing) and what the scan asks of the unit being scanned
 * (who can read a finding, its symbol, the squashed view).
 */
#include "config.h"

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleakscan.h"
#include "live.h"

static struct live	 lv;

/* Who can read a finding of the unit being scanned, and why. */
const char *
live_who(const struct input *in, const struct kl_finding *f,
    const char **why)
{
	(void)in;
	*why = NULL;
	if (!lv.active)
		return (NULL);
	if (lv.who != NULL) {
		*why = lv.why;
		return (lv.who);
	}
	if (lv.uerr == 0 && audit_has_val(&lv, f->value)) {
		snprintf(lv.whybuf, sizeof(lv.whybuf), "read as %s",
		    lv.user);
		*why = lv.whybuf;
		return ("everyone");
	}
	if (lv.uerr != 0) {
		if (lv.is_kmsg)
			*why = lv.fx.dmesg_restrict > 0 ? "dmesg_restrict" :
			    "CAP_SYSLOG";
		else if (lv.uerr == EACCES || lv.uerr == EPERM)
			*why = (lv.mode & S_IROTH) ? "access check" :
			    "file mode";
		else
			*why = strerror(lv.uerr);
	} else if (lv.is_kmsg)
		*why = "CAP_SYSLOG";
	else if (lv.fx.kptr_restrict > 0)
		*why = "kptr_restrict";
	else
		*why = "CAP_SYSLOG";
	return ("privileged");
}

/*
 * Does a finding count for the exit status?  What an unprivileged user
 * reads; all of it with --live-privileged, or in a capture (its reader
 * holds every byte).
 */
int
live_counts(const struct kl_finding *f)
{
	const char	*who, *why;

	if (!lv.active)
		return (1);
	who = live_who(NULL, f, &why);
	if (strcmp(who, "privileged") == 0) {
		lv.privileged++;
		return (lv.cli->live_privileged || lv.root != NULL);
	}
	if (strcmp(who, "unknown") == 0)
		lv.unknown++;
	else
		lv.everyone++;
	return (1);
}

/*
 * The symbol of a text finding of the system's present state (its files,
 * its kernel log, its path names) that the scan left without one: the
 * system's map at the system's slide (kallsyms _text less the map's), as
 * %pS prints it.  NULL when there is no map, no slide, or no symbol.
 */
const char *
live_symbol(const struct kl_finding *f)
{
	const struct facts	*fx = &lv.fx;
	struct kl_sym_hit	 h;
	uint64_t		 slide, base;
	int			 n;

	if (!lv.active || !lv.sysunit || fx->symtab == NULL ||
	    !fx->have_map_text || facts_slide_base(fx, &base) != 0 ||
	    fx->text < base || f->suppressed != KL_SUP_NONE ||
	    f->region != KL_REGION_TEXT)
		return (NULL);
	slide = fx->text - base;
	if (f->value < slide || !kl_sym_lookup(fx->symtab, f->value - slide,
	    &h) || h.module != NULL)
		return (NULL);
	n = kl_sym_format(&h, lv.sym, sizeof(lv.sym));
	return (n > 0 && (size_t)n < sizeof(lv.sym) ? lv.sym : NULL);
}

/* --squash-by-*: keep the finding for the squashed view; 1 if kept. */
int
live_squash(const struct input *in, const struct kl_finding *f,
    const char *sym)
{
	const char	*key, *s;
	struct squash	*q;
	size_t		 i;

	(void)sym;
	if (lv.cli == NULL ||
	    (!lv.cli->squash_by_path && !lv.cli->squash_by_filename))
		return (0);
	key = in->name;
	if (lv.cli->squash_by_filename && (s = strrchr(key, '/')) != NULL &&
	    s[1] != '\0')
		key = s + 1;
	q = NULL;
	if (lv.nsq > 0 && strcmp(lv.sq[lv.lastsq].key, key) == 0)
		q = &lv.sq[lv.lastsq];
	for (i = 0; q == NULL && i < lv.nsq; i++)
		if (strcmp(lv.sq[i].key, key) == 0) {
			q = &lv.sq[i];
			lv.lastsq = i;
		}
	if (q == NULL) {
		if (lv.nsq == lv.asq) {
			lv.asq = lv.asq ? 2 * lv.asq : 64;
			lv.sq = xreallocarray(lv.sq, lv.asq, sizeof(*lv.sq));
		}
		q = &lv.sq[lv.nsq];
		lv.lastsq = lv.nsq++;
		memset(q, 0, sizeof(*q));
		q->key = xstrdup(key);
		q->exlen = f->ltext != NULL ? f->llen : 0;
		q->example = xmalloc(q->exlen + 1);
		if (q->exlen > 0)
			memcpy(q->example, f->ltext, q->exlen);
		q->example[q->exlen] = '\0';
	}
	q->count++;
	return (1);
}

/* Print the squashed view of a run that was not live. */
void
live_finish(const struct cli *cli)
{
	lv.cli = cli;
	live_print_squash(&lv);
}

/*
 * Before the engine is made: what the system is (its architecture, when
 * --arch is not given; its System.map, when no map is given), the
 * readers, the facts of the verdict section.
 */
void
live_prepare(struct cli *cli)
{
	static const char	*map[1];
	struct passwd		*pw;
	struct stat		 st;

	memset(&lv, 0, sizeof(lv));
	lv.cli = cli;
	lv.memfd = -1;
	lv.priv.fd = lv.unpriv.fd = -1;
	lv.ownpid = getpid();
	lv.secs = LIVE_FILE_SECS;
	if (!cli->live && cli->live_root == NULL)
		return;
	rd_faults(&lv);
	if (cli->live_timeout != 0)
		lv.deadline = rd_now() + (time_t)cli->live_timeout;
	if (cli->live_root != NULL) {
		lv.root = cli->live_root;
		if (stat(lv.root, &st) == -1)
			log_fatal("%s: %s", lv.root, strerror(errno));
		lv.root_dir = S_ISDIR(st.st_mode);
		if (!lv.root_dir)
			captured_facts(&lv);
		else {
			char	sc[PATH_MAX];

			snprintf(sc, sizeof(sc), "%s/basic-environment.txt",
			    lv.root);
			if (access(sc, F_OK) == 0) {
				lv.sc = 1;
				captured_sc(&lv, 1);
			}
		}
	} else if (geteuid() == 0) {
		lv.asroot = 1;
		lv.user = cli->live_user != NULL ? cli->live_user : "nobody";
		if ((pw = getpwnam(lv.user)) == NULL)
			log_fatal("--live-user: no user '%s'", lv.user);
		if (pw->pw_uid == 0)
			log_fatal("--live-user: '%s' is root", lv.user);
		lv.uid = pw->pw_uid;
		lv.gid = pw->pw_gid;
		lv.unpriv.drop = 1;
		if (rd_start(&lv, &lv.priv) == -1 ||
		    rd_start(&lv, &lv.unpriv) == -1)
			log_fatal("cannot start a reader: %s",
			    strerror(errno));
	} else {
		pw = getpwuid(geteuid());
		lv.user = xstrdup(pw != NULL ? pw->pw_name : "this user");
		if (rd_start(&lv, &lv.priv) == -1)
			log_fatal("cannot start a reader: %s",
			    strerror(errno));
	}
	facts_learn(&lv);
	facts_symbols(&lv);
	facts_arch(&lv);
	if (lv.amap.len > 0)	/* the map of a captured archive */
		facts_map_load(&lv, lv.amap.p, lv.amap.len, lv.fx.map);
	buf_free(&lv.amap);
	if (!cli->arch_set && lv.fx.arch != KL_ARCH_AUTO) {
		cli->kl.arch = lv.fx.arch;
		if (!cli->page_offset_set && lv.fx.page_offset != 0 &&
		    lv.fx.page_offset != UINT64_C(0xc0000000))
			cli->kl.page_offset = lv.fx.page_offset;
	}
	if (cli->nmaps == 0 && lv.fx.have_map_text &&
	    (lv.root == NULL || lv.root_dir)) {
		map[0] = lv.fx.map;
		cli->maps = map;
		cli->nmaps = 1;
	}
}

/* Audit the live or captured system: findings go through scan. */
void
live_run(const struct cli *cli, int (*scan)(const char *, int))
{
	size_t	i;

	lv.cli = cli;
	lv.scan = scan;
	if (lv.root == NULL)
		live_kmsg(&lv);
	if (lv.root != NULL && !lv.root_dir)
		captured_walk(&lv);
	else if (lv.sc)
		captured_sc(&lv, 0);
	else {
		live_walk(&lv, "/proc");
		live_walk(&lv, "/sys");
		if (lv.root != NULL && captured_logs(&lv))
			live_walk(&lv, "/var/log");
	}
	live_names(&lv);
	rd_stop(&lv.priv, 0);
	rd_stop(&lv.unpriv, 0);
	if (lv.memfd != -1)
		close(lv.memfd);
	lv.memfd = -1;
	if (lv.stopped)
		log_error(lv.root != NULL ? lv.root : "live", strlen(
		    lv.root != NULL ? lv.root : "live"), 0, "stopped at "
		    "--live-timeout=%u: the audit is not complete",
		    cli->live_timeout);
	if (!cli->quiet && cli->mode == MODE_LINES) {
		live_print_squash(&lv);
		live_print_verdict(&lv);
		live_print_counts(&lv);
	}
	for (i = 0; i < lv.nafacts; i++) {
		free(lv.afacts[i].path);
		buf_free(&lv.afacts[i].b);
	}
	free(lv.afacts);
	lv.afacts = NULL;
	lv.nafacts = 0;
	free(lv.vals);
	lv.vals = NULL;
	buf_free(&lv.names);
	buf_free(&lv.unames);
	buf_free(&lv.esc);
	kl_sym_free(lv.fx.symtab);
	lv.fx.symtab = NULL;
}
