/*
 * run.c - the run: the inputs of a run (operands, --files-from, the
 * directory walk, standard input, --live), each scanned here or by a
 * worker (jobs.c, members.c), native journals and --redact of whole
 * inputs, the totals and the exit status.  It owns the state of the run
 * and hands it down to the unit layer (unit.c, sink.c).
 */
#include "config.h"

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleakscan.h"

#define STDIN_NAME	"(standard input)"

#define JOURNAL_MAGIC	8	/* bytes that tell a native journal */
#define NATIVE_STDIN	"/dev/stdin"
#define PEEK_MAX	(64u << 10)	/* as lib/input.c reads ahead */
#define PEEK_TEXT	4096u

static struct run	 run;

/* Printer callbacks that print nothing (--redact writes the logs). */
static void
null_input(const struct input *in)
{
	(void)in;
}

/* Print nothing for a finding. */
static void
null_finding(const struct input *in, const struct kl_finding *f,
    const char *sym, const char *who, const char *why)
{
	(void)in;
	(void)f;
	(void)sym;
	(void)who;
	(void)why;
}

/* Print nothing for a boot's verdict. */
static void
null_boot(const struct input *in, const struct bootrep *r)
{
	(void)in;
	(void)r;
}

/* Print nothing for an error. */
static void
null_error(const struct input *in, uint64_t line, const char *msg)
{
	(void)in;
	(void)line;
	(void)msg;
}

/* Print nothing at the end of an input. */
static void
null_end(const struct input *in, const struct kl_stats *st)
{
	(void)in;
	(void)st;
}

/* Print nothing for the totals. */
static void
null_summary(const struct totals *t)
{
	(void)t;
}

static const struct printer null_printer = {
	null_input, null_finding, null_boot, null_error, null_end,
	null_summary
};

/* The exit status decided from what happened so far. */
static int
exit_status(void)
{
	if (run.signalled)	/* --follow stopped by SIGTERM or SIGINT */
		return (0);
	if (run.leaked && run.cli != NULL && run.cli->quiet)
		return (1);
	if (log_errors() > 0)
		return (2);
	return (run.leaked ? 1 : 0);
}

/* Free what the run holds. */
static void
cleanup(void)
{
	kl_journal_free(run.u.jr);
	run.u.jr = NULL;
	free(run.u.boot_id);
	run.u.boot_id = NULL;
	kl_scan_free(run.scan);
	run.scan = NULL;
	verdict_free();
	kl_engine_free(run.engine);
	run.engine = NULL;
	buf_free(&run.disp);
}

/* Handle a failed write to stdout: quiet on a broken pipe, else fatal. */
void
run_out_failed(int errnum)
{
	int	status;

	jobs_write_failed(errnum);	/* a worker's temporary file */
	status = exit_status();
	cleanup();
	if (errnum == EPIPE)
		exit(status);
	log_fatal("cannot write standard output: %s", strerror(errnum));
}

/* Flush stdout and exit with status. */
static _Noreturn void
finish(int status)
{
	if (fflush(stdout) == EOF || ferror(stdout))
		run_out_failed(errno);
	cleanup();
	exit(status);
}

/* Is fd a regular file? */
static int
is_reg(int fd)
{
	struct stat	st;

	return (fstat(fd, &st) == 0 && S_ISREG(st.st_mode));
}

/* A native journal file is read by path, not through the input layer. */
static int
is_native(int fd)
{
	uint8_t	b[JOURNAL_MAGIC];
	ssize_t	n;

	if (run.cli->format != KL_FORMAT_AUTO || !is_reg(fd))
		return (0);
	do
		n = pread(fd, b, sizeof(b), 0);
	while (n == -1 && errno == EINTR);
	return (n == (ssize_t)sizeof(b) &&
	    kl_input_sniff(b, sizeof(b)) == KL_UNIT_JOURNAL);
}

/* Report an error on an input that has no unit open. */
static void
whole_error(const char *name, const char *msg)
{
	struct input	in;

	memset(&in, 0, sizeof(in));
	in.name = name;
	in.namelen = strlen(name);
	input_error(&in, 0, "%s", msg);
}

/*
 * --redact: read the first bytes of the input as the input layer does.
 * An archive or a compressed stream is repacked (repack.c).  Anything
 * else is left to kl_input_fd(): a file is seeked back; a pipe is fed to
 * the unit callbacks from here, the bytes already read first.  Returns
 * 1 when the input was dealt with here, 0 when kl_input_fd() reads it.
 */
static int
redact_input(const char *name, int fd)
{
	struct kl_unit	 ku;
	struct kl_error	 err;
	uint8_t		*pre;
	size_t		 n = 0;
	ssize_t		 r;
	off_t		 start;
	int		 f, g;

	start = is_reg(fd) ? lseek(fd, 0, SEEK_CUR) : -1;
	pre = xmalloc(PEEK_MAX);
	memset(&err, 0, sizeof(err));
	while (n < PEEK_MAX) {
		do
			r = read(fd, pre + n, PEEK_MAX - n);
		while (r == -1 && errno == EINTR);
		if (r == -1) {
			kl_error_set(&err, KL_EIO, errno, "%s",
			    strerror(errno));
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n >= PEEK_TEXT && memchr(pre, 0, PEEK_TEXT) == NULL)
			break;
	}
	if (err.code != KL_EOK && n == 0) {
		whole_error(name, lib_msg(&err));
		rewrite_fail();
		free(pre);
		return (1);
	}
	if (err.code == KL_EOK && kl_input_container(pre, n, &f, &g) != 0) {
		(void)repack_input(run.cli, &run.iops, name, fd, start, pre,
		    n);
		free(pre);
		return (1);
	}
	if (err.code == KL_EOK && start != -1 &&
	    lseek(fd, start, SEEK_SET) == start) {
		free(pre);
		return (0);
	}
	/* A pipe: one unit, the bytes read first. */
	memset(&ku, 0, sizeof(ku));
	ku.path = name;
	ku.kind = kl_input_sniff(pre, n);
	if (on_begin(&run, &ku) != 0) {
		free(pre);
		return (1);
	}
	if (n > 0 && on_data(&run, &ku, pre, n) != 0)
		goto end;
	while (err.code == KL_EOK) {
		do
			r = read(fd, pre, PEEK_MAX);
		while (r == -1 && errno == EINTR);
		if (r == -1)
			kl_error_set(&err, KL_EIO, errno, "%s",
			    strerror(errno));
		else if (r == 0 || on_data(&run, &ku, pre, (size_t)r) != 0)
			break;
	}
end:
	(void)on_end(&run, &ku, err.code != KL_EOK ? &err : NULL);
	free(pre);
	return (1);
}

/* --redact, a native journal: an entry goes on as export stream bytes. */
static int
native_bytes(void *arg, const void *p, size_t n)
{
	return (on_data(&run, arg, p, n));
}

/* --redact, a native journal: an entry read by libsystemd. */
static int
native_entry(void *arg, const struct kl_jentry *e)
{
	return (kl_journal_export(e, native_bytes, arg));
}

/*
 * --redact: a native journal file is read as the export stream that
 * journalctl -o export prints of it; that stream is rewritten, and
 * written as a new journal file, or to standard output as it is.
 */
static void
redact_native(const char *name, const char *path, uint64_t errs)
{
	struct kl_journal_ops	 ops;
	struct kl_unit		 ku;
	struct kl_error		 err;
	char			 msg[PATH_MAX + 256];
	int			 rc;

	memset(&ku, 0, sizeof(ku));
	ku.path = name;
	ku.kind = KL_UNIT_EXPORT;
	if (rewrite_native_begin(msg, sizeof(msg)) == -1) {
		whole_error(name, msg);
		rewrite_fail();
	} else if (on_begin(&run, &ku) == 0) {
		memset(&ops, 0, sizeof(ops));
		ops.arg = &ku;
		ops.entry = native_entry;
		ops.error = on_jerror;
		memset(&err, 0, sizeof(err));
		rc = kl_journal_native(path, &ops, &err);
		(void)on_end(&run, &ku, rc == -1 ? &err : NULL);
	}
	if (rewrite_native_end(log_errors() == errs, msg, sizeof(msg)) ==
	    -1 && msg[0] != '\0')
		whole_error(name, msg);
	if (rewrite_input_end(log_errors() == errs, msg, sizeof(msg)) == -1)
		whole_error(name, msg);
}

/* The input layer's flags for an input (walked: met in a walk). */
static unsigned
input_flags(int walked)
{
	unsigned	flags;

	/* Named inputs are scanned even when they look binary. */
	flags = run.iops.flags & ~(unsigned)KL_INPUT_TOP_DATA;
	if (!walked && run.cli->binary_files == BINARY_AUTO)
		flags |= KL_INPUT_TOP_DATA;
	return (flags);
}

/* Scan one input, its members and what they hold; non-zero stops all. */
static int
scan_input(const char *name, const char *path, int fd, int is_stdin,
    int walked)
{
	struct kl_error	err;
	uint64_t	errs;
	char		msg[PATH_MAX + 256];
	int		rc;

	run.is_stdin = is_stdin;
	run.iops.flags = input_flags(walked);
	errs = log_errors();
	if (run.cli->redact && rewrite_input_begin(is_stdin ? NULL : path,
	    is_stdin && run.cli->label == NULL ? "standard-input" : name,
	    fd, msg, sizeof(msg)) == -1) {
		struct input	in;

		memset(&in, 0, sizeof(in));
		in.name = name;
		in.namelen = strlen(name);
		input_error(&in, 0, "%s", msg);
		rewrite_fail();
		return (0);
	}
	run.native = path;
	if (is_stdin)
		run.native = is_reg(fd) ? NATIVE_STDIN : NULL;
	if ((!is_stdin || (run.cli->redact && run.native != NULL)) &&
	    is_native(fd)) {
		if (run.cli->redact) {
			redact_native(name, run.native, errs);
			return (run.stop == STOP_ALL);
		}
		if (unit_begin(name, NULL, 0, KL_UNIT_JOURNAL) == 0) {
			unit_native(path);
			unit_finish(NULL);
		}
		return (run.stop == STOP_ALL);
	}
	memset(&err, 0, sizeof(err));
	if (run.cli->redact && redact_input(name, fd))
		rc = 0;
	else
		rc = kl_input_fd(fd, name, &run.cli->limits, &run.iops, &err);
	if (run.stop == STOP_ALL) {
		unit_finish(NULL);
		return (1);
	}
	if (rc == -1) {
		/* An error outside end(): on the open unit, or the input. */
		if (run.u.open)
			unit_finish(&err);
		else {
			struct input	in;

			memset(&in, 0, sizeof(in));
			in.name = name;
			in.namelen = strlen(name);
			input_error(&in, err.line, "%s", lib_msg(&err));
		}
	} else
		unit_finish(NULL);
	if (run.cli->redact && rewrite_input_end(log_errors() == errs, msg,
	    sizeof(msg)) == -1) {
		struct input	in;

		memset(&in, 0, sizeof(in));
		in.name = name;
		in.namelen = strlen(name);
		input_error(&in, 0, "%s", msg);
	}
	return (0);
}

/*
 * -j on the one input, an archive: its units go to the workers
 * (members.c), the input layer runs here.  Non-zero: -q, stop.
 */
static int
split_input(const char *path, int fd)
{
	struct kl_error	err;
	int		rc, stop;

	memset(&err, 0, sizeof(err));
	run.is_stdin = 0;
	run.native = NULL;
	run.iops.flags = input_flags(0);
	jobs_start();	/* forked before the input layer's thread runs */
	rc = members_input(path, fd, &run.cli->limits, &run.iops, &err,
	    &stop);
	/* A long unit scanned here (members.c) and -q, as scan_input(). */
	if (run.stop == STOP_ALL) {
		unit_finish(NULL);
		return (1);
	}
	if (rc == -1 && !stop)
		jobs_error(path, err.line, lib_msg(&err));
	return (stop);
}

static unsigned	jobs_count(const struct cli *);

/*
 * -j on the one input, a big plain file or a compressed stream
 * (chunk_kind()): read here, its lines scanned on the workers' cores
 * (chunk.c; unit.c as a stream is decompressed).  Non-zero: -q, stop.
 */
static int
chunk_file(const char *path, int fd, enum chunk_kind kind)
{
	int	stop;

	if (kind == CHUNK_STREAM)
		stop = scan_input(path, path, fd, 0, 0);
	else {
		run.is_stdin = 0;
		run.iops.flags = input_flags(0);
		run.native = path;
		stop = chunk_input(&run, path, fd);
	}
	run.chunk_threads = 0;
	return (stop);
}

/*
 * Scan an open file (met in a directory walk or not) and close it.  With
 * -j, the one file named alone goes to the workers only as an archive
 * (its members) or in chunks (a big file, a compressed stream); else it
 * is scanned here, as -j 1 scans it: a worker would add only its fork
 * (7 ms of a 19 ms run on a small log).  Standard input alone likewise
 * (scan_stdin()).
 */
static int
input_file(const char *path, int fd, int walked)
{
	enum chunk_kind	kind;
	int		stop;

	if (run.jobs && run.split && !walked && members_split(fd))
		stop = split_input(path, fd);
	else if (run.jobs && run.split && !walked && (kind = chunk_kind(&run,
	    fd, jobs_count(run.cli))) != CHUNK_NONE)
		stop = chunk_file(path, fd, kind);
	else if (run.jobs && run.split && !walked)
		stop = scan_input(path, path, fd, 0, 0);
	else if (run.jobs)
		stop = jobs_input(path, path, fd, 0, walked);
	else
		stop = scan_input(path, path, fd, 0, walked);
	close(fd);
	return (stop);
}

/* Walk callback: a file named by an operand or --files-from. */
static int
on_input(void *arg, const char *path, int fd)
{
	(void)arg;
	return (input_file(path, fd, 0));
}

/* Walk callback: a file met in a directory walk. */
static int
on_walked(void *arg, const char *path, int fd)
{
	(void)arg;
	return (input_file(path, fd, 1));
}

/* Walk callback: a path that could not be opened or walked. */
static void
on_error(void *arg, const char *path, uint64_t line, const char *msg)
{
	struct input	in;

	(void)arg;
	if (run.jobs) {
		jobs_error(path, line, msg);
		return;
	}
	memset(&in, 0, sizeof(in));
	in.name = path;
	in.namelen = strlen(path);
	input_error(&in, line, "%s", msg);
}

/* Scan standard input. */
static int
scan_stdin(void)
{
	const char	*name;

	name = run.cli->label != NULL ? run.cli->label : STDIN_NAME;
	if (run.cli->redact && run.cli->ropt.deslide)
		deslide_stream(name);
	if (run.jobs && !run.stdin_only)
		return (jobs_input(name, NULL, STDIN_FILENO, 1, 0));
	return (scan_input(name, NULL, STDIN_FILENO, 1, 0));
}

/* Worker: scan one input and say what came of it (jobs.c). */
static void
job_scan(void *arg, const char *name, const char *path, int fd,
    int is_stdin, int walked, struct jobres *r)
{
	uint64_t	errs;
	int		stop;

	(void)arg;
	run.jobs = 0;	/* a walk error is the parent's from here */
	memset(&run.tot, 0, sizeof(run.tot));
	run.leaked = 0;
	run.stop = STOP_NONE;	/* -q in an input before: not this one's */
	errs = log_errors();
	if (run.cli->report)
		report_input_mark();	/* its rows' place (print-report.c) */
	stop = scan_input(name, path, fd, is_stdin, walked);
	r->tot = run.tot;
	r->errors = log_errors() - errs;
	r->leaked = run.leaked;
	r->stop = stop;
}

/*
 * Worker: scan one unit of an archive that the parent read (members.c),
 * through the callbacks the input layer calls in -j 1.
 */
static void
job_unit(void *arg, int fd, struct jobres *r)
{
	static char	 buf[256 * 1024];
	struct kl_unit	 ku;
	struct kl_error	 cut;
	uint64_t	 errs, len, off;
	ssize_t		 n;
	int		 has_cut;

	(void)arg;
	run.jobs = 0;
	memset(&run.tot, 0, sizeof(run.tot));
	run.leaked = 0;
	run.stop = STOP_NONE;
	run.is_stdin = 0;
	run.native = NULL;
	errs = log_errors();
	if (members_read(fd, &ku, &cut, &has_cut, &len) == -1)
		log_fatal("a worker got a damaged unit");
	if (on_begin(&run, &ku) == 0) {
		for (off = 0; off < len; off += (uint64_t)n) {
			do
				n = pread(fd, buf, len - off < sizeof(buf) ?
				    (size_t)(len - off) : sizeof(buf),
				    (off_t)off);
			while (n == -1 && errno == EINTR);
			if (n <= 0)
				log_fatal("cannot read a unit back: %s",
				    n == -1 ? strerror(errno) : "short");
			if (on_data(&run, &ku, buf, (size_t)n) != 0)
				break;
		}
		(void)on_end(&run, &ku, has_cut ? &cut : NULL);
	}
	if (run.stop == STOP_ALL)
		unit_finish(NULL);
	members_free(&ku);
	r->tot = run.tot;
	r->errors = log_errors() - errs;
	r->leaked = run.leaked;
	r->stop = run.stop == STOP_ALL;
}

/* Parent: add a worker's counters, in input order. */
static void
job_merge(void *arg, const struct jobres *r)
{
	struct jobres	all;

	(void)arg;
	memset(&all, 0, sizeof(all));
	all.tot = run.tot;
	jobres_add(&all, r);
	run.tot = all.tot;
	log_add_errors(r->errors);
	if (r->leaked)
		run.leaked = 1;
}

/* Parent: a walk error, in its place among the inputs. */
static void
job_error(void *arg, const char *path, uint64_t line, const char *msg)
{
	int	jobs;

	jobs = run.jobs;
	run.jobs = 0;
	on_error(arg, path, line, msg);
	run.jobs = jobs;
}

/* The number of workers: -j, else one per online CPU (--redact: one). */
static unsigned
jobs_count(const struct cli *cli)
{
	long	n;

	if (cli->redact || cli->live || cli->live_root != NULL || cli->follow ||
	    cli->squash_by_path || cli->squash_by_filename)
		return (1);
	if (cli->jobs != 0)
		return (cli->jobs);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		return (1);
	return (n > JOBS_MAX ? JOBS_MAX : (unsigned)n);
}

/* Is path a directory (following symlinks)? */
static int
is_dir(const char *path)
{
	struct stat	st;

	return (stat(path, &st) == 0 && S_ISDIR(st.st_mode));
}

/* Decide whether names are shown, as grep does. */
static int
show_names(const struct cli *cli)
{
	if (cli->filename >= 0)
		return (cli->filename);
	if (cli->live || cli->live_root != NULL)
		return (1);
	if (cli->noperands > 1 || cli->files_from != NULL)
		return (1);
	return (cli->noperands == 1 && strcmp(cli->operands[0], "-") != 0 &&
	    is_dir(cli->operands[0]));
}

/* live.c: scan the bytes of a live or captured file, named name. */
static int
live_scan(const char *name, int fd)
{
	return (scan_input(name, NULL, fd, 0, 1));
}

/* Scan every operand, the --files-from list, or stdin. */
static void
scan_all(const struct cli *cli)
{
	struct walk_cb	cb;
	int		i, stop;

	cb.arg = &run;
	cb.input = on_input;
	cb.walked = on_walked;
	cb.error = on_error;
	shard_wrap(&cb);	/* --shard; every input's place */
	stop = 0;
	if (cli->live || cli->live_root != NULL) {
		live_run(cli, live_scan);
		return;
	}
	for (i = 0; !stop && i < cli->noperands; i++) {
		/* deslide: is the operand a captured system? */
		if (cli->redact && cli->ropt.deslide)
			deslide_input(cli->operands[i]);
		if (strcmp(cli->operands[i], "-") == 0)
			stop = shard_take("-") ? scan_stdin() : 0;
		else
			stop = walk_operand(&cb, cli->operands[i]);
	}
	if (!stop && cli->files_from != NULL)
		stop = walk_list(&cb, cli->files_from, cli->null);
	if (!stop && cli->noperands == 0 && cli->files_from == NULL)
		stop = shard_take("-") ? scan_stdin() : 0;
}

/*
 * Check the inputs named; set up the printer (or the rewriter), the
 * scanner, the unit layer and, with -j, the workers.
 */
static void
run_start(struct cli *cli)
{
	static struct jobs_ops jops;	/* jobs.c keeps it */
	struct kl_error	 err;
	unsigned	 n;
	int		 i;

	if (cli->noperands == 0 && cli->files_from == NULL &&
	    !cli->live && cli->live_root == NULL && isatty(STDIN_FILENO))
		log_usage("no input: give a FILE, a DIR, or - for standard "
		    "input");
	if (cli->files_from != NULL && strcmp(cli->files_from, "-") == 0)
		for (i = 0; i < cli->noperands; i++)
			if (strcmp(cli->operands[i], "-") == 0)
				log_usage("--files-from - and - cannot both "
				    "read standard input");
	cli->show_names = show_names(cli);

	run.pr = cli->json ? print_json_init(cli) : print_text_init(cli);
	if (cli->report)
		run.pr = print_report_init(cli);
	if (cli->redact) {
		run.pr = &null_printer;
		rewrite_init(cli);
	}
	live_prepare(cli);	/* the live system's arch and map */
	follow_prepare(cli);	/* --follow /dev/kmsg: this machine's arch */
	if (cli->follow && cli->report)
		run.pr = follow_report_init(cli, run.pr);
	memset(&err, 0, sizeof(err));
	if ((run.engine = kl_engine_new(&cli->kl, &err)) == NULL)
		log_fatal("cannot set up the scanner: %s", lib_msg(&err));
	verdict_init(cli);
	callsite_init(cli);
	/* A report loads its baseline; elsewhere the sink uses it. */
	if (cli->baseline != NULL && !cli->report)
		baseline_load(cli->baseline);
	sink_init(&run);
	unit_init(&run);
	/* A forced format scans every unit, binary ones too. */
	if (cli->format != KL_FORMAT_AUTO || cli->binary_files == BINARY_TEXT)
		run.iops.flags |= KL_INPUT_ALL_DATA;

	if ((n = jobs_count(cli)) > 1) {
		jops.arg = &run;
		jops.scan = job_scan;
		jops.merge = job_merge;
		jops.error = job_error;
		jops.out_failed = run_out_failed;
		jops.unit = job_unit;
		if (cli->report)
			report_jobs();
		jobs_init(n, &jops);
		run.jobs = 1;
		/* One named file: its members may go to the workers. */
		run.split = cli->noperands == 1 && cli->files_from == NULL &&
		    strcmp(cli->operands[0], "-") != 0 &&
		    !is_dir(cli->operands[0]);
		run.stdin_only = cli->files_from == NULL &&
		    (cli->noperands == 0 || (cli->noperands == 1 &&
		    strcmp(cli->operands[0], "-") == 0));
		/* Many inputs: the workers have the cores, not xz. */
		cli->limits.threads = run.split ? n : 1;
	}
}

/* The end of a run: the rewritten files or the summary; exit. */
static _Noreturn void
run_end(const struct cli *cli)
{
	if (cli->redact) {
		(void)rewrite_finish(log_errors() == 0);
		out_check();
		finish(exit_status());
	}
	if (!cli->live && cli->live_root == NULL && !cli->quiet)
		live_finish(cli);
	if (!cli->quiet) {
		if (cli->report)
			report_leaked(run.leaked);	/* its merge state */
		run.pr->summary(&run.tot);
		out_check();
	}
	/* With a baseline, only new templates are leaks. */
	if (cli->report && cli->baseline != NULL)
		run.leaked = report_new() > 0;
	finish(exit_status());
}

/* Run as the command line cli says and exit with the status. */
_Noreturn void
run_main(struct cli *cli)
{
	run.cli = cli;
	log_init(cli->no_messages);

	if (cli->version) {
		options_version(cli);
		finish(0);
	}
	if (cli->merge)
		merge_main(cli);
	shard_init(cli->shard_k, cli->shard_n);
	if (cli->list_arches)
		finish(options_list_arches(cli));

	run_start(cli);
	if (cli->follow)
		follow_run(&run);
	else
		scan_all(cli);
	if (run.jobs) {
		jobs_finish();
		run.jobs = 0;
	}
	run_end(cli);
}
