/*
 * merge.c - --merge: one report from the reports of many runs.
 *
 * A --report --json output ends with a "merge_state" event (the version,
 * the options as given but for --shard, -j and -s, the listing and the
 * shards it covers, the errors, whether a leak was found and every total
 * of the summary) and one "merge_row" event per row of the report, --top
 * or not (the row as kl_report_write() gives it, its examples masked
 * unless --show-addresses, and the places in the listing of its first
 * and last example), before the summary.  --merge reads such outputs
 * (merge-read.c), checks that they were made by this version with the
 * same options and that no shard of a listing comes twice, adds the
 * totals, merges the rows in no order (kl_report_merge_any()) and prints
 * the report with the options the inputs were made with: the bytes one
 * run over every input prints.  A listing some of whose shards are
 * missing is an error (exit 2) after the report is printed, so that a
 * stage of a staged merge still gives its output.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "merge.h"

#define READ_CHUNK	(1024 * 1024)

static struct {
	struct mstate	 st;		/* what the merged inputs say */
} mg;

/* Read a whole file (- for stdin) into *p; -1 with errno set. */
static int
slurp(const char *name, uint8_t **p, size_t *n)
{
	uint8_t	*b = NULL;
	size_t	 len = 0, cap = 0;
	ssize_t	 r;
	int	 fd, e;

	if (strcmp(name, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(name, O_RDONLY | O_NOCTTY | O_CLOEXEC)) == -1)
		return (-1);
	for (;;) {
		if (cap - len < READ_CHUNK) {
			cap = cap == 0 ? READ_CHUNK : cap * 2;
			b = xreallocarray(b, cap, 1);
		}
		r = read(fd, b + len, cap - len);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	e = errno;
	if (fd != STDIN_FILENO)
		close(fd);
	if (r == -1) {
		free(b);
		errno = e;
		return (-1);
	}
	*p = b;
	*n = len;
	return (0);
}

/* Report an error about a file given to --merge. */
static void
merge_error(const char *name, uint64_t line, const char *msg)
{
	if (strcmp(name, "-") == 0)
		name = "(standard input)";
	log_error(name, strlen(name), line, "%s", msg);
}

/*
 * Add the listings of a file (st) to the merge's; a message when they
 * overlap: a shard given twice, shards of one listing counted out of
 * different N, a whole listing and some of its shards.
 */
static const char *
add_cover(struct mstate *all, const struct mstate *st, char *msg,
    size_t size)
{
	struct mcover	*c, *into;
	size_t		 i, j;
	unsigned	 k;

	/* Check every listing first: a file is taken whole or not at all. */
	for (i = 0; i < st->ncover; i++) {
		c = &st->cover[i];
		for (j = 0; j < all->ncover; j++) {
			into = &all->cover[j];
			if (into->hash != c->hash || into->inputs != c->inputs)
				continue;
			if (into->n == 0 && c->n == 0)
				continue;
			if (into->n == 0) {
				for (k = 0; k < c->n && !c->have[k]; k++)
					;
				snprintf(msg, size, "shard %u/%u is in "
				    "another report already (all of its "
				    "listing)", k + 1, c->n);
				return (msg);
			}
			if (c->n == 0) {
				snprintf(msg, size, "holds all of a listing "
				    "some shards of which another report "
				    "holds already");
				return (msg);
			}
			if (into->n != c->n) {
				snprintf(msg, size, "made with --shard K/%u, "
				    "another with --shard K/%u of the same "
				    "inputs", c->n, into->n);
				return (msg);
			}
			for (k = 0; k < c->n; k++)
				if (c->have[k] && into->have[k]) {
					snprintf(msg, size, "shard %u/%u is "
					    "in another report already", k + 1,
					    c->n);
					return (msg);
				}
		}
	}
	for (i = 0; i < st->ncover; i++) {
		c = &st->cover[i];
		for (j = 0; j < all->ncover; j++)
			if (all->cover[j].hash == c->hash &&
			    all->cover[j].inputs == c->inputs)
				break;
		if (j == all->ncover) {
			all->cover = xreallocarray(all->cover,
			    all->ncover + 1, sizeof(*all->cover));
			into = &all->cover[all->ncover++];
			*into = *c;
			into->have = NULL;
			if (c->n > 0) {
				into->have = xmalloc(c->n);
				memset(into->have, 0, c->n);
			}
		}
		into = &all->cover[j];
		for (k = 0; k < c->n; k++)
			into->have[k] |= c->have[k];
		if (into->n > 0 && merge_cover_complete(into)) {
			free(into->have);
			into->have = NULL;
			into->n = 0;
		}
	}
	return (NULL);
}

/* Are two option lists the same? */
static int
same_opts(const struct mstate *a, const struct mstate *b)
{
	size_t	i;

	if (a->nopts != b->nopts)
		return (0);
	for (i = 0; i < a->nopts; i++)
		if (strcmp(a->opts[i], b->opts[i]) != 0)
			return (0);
	return (1);
}

/*
 * Would the options of a report do something else than print it (help,
 * version, completions, a live audit)?  They come from a file.
 */
static int
foreign_opts(const struct mstate *st)
{
	static const char *const other[] = {
		"help", "version", "completion", "list-arches", "live",
		"live-root", "redact", "merge", "shard"
	};
	const char	*w;
	size_t		 i, k;
	int		 arg;

	for (i = 0; i < st->nopts; i++) {
		w = st->opts[i];
		if (w[0] == '-' && w[1] != '-' && strchr(w, 'V') != NULL)
			return (1);
		for (k = 0; k < sizeof(other) / sizeof(other[0]); k++)
			if (merge_is_opt(w, other[k], &arg))
				return (1);
	}
	return (0);
}

/*
 * Take one report at p[0..n) of file name (its lines from base + 1) into
 * the merge; *used is its length.  0 when it is bad (the error is
 * reported): the rest of the file is not read.
 */
static int
merge_one(const char *name, const uint8_t *p, size_t n, uint64_t base,
    size_t *used, struct kl_report *total, struct jobres *sum, int *taken,
    const char **first)
{
	struct mstate		 st, *all = &mg.st;
	struct kl_report	*rep;
	struct jobres		 one;
	char			 msg[512];
	const char		*bad = NULL;
	uint64_t		 line = 0;
	size_t			 k;

	if ((rep = kl_report_new()) == NULL)
		log_fatal("out of memory");
	if (merge_read(p, n, &st, rep, used, &line, msg, sizeof(msg)) == -1)
		bad = msg;
	else if (foreign_opts(&st)) {
		snprintf(msg, sizeof(msg), "its options are not those of a "
		    "report");
		bad = msg;
		line = 0;
	}
	else if (*taken && strcmp(st.version, all->version) != 0) {
		snprintf(msg, sizeof(msg), "made by kleakscan %.64s, not "
		    "%.64s as %.200s", st.version, all->version, *first);
		bad = msg;
		line = 0;
	} else if (*taken && !same_opts(&st, all)) {
		snprintf(msg, sizeof(msg), "made with other options than "
		    "%.200s", *first);
		bad = msg;
		line = 0;
	} else if ((bad = add_cover(all, &st, msg, sizeof(msg))) != NULL)
		line = 0;
	if (bad != NULL) {
		merge_error(name, line != 0 ? base + line : 0, bad);
		mstate_free(&st);
		kl_report_free(rep);
		return (0);
	}
	if (!*taken) {
		*first = name;
		all->version = xstrdup(st.version);
		all->nopts = st.nopts;
		all->opts = xreallocarray(NULL, st.nopts + 1, sizeof(char *));
		for (k = 0; k < st.nopts; k++)
			all->opts[k] = xstrdup(st.opts[k]);
		*taken = 1;
	}
	memset(&one, 0, sizeof(one));
	one.tot = st.tot;
	jobres_add(sum, &one);
	all->errors += st.errors;
	all->leaked |= st.leaked;
	if (kl_report_merge_any(total, rep) == -1)
		log_fatal("out of memory");
	mstate_free(&st);
	kl_report_free(rep);
	return (1);
}

/* --merge FILE...: print the report of every input of the files; exit. */
_Noreturn void
merge_main(const struct cli *cli)
{
	static char		*stdin_only[] = { (char *)"-", NULL };
	struct mstate		*all = &mg.st;
	struct kl_report	*total;
	struct jobres		 sum;
	const struct printer	*pr;
	struct cli		 rc;
	char			**files, **argv;
	const char		*first = NULL;
	uint8_t			*p;
	uint64_t		 errs, base;
	size_t			 n, i, nfiles, k, off, used;
	int			 taken = 0, status, leaked, incomplete = 0;

	files = cli->noperands > 0 ? cli->operands : stdin_only;
	nfiles = cli->noperands > 0 ? (size_t)cli->noperands : 1;
	if (cli->noperands == 0 && isatty(STDIN_FILENO))
		log_usage("--merge: give the report FILEs, or - for "
		    "standard input");
	if ((total = kl_report_new()) == NULL)
		log_fatal("out of memory");
	memset(&sum, 0, sizeof(sum));
	memset(all, 0, sizeof(*all));
	for (i = 0; i < nfiles; i++) {
		if (slurp(files[i], &p, &n) == -1) {
			merge_error(files[i], 0, strerror(errno));
			continue;
		}
		off = 0;
		base = 0;
		do {
			if (!merge_one(files[i], p + off, n - off, base, &used,
			    total, &sum, &taken, &first))
				break;
			for (k = off; k < off + used; k++)
				base += p[k] == '\n';
			off += used;
		} while (off < n);
		free(p);
	}
	if (!taken) {
		kl_report_free(total);
		exit(2);
	}

	/* Print as the runs would have: with their options. */
	argv = xreallocarray(NULL, all->nopts + 2, sizeof(char *));
	argv[0] = (char *)PROGNAME;
	for (k = 0; k < all->nopts; k++)
		argv[k + 1] = all->opts[k];
	argv[all->nopts + 1] = NULL;
	errs = log_errors();
	optind = 0;
	options_parse((int)all->nopts + 1, argv, &rc);
	if (!rc.report || !rc.json || rc.sarif)
		log_fatal("--merge: the reports were not made with "
		    "--report --json");
	callsite_init(&rc);
	pr = print_report_init(&rc);
	report_adopt(total, all);
	kl_report_free(total);
	pr->summary(&sum.tot);
	out_check();
	leaked = all->leaked;
	if (rc.baseline != NULL)
		leaked = report_new() > 0;
	for (k = 0; k < all->ncover; k++)
		if (all->cover[k].n > 0) {
			incomplete = 1;
			for (i = 0; i < all->cover[k].n; i++)
				if (!all->cover[k].have[i])
					log_warnx("--merge: shard %zu/%u of "
					    "%" PRIu64 " inputs is missing",
					    i + 1, all->cover[k].n,
					    all->cover[k].inputs);
		}
	status = leaked ? 1 : 0;
	if (all->errors > 0 || log_errors() > errs || incomplete ||
	    log_errors() > 0)
		status = 2;
	if (fflush(stdout) == EOF || ferror(stdout))
		log_fatal("cannot write standard output: %s",
		    strerror(errno));
	callsite_free();
	free(argv);
	exit(status);
}
