/*
 * options.c - the command line: one table feeds getopt_long(), --help and
 * the shell completions (completion.c); --version and --list-arches.
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

#include "kleakscan.h"

/* Long-only options. */
enum {
	OPT_LIST_ARCHES = 256,
	OPT_PAGE_OFFSET,
	OPT_FORMAT,
	OPT_ENGINE,
	OPT_SHOW_SUPPRESSED,
	OPT_FILES_FROM,
	OPT_LABEL,
	OPT_READ_SIZE,
	OPT_MAX_DEPTH,
	OPT_MAX_MEMBER_SIZE,
	OPT_MAX_RATIO,
	OPT_MAX_TOTAL,
	OPT_JSON,
	OPT_STATS,
	OPT_COLOR,
	OPT_SYSTEM_MAP,
	OPT_SYSTEM_MAP_DIR,
	OPT_VERDICT,
	OPT_LEAK_SOURCES,
	OPT_PHYSICAL,
	OPT_REDACT,
	OPT_IN_PLACE,
	OPT_OUTPUT_DIR,
	OPT_BREAK_LINKS,
	OPT_RESTRICT,
	OPT_REDACT_STYLE,
	OPT_HASH_KEY,
	OPT_RECEIPT,
	OPT_KERNEL_SOURCE,
	OPT_PRINTK_INDEX,
	OPT_COMPLETION,
	OPT_HELP,
	OPT_BINARY_FILES,
	OPT_REPORT,
	OPT_TOP,
	OPT_SARIF,
	OPT_SHOW_ADDRESSES,
	OPT_BASELINE,
	OPT_LIVE,
	OPT_LIVE_ROOT,
	OPT_LIVE_USER,
	OPT_LIVE_PRIVILEGED,
	OPT_LIVE_TIMEOUT,
	OPT_SQUASH_BY_PATH,
	OPT_SQUASH_BY_FILENAME,
	OPT_SHARD,
	OPT_MERGE,
	OPT_FIX_DIR,
	OPT_FOLLOW,
	OPT_FROM_START,
};

/* The words some options take: parsing and completion share them. */
static const char *const formats[] = {
	"auto", "text", "kmsg", "export", "json", NULL
};
static const char *const engines[] = { "fast", "pcre2", NULL };
static const char *const styles[] = {
	"zero", "hash", "deslide", "deslide,hash", NULL
};
static const char *const whens[] = { "auto", "always", "never", NULL };
static const char *const levels[] = { "2", "3", "4", NULL };
static const char *const shells[] = { "bash", "zsh", NULL };
static const char *const binfiles[] = { "text", "skip", NULL };

static const struct optdef optdefs[] = {
	{ NULL, 0, 0, NULL, "Scanning:" },
	{ "arch", required_argument, 'a', "NAME",
	    "architecture profile, or auto (the default)" },
	{ "list-arches", no_argument, OPT_LIST_ARCHES, NULL,
	    "list the profiles and their regions, then exit" },
	{ "page-offset", required_argument, OPT_PAGE_OFFSET, "ADDR",
	    "PAGE_OFFSET (hex) for i386, arm and ppc32" },
	{ "format", required_argument, OPT_FORMAT, "FORMAT",
	    "input format: auto (the default), text, kmsg, export, json" },
	{ "engine", required_argument, OPT_ENGINE, "ENGINE",
	    "matching engine: fast (the default), pcre2" },
	{ "show-suppressed", no_argument, OPT_SHOW_SUPPRESSED, NULL,
	    "also report look-alikes, with the reason" },
	{ NULL, 0, 0, NULL, "Symbols and KASLR:" },
	{ "system-map", required_argument, OPT_SYSTEM_MAP, "FILE",
	    "System.map or kallsyms to symbolise with (repeat)" },
	{ "system-map-dir", required_argument, OPT_SYSTEM_MAP_DIR, "DIR",
	    "maps named System.map-RELEASE, picked per boot" },
	{ "verdict", no_argument, OPT_VERDICT, NULL,
	    "print what each boot discloses (slide, bases)" },
	{ "leak-sources", required_argument, OPT_LEAK_SOURCES, "FILE",
	    "known leaky message shapes (built in by default)" },
	{ "physical", no_argument, OPT_PHYSICAL, NULL,
	    "also report physical addresses (memory maps, %pa)" },
	{ NULL, 0, 0, NULL, "Inputs:" },
	{ "files-from", required_argument, OPT_FILES_FROM, "FILE",
	    "read input names from FILE (- for stdin)" },
	{ "null", no_argument, '0', NULL,
	    "NUL ends names in --files-from and -l, -L output" },
	{ "label", required_argument, OPT_LABEL, "NAME",
	    "show standard input as NAME" },
	{ "read-size", required_argument, OPT_READ_SIZE, "N",
	    "read and scan N bytes at a time (for testing)" },
	{ "jobs", required_argument, 'j', "N",
	    "scan N inputs, or one big file, on N cores (default: all)" },
	{ "binary-files", required_argument, OPT_BINARY_FILES, "TYPE",
	    "binary files in walks and archives: skip (the default), text" },
	{ NULL, 0, 0, NULL, "Following a log as it grows (/dev/kmsg, a file,"
	    " -):" },
	{ "follow", no_argument, OPT_FOLLOW, NULL,
	    "print (or rewrite) each record as it arrives" },
	{ "from-start", no_argument, OPT_FROM_START, NULL,
	    "--follow: what is there first (else: from now)" },
	{ NULL, 0, 0, NULL, "Archives and compressed inputs (SIZE: bytes, K, M,"
	    " G, T; 0: no limit):" },
	{ "max-depth", required_argument, OPT_MAX_DEPTH, "N",
	    "open nested archives N levels deep (8)" },
	{ "max-member-size", required_argument, OPT_MAX_MEMBER_SIZE, "SIZE",
	    "stop a member at SIZE bytes expanded (none)" },
	{ "max-ratio", required_argument, OPT_MAX_RATIO, "N",
	    "stop an input expanding N times its size (4000)" },
	{ "max-total", required_argument, OPT_MAX_TOTAL, "SIZE",
	    "stop an input at SIZE bytes expanded (none)" },
	{ NULL, 0, 0, NULL, "Output:" },
	{ "json", no_argument, OPT_JSON, NULL,
	    "print JSON Lines events instead of text" },
	{ "count", no_argument, 'c', NULL,
	    "print only the number of leaks per input" },
	{ "files-with-leaks", no_argument, 'l', NULL,
	    "print only the names of inputs with leaks" },
	{ "files-without-leaks", no_argument, 'L', NULL,
	    "print only the names of inputs without leaks" },
	{ "quiet", no_argument, 'q', NULL,
	    "print nothing, exit 1 at the first leak" },
	{ "no-messages", no_argument, 's', NULL,
	    "do not print errors about inputs" },
	{ "stats", no_argument, OPT_STATS, NULL,
	    "print totals after the results" },
	{ "byte-offset", no_argument, 'b', NULL,
	    "print the byte offset of each finding" },
	{ "with-filename", no_argument, 'H', NULL,
	    "print the input name with each finding" },
	{ "no-filename", no_argument, 'h', NULL,
	    "never print input names with findings" },
	{ "color", optional_argument, OPT_COLOR, "WHEN",
	    "color: auto (the default), always, never" },
	{ NULL, 0, 0, NULL, "Reports (one row per message template):" },
	{ "report", no_argument, OPT_REPORT, NULL,
	    "rank templates: class, severity, spread, count" },
	{ "top", required_argument, OPT_TOP, "N",
	    "print only the first N rows of --report" },
	{ "sarif", no_argument, OPT_SARIF, NULL,
	    "print the report as SARIF 2.1.0" },
	{ "show-addresses", no_argument, OPT_SHOW_ADDRESSES, NULL,
	    "do not mask addresses in reports and SARIF" },
	{ "baseline", required_argument, OPT_BASELINE, "FILE",
	    "templates of FILE (--report --json or SARIF) are known" },
	{ NULL, 0, 0, NULL, "Rewriting (print the logs as kptr_restrict=2"
	    " would):" },
	{ "redact", no_argument, OPT_REDACT, NULL,
	    "write the inputs with leaked addresses zeroed" },
	{ "output", required_argument, 'o', "FILE",
	    "write the rewritten inputs to FILE (not stdout)" },
	{ "in-place", no_argument, OPT_IN_PLACE, NULL,
	    "replace each input file by its rewritten copy" },
	{ "break-links", no_argument, OPT_BREAK_LINKS, NULL,
	    "--in-place: rewrite a hard-linked name alone" },
	{ "output-dir", required_argument, OPT_OUTPUT_DIR, "DIR",
	    "write each rewritten input to DIR/its path" },
	{ "restrict", required_argument, OPT_RESTRICT, "N",
	    "2 (default), 3: also hashed %p, 4: also physical" },
	{ "redact-style", required_argument, OPT_REDACT_STYLE, "STYLE",
	    "zero (default), hash, deslide, deslide,hash" },
	{ "hash-key", required_argument, OPT_HASH_KEY, "HEX",
	    "32 hex digits: the key of --redact-style=hash" },
	{ "receipt", required_argument, OPT_RECEIPT, "FILE",
	    "record every change (JSON Lines, mode 0600)" },
	{ NULL, 0, 0, NULL, "Call sites (the printk calls that leaked):" },
	{ "kernel-source", required_argument, OPT_KERNEL_SOURCE, "TREE",
	    "index this kernel tree or tarball (cached); again: newer" },
	{ "printk-index", required_argument, OPT_PRINTK_INDEX, "FILE",
	    "exact call sites from debugfs printk/index; again: newer" },
	{ "fix-dir", required_argument, OPT_FIX_DIR, "DIR",
	    "write a patch per call site that printed a raw pointer" },
	{ NULL, 0, 0, NULL, "Live and captured systems:" },
	{ "live", no_argument, OPT_LIVE, NULL,
	    "audit this system: kernel log, /proc, /sys" },
	{ "live-root", required_argument, OPT_LIVE_ROOT, "DIR|ARCHIVE",
	    "audit a captured system (copy, sosreport)" },
	{ "live-user", required_argument, OPT_LIVE_USER, "USER",
	    "as root, also read as USER (nobody)" },
	{ "live-privileged", no_argument, OPT_LIVE_PRIVILEGED, NULL,
	    "exit status counts what root reads too" },
	{ "live-timeout", required_argument, OPT_LIVE_TIMEOUT, "SECS",
	    "stop the audit after SECS seconds (600, 0: none)" },
	{ "squash-by-path", no_argument, OPT_SQUASH_BY_PATH, NULL,
	    "one line per input: count and first line" },
	{ "squash-by-filename", no_argument, OPT_SQUASH_BY_FILENAME, NULL,
	    "one line per file name: count and first line" },
	{ NULL, 0, 0, NULL, "Many machines (one report from many runs):" },
	{ "shard", required_argument, OPT_SHARD, "K/N",
	    "scan only the K-th of N parts of the inputs" },
	{ "merge", no_argument, OPT_MERGE, NULL,
	    "merge --report --json outputs into one report" },
	{ NULL, 0, 0, NULL, "Other:" },
	{ "version", no_argument, 'V', NULL,
	    "print the version, PCRE2 version and JIT state" },
	{ "completion", required_argument, OPT_COMPLETION, "SHELL",
	    "print the completion script for bash or zsh" },
	{ "help", no_argument, OPT_HELP, NULL,
	    "print this help and exit" },
};
#define NOPTDEFS (sizeof(optdefs) / sizeof(optdefs[0]))

/* The options whose argument is one of a list of words. */
static const struct optwords optwords[] = {
	{ OPT_FORMAT, formats },
	{ OPT_ENGINE, engines },
	{ OPT_COLOR, whens },
	{ OPT_RESTRICT, levels },
	{ OPT_REDACT_STYLE, styles },
	{ OPT_COMPLETION, shells },
	{ OPT_BINARY_FILES, binfiles },
	{ 0, NULL },
};

#define HELP_COLUMN 30

/* Print the --help text to f. */
void
options_help(FILE *f)
{
	const struct optdef	*o;
	char			 left[64];
	size_t			 i;
	int			 n;

	fputs("Usage: " PROGNAME " [OPTION]... [FILE|DIR|-]...\n"
	    "Scan Linux kernel logs for leaked kernel virtual addresses.\n"
	    "With no FILE and a standard input that is not a terminal, or"
	    " when FILE is -,\n"
	    "read standard input.  Directories are walked recursively.\n",
	    f);
	for (i = 0; i < NOPTDEFS; i++) {
		o = &optdefs[i];
		if (o->name == NULL) {
			fprintf(f, "\n%s\n", o->help);
			continue;
		}
		if (o->val < 256)
			n = snprintf(left, sizeof(left), "  -%c, --%s",
			    o->val, o->name);
		else
			n = snprintf(left, sizeof(left), "      --%s",
			    o->name);
		if (o->has_arg == required_argument)
			n += snprintf(left + n, sizeof(left) - n, "=%s",
			    o->arg);
		else if (o->has_arg == optional_argument)
			n += snprintf(left + n, sizeof(left) - n, "[=%s]",
			    o->arg);
		if (n + 1 >= HELP_COLUMN)
			fprintf(f, "%s\n%*s%s\n", left, HELP_COLUMN, "",
			    o->help);
		else
			fprintf(f, "%-*s%s\n", HELP_COLUMN, left, o->help);
	}
	fputs("\nExit status: 0 no leak found, 1 leaks found, 2 an error"
	    " (errors win,\n"
	    "except -q with a leak found, which gives 1).  NO_COLOR set"
	    " and not empty\n"
	    "turns --color=auto off.  See kleakscan(1).\n", f);
}

/* Parse an unsigned number in base (10 or 16, 0x allowed in 16). */
static int
parse_u64(const char *s, int base, uint64_t *v)
{
	unsigned long long	 n;
	char			*end;

	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (*s == '\0' || *s == '-' || *s == '+' || *s == ' ')
		return (-1);
	errno = 0;
	n = strtoull(s, &end, base);
	if (errno != 0 || *end != '\0')
		return (-1);
	*v = n;
	return (0);
}

/*
 * Parse a SIZE: digits and an optional K, M, G or T (powers of 1024, any
 * case, an optional B or iB after it); 0 is "no limit".
 */
static int
parse_size(const char *s, uint64_t *v)
{
	unsigned long long	 n;
	char			*end;
	unsigned		 shift;

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno != 0)
		return (-1);
	shift = 0;
	switch (*end) {
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	case 't':
	case 'T':
		shift = 40;
		break;
	case 'b':
	case 'B':
	case '\0':
		break;
	default:
		return (-1);
	}
	if (shift != 0) {
		end++;
		if (*end == 'i' && (end[1] == 'B' || end[1] == 'b'))
			end++;
	}
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end != '\0')
		return (-1);
	if (n > (UINT64_MAX >> shift))
		return (-1);
	*v = (uint64_t)n << shift;
	return (0);
}

/* A limit from the command line: 0 turns it off. */
static uint64_t
limit_value(uint64_t v)
{
	return (v == 0 ? UINT64_MAX : v);
}

/* Resolve --arch NAME (a profile name or auto). */
static void
parse_arch(struct cli *cli, const char *s)
{
	cli->arch_set = 1;
	if (kl_arch_parse(s, &cli->kl.arch) == -1)
		log_usage("unknown architecture '%s' (see --list-arches)", s);
}

/* Pick one of a list of words; returns its index or exits. */
static int
parse_word(const char *opt, const char *s, const char *const *words)
{
	int	i;

	for (i = 0; words[i] != NULL; i++)
		if (strcmp(s, words[i]) == 0)
			return (i);
	log_usage("invalid argument '%s' for --%s", s, opt);
	/* NOTREACHED */
	return (-1);
}

/* Parse a 128-bit key written as 32 hex digits. */
static int
parse_key(const char *s, uint8_t key[16])
{
	int	i, hi, lo;

	if (strlen(s) != 32)
		return (-1);
	for (i = 0; i < 16; i++) {
		hi = kl_hex_value((uint8_t)s[2 * i]);
		lo = kl_hex_value((uint8_t)s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return (-1);
		key[i] = (uint8_t)(hi << 4 | lo);
	}
	return (0);
}

/* Fill key with random bytes (the default --hash-key): 0, or -1. */
static int
random_key(uint8_t key[16])
{
	ssize_t	n;
	int	fd;

	if ((fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	do
		n = read(fd, key, 16);
	while (n == -1 && errno == EINTR);
	close(fd);
	return (n == 16 ? 0 : -1);
}

/*
 * An option given once or twice: the second names the newer kernel
 * (fix_state); a third is a usage error.
 */
static void
twice(const char *opt, const char **first, const char **second,
    const char *arg)
{
	if (*second != NULL)
		log_usage("--%s: give it once, or twice (the older, then the "
		    "newer)", opt);
	if (*first == NULL)
		*first = arg;
	else
		*second = arg;
}

/* Does the environment ask for no color (no-color.org rule)? */
static int
no_color_env(void)
{
	const char	*s;

	if ((s = getenv("NO_COLOR")) != NULL && *s != '\0')
		return (1);
	if ((s = getenv("TERM")) == NULL || strcmp(s, "dumb") == 0)
		return (1);
	return (0);
}

/* Check combinations and resolve what depends on the whole line. */
static void
options_finish(struct cli *cli)
{
	const struct kl_arch	*a;

	if (cli->json && cli->mode != MODE_LINES && !cli->quiet)
		log_usage("--json cannot be used with -c, -l or -L");
	if (cli->page_offset_set && cli->arch_set &&
	    cli->kl.arch != KL_ARCH_AUTO &&
	    (a = kl_arch_get(cli->kl.arch)) != NULL &&
	    (a->flags & KL_ARCH_PAGE_OFFSET) == 0)
		log_usage("--page-offset does not apply to %s", a->name);

	if (!cli->redact && (cli->output != NULL || cli->in_place ||
	    cli->output_dir != NULL || cli->receipt != NULL))
		log_usage("-o, --in-place, --output-dir and --receipt need "
		    "--redact");
	if (cli->break_links && !cli->in_place)
		log_usage("--break-links needs --in-place");
	if (cli->redact) {
		if (cli->json || cli->mode != MODE_LINES || cli->quiet ||
		    cli->stats)
			log_usage("--redact writes the logs: it cannot be used "
			    "with --json, -c, -l, -L, -q or --stats");
		if ((cli->output != NULL) + cli->in_place +
		    (cli->output_dir != NULL) > 1)
			log_usage("-o, --in-place and --output-dir: give one");
		if (cli->ropt.style == KL_REDACT_HASH && !cli->hash_key_set &&
		    random_key(cli->ropt.key) == -1)
			log_fatal("cannot read /dev/urandom for a hash key: %s",
			    strerror(errno));
		/* The rewriter decides on suppressed tokens too (level 3). */
		cli->kl.suppressed = 1;
		/* deslide: a boot segment's addresses wait for its slide. */
		if (cli->ropt.deslide)
			cli->ropt.max_hold = DESLIDE_HOLD;
	}
	if (cli->live && cli->live_root != NULL)
		log_usage("--live and --live-root: give one");
	if ((cli->live || cli->live_root != NULL) && (cli->redact ||
	    cli->noperands > 0 || cli->files_from != NULL))
		log_usage("--live and --live-root take no inputs and cannot "
		    "be used with --redact");
	if (cli->squash_by_path && cli->squash_by_filename)
		log_usage("--squash-by-path and --squash-by-filename: give "
		    "one");

	if (cli->fix_dir != NULL && cli->kernel_source == NULL)
		log_usage("--fix-dir needs --kernel-source (the tree the "
		    "patches apply to)");
	/* The patches are those of a report's rows. */
	if (cli->sarif || cli->fix_dir != NULL)
		cli->report = 1;
	if (!cli->report && (cli->top != 0 || cli->show_addresses))
		log_usage("--top and --show-addresses need --report or "
		    "--sarif");
	if (cli->report && (cli->redact || cli->mode != MODE_LINES ||
	    cli->kl.suppressed))
		log_usage("--report and --sarif cannot be used with --redact, "
		    "-c, -l, -L or --show-suppressed");
	if (cli->sarif && cli->json)
		log_usage("--sarif and --json: give one");
	if (cli->baseline != NULL && cli->redact)
		log_usage("--baseline cannot be used with --redact");
	/*
	 * -q prints nothing: no report is made, and the exit status is
	 * -q's (1 at the first finding of a template --baseline lacks).
	 */
	if (cli->report && cli->quiet)
		cli->report = cli->sarif = 0;
	if (cli->from_start && !cli->follow)
		log_usage("--from-start needs --follow");
	if (cli->follow && (cli->noperands > 1 || cli->files_from != NULL ||
	    cli->live || cli->live_root != NULL || cli->merge ||
	    cli->shard_n != 0))
		log_usage("--follow takes one input (/dev/kmsg, a file, or - "
		    "for standard input): not --files-from, --live, "
		    "--live-root, --merge or --shard");
	if (cli->follow && (cli->mode != MODE_LINES || cli->sarif ||
	    cli->in_place || cli->output_dir != NULL))
		log_usage("--follow prints as records arrive: it cannot be "
		    "used with -c, -l, -L, --sarif, --in-place or "
		    "--output-dir");

	switch (cli->color) {
	case WHEN_ALWAYS:
		cli->use_color = 1;
		break;
	case WHEN_NEVER:
		cli->use_color = 0;
		break;
	default:
		cli->use_color = isatty(STDOUT_FILENO) && !no_color_env();
		break;
	}
	if (cli->json || cli->quiet)
		cli->use_color = 0;
}

/* Is an argv word a long option? */
static int
is_long(const char *s)
{
	return (s[0] == '-' && s[1] == '-' && s[2] != '\0');
}

/* Build the getopt_long tables from optdefs. */
static void
options_tables(struct option *lo, char *so)
{
	size_t	i, n;

	n = 0;
	*so++ = ':';
	for (i = 0; i < NOPTDEFS; i++) {
		if (optdefs[i].name == NULL)
			continue;
		lo[n].name = optdefs[i].name;
		lo[n].has_arg = optdefs[i].has_arg;
		lo[n].flag = NULL;
		lo[n].val = optdefs[i].val;
		n++;
		if (optdefs[i].val < 256) {
			*so++ = (char)optdefs[i].val;
			if (optdefs[i].has_arg == required_argument)
				*so++ = ':';
		}
	}
	memset(&lo[n], 0, sizeof(lo[n]));
	*so = '\0';
}

/* Parse argv into cli; exits 2 on a usage error and 0 after --help. */
void
options_parse(int argc, char **argv, struct cli *cli)
{
	static const enum kl_format format_ids[] = {
		KL_FORMAT_AUTO, KL_FORMAT_TEXT, KL_FORMAT_KMSG,
		KL_FORMAT_EXPORT, KL_FORMAT_JSON
	};
	struct option	 lo[NOPTDEFS + 1];
	char		 so[2 * NOPTDEFS + 2];
	const char	*shell = NULL;
	uint64_t	 v;
	int		 c, k;

	memset(cli, 0, sizeof(*cli));
	cli->kl.arch = KL_ARCH_AUTO;
	cli->kl.format = KL_FORMAT_AUTO;
	cli->kl.engine = KL_ENGINE_FAST;
	cli->filename = -1;
	cli->read_size = READ_SIZE_DEFAULT;
	cli->limits.max_depth = MAX_DEPTH_DEFAULT;
	cli->ropt.level = 2;
	cli->ropt.style = KL_REDACT_ZERO;
	cli->live_timeout = 600;

	options_tables(lo, so);
	opterr = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		switch (c) {
		case 'a':
			parse_arch(cli, optarg);
			break;
		case OPT_LIST_ARCHES:
			cli->list_arches = 1;
			break;
		case OPT_PAGE_OFFSET:
			if (parse_u64(optarg, 16, &v) == -1 || v == 0)
				log_usage("invalid page offset '%s'", optarg);
			cli->kl.page_offset = v;
			cli->page_offset_set = 1;
			break;
		case OPT_FORMAT:
			cli->format = format_ids[parse_word("format", optarg,
			    formats)];
			/* Lines in text units, journal fields: kmsg or not. */
			cli->kl.format = cli->format == KL_FORMAT_KMSG ?
			    KL_FORMAT_KMSG : cli->format == KL_FORMAT_TEXT ?
			    KL_FORMAT_TEXT : KL_FORMAT_AUTO;
			break;
		case OPT_ENGINE:
			if (parse_word("engine", optarg, engines) == 0)
				cli->kl.engine = KL_ENGINE_FAST;
			else
				cli->kl.engine = KL_ENGINE_PCRE2;
			break;
		case OPT_SHOW_SUPPRESSED:
			cli->kl.suppressed = 1;
			break;
		case OPT_BINARY_FILES:
			cli->binary_files = parse_word("binary-files", optarg,
			    binfiles) == 0 ? BINARY_TEXT : BINARY_SKIP;
			break;
		case OPT_FILES_FROM:
			cli->files_from = optarg;
			break;
		case '0':
			cli->null = 1;
			break;
		case OPT_LABEL:
			cli->label = optarg;
			break;
		case OPT_READ_SIZE:
			if (parse_u64(optarg, 10, &v) == -1 || v == 0 ||
			    v > READ_SIZE_MAX)
				log_usage("invalid read size '%s' (1 to %d)",
				    optarg, READ_SIZE_MAX);
			cli->read_size = (size_t)v;
			break;
		case 'j':
			if (parse_u64(optarg, 10, &v) == -1 || v == 0 ||
			    v > JOBS_MAX)
				log_usage("invalid number of jobs '%s' "
				    "(1 to %d)", optarg, JOBS_MAX);
			cli->jobs = (unsigned)v;
			cli->limits.threads = (unsigned)v;	/* xz */
			break;
		case OPT_MAX_DEPTH:
			if (parse_u64(optarg, 10, &v) == -1 || v == 0 ||
			    v > MAX_DEPTH_MAX)
				log_usage("invalid depth '%s' (1 to %d)",
				    optarg, MAX_DEPTH_MAX);
			cli->limits.max_depth = (unsigned)v;
			break;
		case OPT_MAX_MEMBER_SIZE:
			if (parse_size(optarg, &v) == -1)
				log_usage("invalid size '%s' for --%s", optarg,
				    "max-member-size");
			cli->limits.max_member = limit_value(v);
			break;
		case OPT_MAX_RATIO:
			if (parse_u64(optarg, 10, &v) == -1)
				log_usage("invalid ratio '%s'", optarg);
			cli->limits.max_ratio = limit_value(v);
			break;
		case OPT_MAX_TOTAL:
			if (parse_size(optarg, &v) == -1)
				log_usage("invalid size '%s' for --%s", optarg,
				    "max-total");
			cli->limits.max_total = limit_value(v);
			break;
		case OPT_JSON:
			cli->json = 1;
			break;
		case 'c':
			cli->mode = MODE_COUNT;
			break;
		case 'l':
			cli->mode = MODE_WITH;
			break;
		case 'L':
			cli->mode = MODE_WITHOUT;
			break;
		case 'q':
			cli->quiet = 1;
			break;
		case 's':
			cli->no_messages = 1;
			break;
		case OPT_STATS:
			cli->stats = 1;
			break;
		case 'b':
			cli->byte_offset = 1;
			break;
		case 'H':
			cli->filename = 1;
			break;
		case 'h':
			cli->filename = 0;
			break;
		case OPT_COLOR:
			if (optarg == NULL)
				cli->color = WHEN_AUTO;
			else
				cli->color = (enum when)parse_word("color",
				    optarg, whens);
			break;
		case OPT_SYSTEM_MAP:
			cli->maps = xreallocarray(cli->maps, cli->nmaps + 1,
			    sizeof(*cli->maps));
			cli->maps[cli->nmaps++] = optarg;
			break;
		case OPT_SYSTEM_MAP_DIR:
			cli->map_dir = optarg;
			break;
		case OPT_VERDICT:
			cli->verdict = 1;
			break;
		case OPT_LEAK_SOURCES:
			cli->leak_sources = optarg;
			break;
		case OPT_PHYSICAL:
			cli->physical = 1;
			break;
		case OPT_KERNEL_SOURCE:
			twice("kernel-source", &cli->kernel_source,
			    &cli->kernel_source_new, optarg);
			break;
		case OPT_PRINTK_INDEX:
			twice("printk-index", &cli->printk_index,
			    &cli->printk_index_new, optarg);
			break;
		case OPT_REDACT:
			cli->redact = 1;
			break;
		case 'o':
			cli->output = optarg;
			break;
		case OPT_IN_PLACE:
			cli->in_place = 1;
			break;
		case OPT_OUTPUT_DIR:
			cli->output_dir = optarg;
			break;
		case OPT_BREAK_LINKS:
			cli->break_links = 1;
			break;
		case OPT_RESTRICT:
			if (parse_u64(optarg, 10, &v) == -1 || v < 2 || v > 4)
				log_usage("invalid level '%s' for --restrict "
				    "(2, 3 or 4)", optarg);
			cli->ropt.level = (int)v;
			break;
		case OPT_REDACT_STYLE:
			/* zero, hash, deslide (zero), deslide,hash */
			k = parse_word("redact-style", optarg, styles);
			cli->ropt.style = k % 2 == 0 ? KL_REDACT_ZERO :
			    KL_REDACT_HASH;
			cli->ropt.deslide = k >= 2;
			break;
		case OPT_HASH_KEY:
			if (parse_key(optarg, cli->ropt.key) == -1)
				log_usage("invalid hash key '%s' (32 hex "
				    "digits)", optarg);
			cli->hash_key_set = 1;
			break;
		case OPT_RECEIPT:
			cli->receipt = optarg;
			break;
		case 'V':
			cli->version = 1;
			break;
		case OPT_HELP:
			cli->help = 1;
			break;
		case OPT_REPORT:
			cli->report = 1;
			break;
		case OPT_TOP:
			if (parse_u64(optarg, 10, &v) == -1 || v == 0 ||
			    v > 1000000000)
				log_usage("--top: not a positive number: %s",
				    optarg);
			cli->top = (size_t)v;
			break;
		case OPT_SARIF:
			cli->sarif = 1;
			break;
		case OPT_SHOW_ADDRESSES:
			cli->show_addresses = 1;
			break;
		case OPT_BASELINE:
			cli->baseline = optarg;
			break;
		case OPT_LIVE:
			cli->live = 1;
			break;
		case OPT_LIVE_ROOT:
			cli->live_root = optarg;
			break;
		case OPT_LIVE_USER:
			cli->live_user = optarg;
			break;
		case OPT_LIVE_PRIVILEGED:
			cli->live_privileged = 1;
			break;
		case OPT_LIVE_TIMEOUT:
			if (parse_u64(optarg, 10, &v) == -1 || v > 86400)
				log_usage("invalid --live-timeout '%s'",
				    optarg);
			cli->live_timeout = (unsigned)v;
			break;
		case OPT_SQUASH_BY_PATH:
			cli->squash_by_path = 1;
			break;
		case OPT_SQUASH_BY_FILENAME:
			cli->squash_by_filename = 1;
			break;
		case OPT_SHARD:
			if (shard_parse(optarg, &cli->shard_k,
			    &cli->shard_n) == -1)
				log_usage("--shard: not K/N with 1 <= K <= N: "
				    "%s", optarg);
			break;
		case OPT_MERGE:
			cli->merge = 1;
			break;
		case OPT_FIX_DIR:
			cli->fix_dir = optarg;
			break;
		case OPT_FOLLOW:
			cli->follow = 1;
			break;
		case OPT_FROM_START:
			cli->from_start = 1;
			break;
		case OPT_COMPLETION:
			shell = shells[parse_word("completion", optarg,
			    shells)];
			break;
		case ':':
			if (is_long(argv[optind - 1]))
				log_usage("option '%s' needs an argument",
				    argv[optind - 1]);
			log_usage("option '-%c' needs an argument", optopt);
			break;
		default:
			if (is_long(argv[optind - 1]))
				log_usage("unknown option '%s'",
				    argv[optind - 1]);
			log_usage("unknown option '-%c'", optopt);
			break;
		}
	}
	if (cli->help) {
		options_help(stdout);
		if (fflush(stdout) == EOF || ferror(stdout))
			exit(2);
		exit(0);
	}
	if (shell != NULL) {
		completion_print(stdout, shell, optdefs, NOPTDEFS, optwords);
		if (fflush(stdout) == EOF || ferror(stdout))
			exit(2);
		exit(0);
	}
	cli->operands = argv + optind;
	cli->noperands = argc - optind;
	cli->argv = argv;
	cli->argc = argc;
	if (cli->merge && (cli->shard_n != 0 || cli->files_from != NULL ||
	    cli->live || cli->live_root != NULL || cli->redact))
		log_usage("--merge takes report files only: not with --shard, "
		    "--files-from, --live, --live-root or --redact");
	if (cli->shard_n != 0 && (cli->live || cli->live_root != NULL))
		log_usage("--shard cannot be used with --live or --live-root");
	options_finish(cli);
}

/* Print --version: program, PCRE2 and JIT state, native journals. */
void
options_version(const struct cli *cli)
{
	struct kl_engine	*e;
	struct kl_error		 err;
	char			 v[128];

	memset(v, 0, sizeof(v));
	memset(&err, 0, sizeof(err));
	printf("%s %s\n", PROGNAME, PACKAGE_VERSION);
#ifdef KLEAKSCAN_PACKAGE
	printf("package: %s\n", KLEAKSCAN_PACKAGE);
#endif
	if (kl_engine_pcre2_version(v, sizeof(v)) == NULL || v[0] == '\0')
		snprintf(v, sizeof(v), "unknown");
	v[sizeof(v) - 1] = '\0';
	e = kl_engine_new(&cli->kl, &err);
	if (e == NULL)
		printf("PCRE2 %s, JIT unknown (%s)\n", v,
		    err.msg[0] != '\0' ? err.msg : "no engine");
	else
		printf("PCRE2 %s, JIT %s\n", v,
		    kl_engine_jit(e) ? "on" : "off (interpreter)");
	kl_engine_free(e);
	if (strcmp(kl_input_inflater(), "ISA-L") == 0)
		printf("gzip: ISA-L\n");
	else
		printf("gzip: zlib (configure --with-isal for ISA-L)\n");
	if (strcmp(kl_input_xz_decoder(), "libarchive") == 0)
		printf("xz: libarchive (configure with liblzma >= 5.4 for "
		    "several cores)\n");
	else
		printf("xz: %s\n", kl_input_xz_decoder());
#ifdef HAVE_SYSTEMD
	printf("native journals: yes (libsystemd)\n");
#else
	printf("native journals: no (configure --with-systemd)\n");
#endif
}

/* Print the flags of a layout row as words. */
static void
print_row_flags(unsigned flags)
{
	if (flags == 0)
		return;
	fputs(" [", stdout);
	if (flags & KL_AR_RANDOMIZED)
		fputs((flags & KL_AR_SHARED) ? "randomized, " : "randomized",
		    stdout);
	if (flags & KL_AR_SHARED)
		fputs("shared", stdout);
	fputs("]", stdout);
}

/* Print one profile and its layout rows; -1 on a library error. */
static int
list_arch(const struct cli *cli, const struct kl_arch *a)
{
	struct kl_layout	 lay;
	struct kl_error		 err;
	const struct kl_arch_region *r;
	int			 w;
	size_t			 i;

	memset(&err, 0, sizeof(err));
	memset(&lay, 0, sizeof(lay));
	if (kl_arch_layout(a->id, cli->kl.page_offset, &lay, &err) == -1) {
		log_error(a->name, strlen(a->name), 0, "%s", err.msg);
		return (-1);
	}
	w = a->bits == 32 ? 8 : 16;
	printf("%s %u-bit page-offset 0x%0*" PRIx64 " %s\n", a->name, a->bits,
	    w, lay.page_offset != 0 ? lay.page_offset : a->page_offset,
	    a->descr != NULL ? a->descr : "");
	if (a->flags & KL_ARCH_CONTEXT_ONLY)
		printf("\tcontext only: values cannot be classified\n");
	for (i = 0; i < lay.n && i < KL_LAYOUT_MAX; i++) {
		r = &lay.row[i];
		printf("\t%0*" PRIx64 "-%0*" PRIx64 " %s %s %s", w, r->lo, w,
		    r->hi, kl_region_name(r->region),
		    kl_severity_name(r->severity),
		    r->what != NULL ? r->what : "");
		print_row_flags(r->flags);
		if (r->doc != NULL)
			printf(" (%s)", r->doc);
		putchar('\n');
	}
	return (0);
}

/* Print --list-arches; returns the exit status. */
int
options_list_arches(const struct cli *cli)
{
	const struct kl_arch	*a;
	size_t			 i;
	int			 n, status;

	n = 0;
	status = 0;
	for (i = 0; (a = kl_arch_at(i)) != NULL; i++) {
		if (cli->arch_set && cli->kl.arch != KL_ARCH_AUTO &&
		    a->id != cli->kl.arch)
			continue;
		if (n++ > 0)
			putchar('\n');
		if (list_arch(cli, a) == -1)
			status = 2;
	}
	if (n == 0) {
		log_error(NULL, 0, 0, "no architecture profiles");
		status = 2;
	}
	out_check();
	return (status);
}
