/*
 * kleakscan.c - main(): options, inputs, scanning, the exit status.
 *
 * Each input is read with read(2) in --read-size chunks and fed to one
 * libkleak scanner (reset between inputs); findings come back through the
 * sink and go to the printer in input order.  Errors are per input: one
 * line on stderr (and an event with --json), then the next input.  The
 * exit status is decided once, at the end: 0 clean, 1 leaks, 2 errors
 * (errors win, except -q with a leak).
 */
#include "config.h"

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleakscan.h"

#define STDIN_NAME	"(standard input)"
#define STDOUT_BUFSIZE	(64 * 1024)

/* Why the scan of an input stopped early. */
enum stop {
	STOP_NONE = 0,
	STOP_INPUT,		/* -l or -L: the answer is known */
	STOP_ALL,		/* -q: a leak was found */
};

/* The state of one run of the program. */
struct run {
	const struct cli	*cli;
	const struct printer	*pr;
	struct kl_engine	*engine;
	struct kl_scan		*scan;
	struct kl_sink		 sink;
	struct input		*cur;
	uint8_t			*buf;
	enum stop		 stop;
	int			 leaked;	/* a leak was found */
	struct totals		 tot;
};

static struct run	 run;

/* The exit status decided from what happened so far. */
static int
exit_status(void)
{
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
	kl_scan_free(run.scan);
	run.scan = NULL;
	kl_engine_free(run.engine);
	run.engine = NULL;
	free(run.buf);
	run.buf = NULL;
}

/* Handle a failed write to stdout: quiet on a broken pipe, else fatal. */
static void
out_failed(int errnum)
{
	int	status;

	status = exit_status();
	cleanup();
	if (errnum == EPIPE)
		exit(status);
	log_fatal("write error: %s", strerror(errnum));
}

/* Stop quietly or with an error as soon as stdout cannot be written. */
void
out_check(void)
{
	if (ferror(stdout))
		out_failed(errno);
}

/* Flush stdout and exit with status. */
static _Noreturn void
finish(int status)
{
	if (fflush(stdout) == EOF || ferror(stdout))
		out_failed(errno);
	cleanup();
	exit(status);
}

static void	input_error(struct input *, uint64_t, const char *, ...)
		    KL_PRINTFLIKE(3, 4);

/* Report an error on an input: stderr (unless -s) and the printer. */
static void
input_error(struct input *in, uint64_t line, const char *fmt, ...)
{
	va_list	ap;
	char	msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	in->errors++;
	run.tot.errors++;
	log_error(in->name, in->namelen, line, "%s", msg);
	if (!run.cli->quiet) {
		run.pr->error(in, line, msg);
		out_check();
	}
}

/* The message of a library error. */
static const char *
lib_msg(const struct kl_error *err)
{
	if (err->msg[0] != '\0')
		return (err->msg);
	if (err->errnum != 0)
		return (strerror(err->errnum));
	return ("scan failed");
}

/* The sink: count a finding, print it or stop the scan. */
static int
on_finding(void *arg, const struct kl_finding *f)
{
	struct run	*r = arg;
	struct input	*in = r->cur;

	if (f->suppressed != KL_SUP_NONE) {
		in->suppressed++;
		if (r->cli->kl.suppressed && r->cli->mode == MODE_LINES &&
		    !r->cli->quiet) {
			r->pr->finding(in, f);
			out_check();
		}
		return (0);
	}
	in->leaks++;
	r->leaked = 1;
	if (r->cli->quiet) {
		r->stop = STOP_ALL;
		return (1);
	}
	switch (r->cli->mode) {
	case MODE_LINES:
		r->pr->finding(in, f);
		out_check();
		break;
	case MODE_WITH:
	case MODE_WITHOUT:
		if (!r->cli->stats) {
			r->stop = STOP_INPUT;
			return (1);
		}
		break;
	default:
		break;
	}
	return (0);
}

/* Add the counters of one input to the totals. */
static void
add_totals(const struct kl_stats *st)
{
	size_t	i;

	if (st == NULL)
		return;
	run.tot.bytes += st->bytes;
	run.tot.lines += st->lines;
	run.tot.findings += st->findings;
	run.tot.boots += st->boots;
	run.tot.unhashed += st->unhashed;
	for (i = 0; i < KL_REGION_COUNT; i++)
		run.tot.region[i] += st->region[i];
	for (i = 0; i < KL_SUP_COUNT; i++)
		run.tot.suppressed[i] += st->suppressed[i];
}

/* Get the scanner ready for a new input; -1 if there is none. */
static int
scan_ready(struct input *in)
{
	struct kl_error	err;

	if (run.scan != NULL) {
		kl_scan_reset(run.scan);
		return (0);
	}
	memset(&err, 0, sizeof(err));
	if ((run.scan = kl_scan_new(run.engine, &run.sink, &err)) == NULL) {
		input_error(in, 0, "cannot start a scanner: %s",
		    lib_msg(&err));
		return (-1);
	}
	return (0);
}

/* Read fd to the end through the scanner; non-zero stops everything. */
static int
scan_fd(struct input *in, int fd)
{
	struct kl_error	 err;
	ssize_t		 n;
	int		 fed;

	if (scan_ready(in) == -1)
		return (0);
	run.cur = in;
	run.stop = STOP_NONE;
	in->begun = 1;
	run.tot.inputs++;
	if (!run.cli->quiet) {
		run.pr->begin(in);
		out_check();
	}
#ifdef POSIX_FADV_SEQUENTIAL
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	fed = 1;
	for (;;) {
		n = read(fd, run.buf, run.cli->read_size);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			input_error(in, 0, "%s", strerror(errno));
			break;
		}
		if (n == 0)
			break;
		memset(&err, 0, sizeof(err));
		if (kl_scan_feed(run.scan, run.buf, (size_t)n, &err) == -1 &&
		    run.stop == STOP_NONE) {
			input_error(in, err.line, "%s", lib_msg(&err));
			fed = 0;
			break;
		}
		if (run.stop != STOP_NONE)
			break;
	}
	/* After a read error, what was read is still scanned to its end. */
	if (fed && run.stop == STOP_NONE) {
		memset(&err, 0, sizeof(err));
		if (kl_scan_end(run.scan, &err) == -1 &&
		    run.stop == STOP_NONE)
			input_error(in, err.line, "%s", lib_msg(&err));
	}
	if (run.stop == STOP_ALL)
		return (1);
	add_totals(kl_scan_stats(run.scan));
	if (!run.cli->quiet) {
		run.pr->end(in, kl_scan_stats(run.scan));
		out_check();
	}
	return (0);
}

/* Walk callback: scan an open file and close it. */
static int
on_input(void *arg, const char *path, int fd)
{
	struct input	in;
	int		stop;

	(void)arg;
	memset(&in, 0, sizeof(in));
	in.name = path;
	in.namelen = strlen(path);
	stop = scan_fd(&in, fd);
	close(fd);
	return (stop);
}

/* Walk callback: a path that could not be opened or walked. */
static void
on_error(void *arg, const char *path, uint64_t line, const char *msg)
{
	struct input	in;

	(void)arg;
	memset(&in, 0, sizeof(in));
	in.name = path;
	in.namelen = strlen(path);
	input_error(&in, line, "%s", msg);
}

/* Scan standard input. */
static int
scan_stdin(void)
{
	struct input	in;

	memset(&in, 0, sizeof(in));
	in.name = run.cli->label != NULL ? run.cli->label : STDIN_NAME;
	in.namelen = strlen(in.name);
	in.is_stdin = 1;
	return (scan_fd(&in, STDIN_FILENO));
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
	if (cli->noperands > 1 || cli->files_from != NULL)
		return (1);
	return (cli->noperands == 1 && strcmp(cli->operands[0], "-") != 0 &&
	    is_dir(cli->operands[0]));
}

/* Scan every operand, the --files-from list, or stdin. */
static void
scan_all(const struct cli *cli)
{
	struct walk_cb	cb;
	int		i, stop;

	cb.arg = &run;
	cb.input = on_input;
	cb.error = on_error;
	stop = 0;
	for (i = 0; !stop && i < cli->noperands; i++) {
		if (strcmp(cli->operands[i], "-") == 0)
			stop = scan_stdin();
		else
			stop = walk_operand(&cb, cli->operands[i]);
	}
	if (!stop && cli->files_from != NULL)
		stop = walk_list(&cb, cli->files_from, cli->null);
	if (!stop && cli->noperands == 0 && cli->files_from == NULL)
		stop = scan_stdin();
}

/* Scan the inputs named on the command line and exit. */
int
main(int argc, char **argv)
{
	static char	 obuf[STDOUT_BUFSIZE];
	struct cli	 cli;
	struct kl_error	 err;
	int		 i;

	/* Big blocks to files and pipes; a terminal keeps line buffering. */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	options_parse(argc, argv, &cli);
	run.cli = &cli;
	log_init(cli.no_messages);

	if (cli.version) {
		options_version(&cli);
		finish(0);
	}
	if (cli.list_arches)
		finish(options_list_arches(&cli));

	if (cli.noperands == 0 && cli.files_from == NULL &&
	    isatty(STDIN_FILENO))
		log_usage("no input: give a FILE, a DIR, or - for standard "
		    "input");
	if (cli.files_from != NULL && strcmp(cli.files_from, "-") == 0)
		for (i = 0; i < cli.noperands; i++)
			if (strcmp(cli.operands[i], "-") == 0)
				log_usage("--files-from - and - cannot both "
				    "read standard input");
	cli.show_names = show_names(&cli);

	run.pr = cli.json ? print_json_init(&cli) : print_text_init(&cli);
	memset(&err, 0, sizeof(err));
	if ((run.engine = kl_engine_new(&cli.kl, &err)) == NULL)
		log_fatal("cannot set up the scanner: %s", lib_msg(&err));
	run.buf = xmalloc(cli.read_size);
	run.sink.arg = &run;
	run.sink.finding = on_finding;

	scan_all(&cli);

	if (!cli.quiet) {
		run.pr->summary(&run.tot);
		out_check();
	}
	finish(exit_status());
}
