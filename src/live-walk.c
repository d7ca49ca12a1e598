/*
 * live-walk.c - the walk of the audited system: the kernel log of the
 * running one (/dev/kmsg, else klogctl(2)), then /proc and /sys breadth
 * first, symlinks never followed, one /proc/PID; run as root, a file that
 * may hold an address is read again as --live-user; last, the path names
 * of the walk, checked as text.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleakscan.h"
#include "live.h"

/* A directory waiting in the breadth-first queue. */
struct qdir {
	char		*path;		/* system path */
	int		 listable;	/* every user can list it */
};

/* Read a live file (both views when root) and audit it. */
static void
live_file(struct live *lv, const char *path, mode_t mode)
{
	static struct rdata	a, b;

	lv->files++;
	rd_ask(lv, &lv->priv, RK_FILE, path, &a);
	if (audit_failed(lv, path, &a, ""))
		return;
	lv->uerr = 0;
	lv->mode = mode;
	lv->is_kmsg = 0;
	if (!lv->asroot) {
		lv->who = "everyone";
		snprintf(lv->whybuf, sizeof(lv->whybuf), "read as %s",
		    lv->user);
		lv->why = lv->whybuf;
		audit_bytes(lv, path, a.p, (size_t)a.h.len, NULL, 0);
		return;
	}
	/* Only what may hold an address is read again as the user. */
	if (!audit_binary(a.p, (size_t)a.h.len) &&
	    !audit_hexrun(a.p, (size_t)a.h.len))
		return;
	rd_ask(lv, &lv->unpriv, RK_FILE, path, &b);
	if (b.timeout)
		lv->uerr = ETIMEDOUT;
	else if (b.h.err != 0 && b.h.len == 0)
		lv->uerr = b.h.err;
	else if (b.h.flags & RF_NOTREG)
		lv->uerr = EACCES;
	audit_bytes(lv, path, a.p, (size_t)a.h.len, lv->uerr == 0 ? b.p : NULL,
	    lv->uerr == 0 ? (size_t)b.h.len : 0);
	if (lv->uerr != 0)
		lv->nvals = 0;
}

/* The kernel log of the running system. */
void
live_kmsg(struct live *lv)
{
	static struct rdata	a, b;
	const char		*name;

	lv->klog = -1;
	rd_ask(lv, &lv->priv, RK_KMSG, "/dev/kmsg", &a);
	if (audit_failed(lv, "/dev/kmsg", &a, ""))
		return;
	name = (a.h.flags & RF_KLOGCTL) ? "klogctl" : "/dev/kmsg";
	lv->klog = (a.h.flags & RF_KLOGCTL) != 0;
	lv->files++;
	lv->is_kmsg = 1;
	lv->uerr = 0;
	if (!lv->asroot) {
		lv->who = "everyone";
		snprintf(lv->whybuf, sizeof(lv->whybuf), "read as %s",
		    lv->user);
		lv->why = lv->whybuf;
		audit_scan(lv, name, a.p, (size_t)a.h.len);
		return;
	}
	rd_ask(lv, &lv->unpriv, RK_KMSG, "/dev/kmsg", &b);
	if (b.timeout)
		lv->uerr = ETIMEDOUT;
	else if (b.h.err != 0)
		lv->uerr = b.h.err;
	audit_vals(lv, lv->uerr == 0 ? b.p : "", lv->uerr == 0 ?
	    (size_t)b.h.len : 0);
	audit_scan(lv, name, a.p, (size_t)a.h.len);
	lv->is_kmsg = 0;
}

/* Check the path names of the walk as text, one per line. */
void
live_names(struct live *lv)
{
	if (lv->names.len == 0)
		return;
	lv->uerr = 0;
	lv->is_kmsg = 0;
	if (lv->root != NULL) {
		lv->who = "unknown";
		lv->why = "captured system";
	} else if (!lv->asroot) {
		lv->who = "everyone";
		lv->why = "listed as this user";
	} else
		audit_vals(lv, lv->unames.p != NULL ? lv->unames.p : "",
		    lv->unames.len);
	audit_scan(lv, "path-names", lv->names.p, lv->names.len);
}

/* Walk the directories from top, breadth first. */
void
live_walk(struct live *lv, const char *top)
{
	struct qdir	*q = NULL;
	size_t		 nq = 0, aq = 0, head = 0;
	char		 rbuf[PATH_MAX], path[PATH_MAX], lnk[PATH_MAX];
	const char	*rdir;
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	int		 dfd, n, listable;
	ssize_t		 ln;
	char		*dirpath;

	q = xreallocarray(NULL, 16, sizeof(*q));
	aq = 16;
	q[nq].path = xstrdup(top);
	q[nq++].listable = 1;
	while (head < nq) {
		dirpath = q[head].path;
		listable = q[head].listable;
		head++;
		if (lv->deadline != 0 && rd_now() >= lv->deadline) {
			lv->stopped = 1;
			free(dirpath);
			continue;
		}
		rdir = facts_in_root(lv, dirpath, rbuf, sizeof(rbuf));
		if ((dfd = open(rdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC)) == -1 || (d = fdopendir(dfd)) == NULL) {
			if (dfd != -1)
				close(dfd);
			if (errno == ENOENT)
				lv->vanished++;
			else
				lv->unreadable++;
			if (errno != EACCES || !lv->asroot)
				audit_note(lv, dirpath,
				    "directory not read: %s",
				    strerror(errno));
			free(dirpath);
			continue;
		}
		lv->dirs++;
		while ((de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			n = snprintf(path, sizeof(path), "%s/%s",
			    strcmp(dirpath, "/") == 0 ? "" : dirpath,
			    de->d_name);
			if (n < 0 || (size_t)n >= sizeof(path)) {
				audit_note(lv, dirpath, "%s",
				    "name too long: skipped");
				continue;
			}
			if (fstatat(dfd, de->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) == -1) {
				lv->vanished++;
				audit_note(lv, path, "%s",
				    "vanished during the walk");
				continue;
			}
			if (S_ISLNK(st.st_mode)) {
				lv->symlinks++;
				ln = readlinkat(dfd, de->d_name, lnk,
				    sizeof(lnk) - 1);
				if (lv->root != NULL && ln > 0 &&
				    lnk[0] == '/') {
					lnk[ln] = '\0';
					lv->outside++;
					audit_note(lv, path, "absolute "
					    "symlink to %s: not followed out "
					    "of the root", lnk);
				}
				continue;
			}
			/* One /proc/PID: 1, or our own when not root. */
			if (strcmp(dirpath, "/proc") == 0 &&
			    de->d_name[0] >= '0' && de->d_name[0] <= '9') {
				char	own[32];

				snprintf(own, sizeof(own), "%ld",
				    (long)lv->ownpid);
				if (strcmp(de->d_name, (lv->root != NULL ||
				    lv->asroot) ? "1" : own) != 0)
					continue;
			}
			if (audit_skip(path, de->d_name)) {
				lv->skipped++;
				continue;
			}
			if (audit_hexrun(path, (size_t)n)) {
				audit_buf_add(&lv->names, path, (size_t)n);
				audit_buf_add(&lv->names, "\n", 1);
				if (listable) {
					audit_buf_add(&lv->unames, path,
					    (size_t)n);
					audit_buf_add(&lv->unames, "\n", 1);
				}
			}
			if (S_ISDIR(st.st_mode)) {
				if (nq == aq) {
					aq *= 2;
					q = xreallocarray(q, aq, sizeof(*q));
				}
				q[nq].path = xstrdup(path);
				q[nq++].listable = listable &&
				    (st.st_mode & S_IROTH) &&
				    (st.st_mode & S_IXOTH);
				continue;
			}
			if (!S_ISREG(st.st_mode)) {
				lv->skipped++;
				continue;
			}
			if (lv->deadline != 0 && rd_now() >= lv->deadline) {
				lv->stopped = 1;
				break;
			}
			if (lv->root != NULL)
				captured_file(lv, path, facts_in_root(lv,
				    path, rbuf, sizeof(rbuf)));
			else
				live_file(lv, path, st.st_mode);
		}
		closedir(d);
		free(dirpath);
	}
	free(q);
}
