/*
 * kleakscan.c - main(): the options, then the run (run.c).
 *
 * The program in short:
 *
 * Each input (a file, a walked file, stdin) goes to kl_input_fd(), which
 * opens compressed streams and archives (to --max-depth, within the
 * limits) and hands back units: the input itself or its members, each
 * with the kind its first bytes show.  A text unit is fed in --read-size
 * pieces to one libkleak scanner (reset between units); journal exports
 * and JSON go through a journal parser whose entries are scanned field by
 * field as records; native journal files are read with libsystemd; other
 * binary units are skipped, counted and named on stderr.  Findings come
 * back through the sink and go to the printer in input order.  With
 * --redact, an archive or a compressed input is repacked (repack.c),
 * its text members fed through the same unit callbacks.  Errors are
 * per unit: one line on stderr (and an event with --json), then the next
 * member or input.  The exit status is decided once, at the end: 0 clean,
 * 1 leaks, 2 errors (errors win, except -q with a leak).  With -j N
 * (jobs.c) each input is scanned the same way in a worker process and
 * the parent puts the outputs in input order and sums the counters;
 * when the one input named is an archive, the parent reads it and each
 * of its units goes to a worker (members.c).
 */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "kleakscan.h"

#define STDOUT_BUFSIZE	(64 * 1024)

/* Scan the inputs named on the command line and exit. */
int
main(int argc, char **argv)
{
	static char	 obuf[STDOUT_BUFSIZE];
	struct cli	 cli;

	/* Big blocks to files and pipes; a terminal keeps line buffering. */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	out_on_failure(run_out_failed);
	options_parse(argc, argv, &cli);
	run_main(&cli);
}
