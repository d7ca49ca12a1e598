/*
 * kleakscan.h - prototypes of the kleakscan program (src/), grouped by
 * file.  The scanning itself is in lib/ (kleak.h); this is options, inputs,
 * printers, diagnostics and the exit status.
 */
#ifndef KLEAKSCAN_H
#define KLEAKSCAN_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kleak.h"

#define PROGNAME	"kleakscan"

#define READ_SIZE_DEFAULT	(256 * 1024)
#define READ_SIZE_MAX		(64 * 1024 * 1024)
#define MAX_DEPTH_DEFAULT	8
#define MAX_DEPTH_MAX		KL_INPUT_DEPTH_MAX
#define JOBS_MAX		256
#define DESLIDE_HOLD		(64u << 20)	/* bytes of a boot held for
						   its slide (deslide) */

/* What is printed per input (the last of -c, -l, -L wins). */
enum mode {
	MODE_LINES = 0,		/* one line per finding */
	MODE_COUNT,		/* -c */
	MODE_WITH,		/* -l */
	MODE_WITHOUT,		/* -L */
};

/* --color=WHEN */
enum when {
	WHEN_AUTO = 0,
	WHEN_ALWAYS,
	WHEN_NEVER,
};

/* --binary-files=TYPE: auto scans named inputs, skips walked and members. */
enum binfiles {
	BINARY_AUTO = 0,
	BINARY_TEXT,
	BINARY_SKIP,
};

/* The command line, frozen after parsing. */
struct cli {
	struct kl_options	 kl;		/* handed to kl_engine_new() */
	enum kl_format		 format;	/* --format as given */
	struct kl_limits	 limits;	/* handed to kl_input_fd() */
	int			 arch_set;	/* --arch given */
	int			 page_offset_set;
	enum mode		 mode;
	int			 json;
	int			 quiet;		/* -q */
	int			 no_messages;	/* -s */
	int			 stats;
	int			 byte_offset;	/* -b */
	int			 filename;	/* -H 1, -h 0, -1 auto */
	enum when		 color;
	int			 null;		/* -0 */
	int			 list_arches;
	int			 version;
	int			 help;
	const char		*label;
	const char		*files_from;
	size_t			 read_size;
	int			 redact;	/* --redact */
	const char		*output;	/* -o */
	const char		*output_dir;	/* --output-dir */
	int			 in_place;
	int			 break_links;	/* --break-links */
	struct kl_redact_opts	 ropt;		/* --restrict, style, key */
	int			 hash_key_set;
	const char		*receipt;
	const char		**maps;		/* --system-map, repeated */
	size_t			 nmaps;
	const char		*map_dir;	/* --system-map-dir */
	const char		*leak_sources;	/* --leak-sources */
	unsigned		 jobs;		/* -j, 0: not given */
	int			 physical;	/* --physical */
	int			 verdict;	/* --verdict */
	enum binfiles		 binary_files;	/* --binary-files */
	const char		*kernel_source;	/* --kernel-source */
	const char		*printk_index;	/* --printk-index */
	const char		*kernel_source_new; /* ... given again: the
						   newer kernel */
	const char		*printk_index_new;
	char			**operands;
	int			 noperands;
	int			 report;	/* --report (or --sarif) */
	size_t			 top;		/* --top, 0: every row */
	int			 sarif;		/* --sarif */
	int			 show_addresses; /* --show-addresses */
	const char		*baseline;	/* --baseline */
	const char		*fix_dir;	/* --fix-dir */

	/* Resolved after parsing. */
	int			 show_names;
	int			 use_color;

	/* --live, --live-root (live.c). */
	int			 live;		/* --live */
	const char		*live_root;	/* --live-root */
	const char		*live_user;	/* --live-user */
	int			 live_privileged;
	unsigned		 live_timeout;	/* seconds, 0: none */
	int			 squash_by_path;
	int			 squash_by_filename;
	/* --shard, --merge (shard.c, merge.c). */
	unsigned		 shard_k;	/* 0: not sharded */
	unsigned		 shard_n;
	int			 merge;		/* --merge */
	/* --follow (follow.c). */
	int			 follow;	/* --follow */
	int			 from_start;	/* --from-start */
	char			**argv;		/* as given, for the report */
	int			 argc;
};

/*
 * One unit being scanned: a file, a walked file, stdin, or a member (of a
 * member ...) of an archive or a compressed stream.
 */
struct input {
	const char		*name;		/* input name, raw bytes */
	size_t			 namelen;
	/* member chain, outermost first */
	const char *const	*members;
	size_t			 nmembers;
	const char		*disp;		/* name{member}...: escaped */
	int			 is_stdin;
	int			 begun;		/* opened, begin event sent */
	int			 skipped;	/* binary: not scanned */
	unsigned		 errors;	/* errors on this input */
	uint64_t		 leaks;		/* findings not suppressed */
	/* suppressed findings delivered */
	uint64_t		 suppressed;
	/* boot segments giving the slide */
	uint64_t		 slides;
	uint64_t		 disclosed[KL_REGION_COUNT]; /* segments
						   disclosing each region */
};

/* Totals over every input, for --stats and the JSON summary. */
struct totals {
	uint64_t	 inputs;
	uint64_t	 skipped_binary;
	uint64_t	 errors;
	uint64_t	 bytes;
	uint64_t	 lines;
	uint64_t	 findings;
	uint64_t	 boots;
	uint64_t	 unhashed;
	uint64_t	 region[KL_REGION_COUNT];
	uint64_t	 suppressed[KL_SUP_COUNT];
	uint64_t	 slides;	/* boot segments giving the slide */
	uint64_t	 disclosed[KL_REGION_COUNT]; /* segments disclosing */
	uint64_t	 baselined;	/* findings --baseline held back */
};

/* What a worker sends back about its input (jobs.c). */
struct jobres {
	struct totals	 tot;
	uint64_t	 errors;	/* errors counted */
	int		 leaked;	/* a leak was found */
	int		 stop;		/* -q: stop every input */
	int		 tmp_errno;	/* its output files failed */
};

/* What jobs.c calls back. */
struct jobs_ops {
	void	*arg;
	/* In a worker: scan one input, fill in its record. */
	void	(*scan)(void *, const char *, const char *, int, int,
		    int, struct jobres *);
	/* In the parent, in input order: a worker's record. */
	void	(*merge)(void *, const struct jobres *);
	/* In the parent, in input order: a walk error. */
	void	(*error)(void *, const char *, uint64_t, const char *);
	/* Writing stdout failed with errnum: end as -j 1 would. */
	void	(*out_failed)(int);
	/* In a worker: scan one unit of an archive (members.c). */
	void	(*unit)(void *, int, struct jobres *);
};

/* The report of one boot segment. */
struct bootrep {
	struct kl_boot		 b;
	struct kl_boot_verdict	 v;
	char			 release[128];	/* "" when unknown */
	int			 has_map;
	char			 map[1024];	/* the System.map used */
};

/* A boot segment of a rewritten unit, as the deslide check saw it. */
struct check_boot {
	unsigned		 boot;
	int			 has_slide;	/* the output tells a slide */
	uint64_t		 slide;
	unsigned		 votes;		/* evidence agreeing */
};

/* A report printer: text or JSON Lines. */
struct printer {
	void	(*begin)(const struct input *);
	/*
	 * A finding; sym is its symbol (%pS) or NULL; who can read it and
	 * why (--live, --live-root), or NULL.
	 */
	void	(*finding)(const struct input *, const struct kl_finding *,
		    const char *, const char *, const char *);
	void	(*boot)(const struct input *, const struct bootrep *);
	void	(*error)(const struct input *, uint64_t, const char *);
	void	(*end)(const struct input *, const struct kl_stats *);
	void	(*summary)(const struct totals *);
};

/* A growable character buffer for escaped text. */
struct buf {
	char	*p;
	size_t	 size;
	size_t	 len;
};

/* Callbacks of the input walk. */
struct walk_cb {
	void	*arg;
	/* An open input: scan it, close fd; non-zero stops the walk. */
	int	(*input)(void *, const char *, int);
	/* The same for a file met in a directory walk (NULL: input). */
	int	(*walked)(void *, const char *, int);
	/* A path that could not be used (line 0 when not in a list). */
	void	(*error)(void *, const char *, uint64_t, const char *);
};

/*
 * One option: parsing, --help and the shell completions in one place; name
 * NULL is a heading.
 */
struct optdef {
	const char	*name;
	int		 has_arg;
	int		 val;		/* short option letter or OPT_* */
	const char	*arg;		/* argument name for --help */
	const char	*help;
};

/* The words the argument of an option takes (for the completions). */
struct optwords {
	int		 val;
	const char *const *words;	/* NULL-terminated */
};

/* Why the scan of an input stopped early. */
enum stop {
	STOP_NONE = 0,
	STOP_INPUT,		/* -l or -L: the answer is known */
	STOP_ALL,		/* -q: a leak was found */
};

/* The unit being scanned: one at a time. */
struct unit {
	struct input		 in;
	enum kl_unit_kind	 kind;		/* how it is scanned */
	struct kl_journal	*jr;		/* export and JSON units */
	int			 open;		/* begun, not finished */
	int			 dead;		/* no more data is scanned */
	/* cut short by the input layer */
	int			 cut;
	uint64_t		 bytes;		/* bytes of the unit seen */
	struct kl_chunker	*chunker;	/* its chunked scan */
	uint64_t		 made[KL_REGION_COUNT]; /* findings that
						   lines made (layout...) */
	uint64_t		 baselined[KL_REGION_COUNT]; /* findings
						   of baselined templates */
	char			*boot_id;	/* last _BOOT_ID seen */
	int			 sniff;		/* the first data may be mail */
	int			 held;		/* its begin event waits */
	struct kl_mime		*mail;		/* a mail container's reader */
	int			 mopen;		/* a message is open */
	int			 mdead;		/* ... and is scanned no more */
	const char		**chain;	/* its members, the message */
	size_t			 nchain;	/* members above the message */
	char			*mname;		/* the message's name */
	uint64_t		 mline;		/* its first stored line */
	struct mark {			/* stored lines of scan marks */
		uint64_t	 off;		/* decoded offset */
		uint64_t	 line;		/* its stored line */
		uint64_t	 lline;		/* ... as a line's last byte */
	}			 marks[KL_SCAN_MARKS];
	size_t			 nmarks;
};

/* The state of one run of the program. */
struct run {
	const struct cli	*cli;
	const struct printer	*pr;
	struct kl_engine	*engine;
	struct kl_scan		*scan;
	struct kl_sink		 sink;
	struct kl_input_ops	 iops;
	struct kl_journal_ops	 jops;
	struct input		*cur;
	struct unit		 u;
	struct buf		 disp;		/* the unit's text name */
	const char		*native;	/* path for a native journal */
	int			 is_stdin;	/* the input is stdin */
	enum stop		 stop;
	int			 leaked;	/* a leak was found */
	int			 jobs;		/* inputs go to workers */
	int			 split;		/* ...archive members too */
	int			 stdin_only;	/* ...not stdin alone */
	struct totals		 tot;
	struct kl_mime_ops	 mops;		/* mail containers */
	int			 defer;		/* hold the next begin event */
	int			 signalled;	/* --follow: SIGTERM, SIGINT */
	/* chunk_kind(): the input is scanned in chunks on threads */
	unsigned		 chunk_threads;
	size_t			 chunk_bytes;
};

/* run.c */
void		 run_out_failed(int);
_Noreturn void	 run_main(struct cli *);

/* chunk.c */
enum chunk_kind {
	CHUNK_NONE,
	CHUNK_FILE,		/* a big plain file: chunk_input() */
	CHUNK_STREAM		/* a compressed stream: its text unit */
};
enum chunk_kind	 chunk_kind(struct run *, int, unsigned);
int		 chunk_input(struct run *, const char *, int);

/* follow.c */
void		 follow_prepare(struct cli *);
void		 follow_run(struct run *);

/* follow-report.c */
const struct printer *follow_report_init(const struct cli *,
		     const struct printer *);

/* sink.c */
void		 sink_init(struct run *);

/* unit.c */
void		 unit_init(struct run *);
void		 input_error(struct input *, uint64_t, const char *, ...)
		     KL_PRINTFLIKE(3, 4);
const char	*lib_msg(const struct kl_error *);
enum kl_unit_kind unit_kind(enum kl_unit_kind);
int		 unit_begin(const char *, const char *const *, size_t,
		     enum kl_unit_kind);
void		 unit_error(uint64_t, const char *);
void		 unit_finish(const struct kl_error *);
void		 unit_chunk_note(const struct kl_chunk_stats *);
void		 unit_native(const char *);
int		 on_jerror(void *, const struct kl_error *);
int		 on_begin(void *, const struct kl_unit *);
int		 on_data(void *, const struct kl_unit *, const void *, size_t);
int		 on_end(void *, const struct kl_unit *,
		     const struct kl_error *);
int		 mail_place(const struct kl_finding *, struct kl_finding *);
void		 mail_boot(const struct kl_boot *, struct kl_boot *);

/* jobs.c */
void		 jobres_add(struct jobres *, const struct jobres *);
void		 jobs_init(unsigned, const struct jobs_ops *);
int		 jobs_input(const char *, const char *, int, int, int);
void		 jobs_error(const char *, uint64_t, const char *);
void		 jobs_finish(void);
void		 jobs_write_failed(int);
int		 jobs_unit(int);
int		 jobs_stopped(void);
int		 jobs_drain(void);
void		 jobs_start(void);

/* members.c */
int		 members_split(int);
int		 members_input(const char *, int, const struct kl_limits *,
		     const struct kl_input_ops *, struct kl_error *, int *);
int		 members_read(int, struct kl_unit *, struct kl_error *, int *,
		     uint64_t *);
void		 members_free(struct kl_unit *);

/* rewrite.c */
void		 rewrite_init(const struct cli *);
int		 rewrite_input_begin(const char *, const char *, int, char *,
		     size_t);
int		 rewrite_input_end(int, char *, size_t);
int		 rewrite_unit_begin(const struct kl_unit *, enum kl_unit_kind,
		     char *, size_t);
int		 rewrite_data(const void *, size_t, struct kl_error *);
int		 rewrite_settle(struct kl_scan *, struct kl_error *);
int		 rewrite_settle_at(struct kl_scan *, uint64_t,
		     struct kl_error *);
int		 rewrite_boot(const struct input *, const struct bootrep *,
		     const struct kl_redact_image *, struct kl_error *);
int		 rewrite_finding(const struct input *,
		     const struct kl_finding *, struct kl_error *);
int		 rewrite_unit_end(struct kl_error *);
int		 rewrite_mail(const struct input *, const struct kl_finding *,
		     const struct kl_finding *, const struct kl_mime *,
		     struct kl_error *);
int		 rewrite_settle_to(uint64_t, struct kl_error *);
int		 rewrite_full(void);
int		 rewrite_native_begin(char *, size_t);
int		 rewrite_native_end(int, char *, size_t);
void		 rewrite_fail(void);
int		 rewrite_finish(int);
int		 rewrite_out(const void *, size_t);
void		 rewrite_target(int (*)(void *, const void *, size_t), void *);
void		 rewrite_repack(int);
uint64_t	 rewrite_count(void);
const char	*rewrite_werror(void);

/* repack.c */
int		 repack_input(const struct cli *, const struct kl_input_ops *,
		     const char *, int, off_t, const uint8_t *, size_t);

/* leak-sources-data.c (generated from data/leak-sources) */
extern const char		leak_sources_data[];
extern const unsigned long	leak_sources_size;

/* deslide.c */
void		 deslide_init(const struct cli *);
void		 deslide_begin(int);
void		 deslide_feed(const void *, size_t);
ssize_t		 deslide_end(const struct check_boot **);
void		 deslide_free(void);
void		 deslide_input(const char *);
void		 deslide_stream(const char *);
void		 deslide_unit(const char *, const char *const *, size_t);
void		 deslide_learn(const struct kl_redact_image *);

/* verdict.c */
#define VERDICT_LINE_MAX 16	/* findings one line can make itself */
void		 verdict_init(const struct cli *);
void		 verdict_free(void);
void		 verdict_unit_begin(void);
int		 verdict_wants(const struct kl_line *);
const uint64_t	*verdict_line_first(void);
int		 verdict_first_fixed(void);
size_t		 verdict_line(const struct kl_line *, struct kl_finding *,
		     size_t);
const char	*verdict_rule(const struct kl_finding *, const char **);
const char	*verdict_symbol(const struct kl_finding *);
const struct kl_finding *verdict_place(const struct kl_finding *,
		     struct kl_finding *);
void		 verdict_value(const struct kl_finding *);
int		 verdict_should_wait(void);
int		 verdict_wait(const struct kl_finding *);
void		 verdict_flush(void (*)(const struct kl_finding *,
		     const char *));
void		 verdict_boot(const struct kl_boot *, struct bootrep *);
void		 verdict_image(enum kl_arch_id, struct kl_redact_image *);
const struct kl_symtab *verdict_map(const char *, const char **);
void		 verdict_capture(const char *, const struct kl_symtab *,
		     const char *, int, uint64_t);
const struct kl_leak_entry *verdict_source(const char *);

/* callsite.c */
void		 callsite_init(const struct cli *);
void		 callsite_free(void);
const struct kl_srcidx *callsite_index(void);
size_t		 callsite_match(const uint8_t *, size_t, size_t, size_t,
		     uint32_t, struct kl_srcidx_match *, size_t);
size_t		 callsite_find(const struct kl_finding *,
		     struct kl_srcidx_match *, size_t);
size_t		 callsite_row(const struct kl_report_row *,
		     struct kl_srcidx_match *, size_t);
const char	*callsite_why(const struct kl_srcidx_match *,
		     const struct kl_srcidx_match *);
int		 callsite_same_format(const struct kl_srcidx_match *,
		     const struct kl_srcidx_match *);
/* The conversions one site printed a row's addresses with. */
struct convset {
	size_t		 site;
	size_t		 off[16];	/* offsets in the site's format */
	size_t		 n;
};
void		 callsite_row_convs(const struct kl_report_row *,
		     const struct kl_srcidx_match *, struct convset *);
/* What the newest kernel given does with a row's message. */
enum fixstate {
	FIX_UNKNOWN = 0,	/* no call sites, or nothing to tell */
	FIX_OPEN,		/* printed there with a raw conversion */
	FIX_FIXED,		/* printed there with %p or %pK */
	FIX_GONE,		/* not printed there */
};
enum fixstate	 callsite_fix_state(const struct kl_report_row *,
		     struct kl_srcidx_match *);
const struct kl_srcidx *callsite_newest(void);
size_t		 callsite_row_in(const struct kl_srcidx *,
		     const struct kl_report_row *, struct kl_srcidx_match *,
		     size_t);
const char	*callsite_newest_name(void);
const char	*callsite_fix_name(enum fixstate);
/* options.c */
void		 options_parse(int, char **, struct cli *);
void		 options_help(FILE *);
void		 options_version(const struct cli *);
int		 options_list_arches(const struct cli *);

/* live.c */
void		 live_prepare(struct cli *);
void		 live_run(const struct cli *, int (*)(const char *, int));
void		 live_finish(const struct cli *);
const char	*live_who(const struct input *, const struct kl_finding *,
		     const char **);
int		 live_counts(const struct kl_finding *);
const char	*live_symbol(const struct kl_finding *);
int		 live_squash(const struct input *, const struct kl_finding *,
		     const char *);

/* live-*.c: the state of a live run is in live.h. */
struct facts;
struct live;
struct reader;
struct rhead;
struct rdata;
/* live-reader.c */
enum rkind {
	RK_FILE = 1,		/* a regular file, O_NONBLOCK, no symlink */
	RK_KMSG,		/* /dev/kmsg, else klogctl(2) */
	RK_QUIT,
};
time_t		 rd_now(void);
void		 rd_faults(struct live *);
int		 rd_start(struct live *, struct reader *);
void		 rd_stop(struct reader *, int);
void		 rd_ask(struct live *, struct reader *, enum rkind,
		     const char *, struct rdata *);
void		 rd_file(struct live *, const char *, struct buf *,
		     struct rhead *);
/* live-audit.c */
void		 audit_buf_add(struct buf *, const void *, size_t);
void		 audit_note(struct live *, const char *, const char *, ...)
		     KL_PRINTFLIKE(3, 4);
int		 audit_hexrun(const char *, size_t);
void		 audit_vals(struct live *, const char *, size_t);
int		 audit_has_val(struct live *, uint64_t);
void		 audit_scan(struct live *, const char *, const char *, size_t);
int		 audit_binary(const char *, size_t);
void		 audit_bytes(struct live *, const char *, char *, size_t,
		     char *, size_t);
int		 audit_skip(const char *, const char *);
int		 audit_failed(struct live *, const char *, const struct rdata *,
		     const char *);
/* live-walk.c */
void		 live_kmsg(struct live *);
void		 live_names(struct live *);
void		 live_walk(struct live *, const char *);
/* live-captured.c */
void		 captured_file(struct live *, const char *, const char *);
void		 captured_sc(struct live *, int);
void		 captured_facts(struct live *);
void		 captured_walk(struct live *);
int		 captured_logs(struct live *);
int		 captured_kernel_files(const char *, int,
		     int (*)(void *, const char *),
		     void (*)(void *, const char *, const char *, size_t),
		     void *);
/* live-facts.c */
const char	*facts_in_root(struct live *, const char *, char *, size_t);
int		 facts_map_text(const char *, size_t, struct facts *);
int		 facts_slide_base(const struct facts *, uint64_t *);
void		 facts_map_load(struct live *, const char *, size_t,
		     const char *);
void		 facts_learn(struct live *);
enum kl_arch_id	 facts_machine_arch(const char *, int);
void		 facts_symbols(struct live *);
void		 facts_arch(struct live *);
/* live-print.c */
void		 live_print_squash(struct live *);
void		 live_print_verdict(struct live *);
void		 live_print_counts(struct live *);

/* shard.c */
#define SHARD_MAX	1000000
unsigned	 shard_of(const char *, unsigned);
int		 shard_parse(const char *, unsigned *, unsigned *);
void		 shard_init(unsigned, unsigned);
int		 shard_take(const char *);
uint64_t	 shard_place(void);
uint64_t	 shard_given(size_t);
void		 shard_listing(uint64_t *, uint64_t *, unsigned *, unsigned *);
void		 shard_wrap(struct walk_cb *);
/* merge.c */
_Noreturn void	 merge_main(const struct cli *);
/* print-merge.c */
struct mstate;
struct mcover;
int		 merge_is_opt(const char *, const char *, int *);
int		 merge_cover_complete(const struct mcover *);
void		 merge_state_print(const struct cli *, struct kl_report *,
		     const struct totals *, uint64_t, int, struct mstate *);
/* completion.c */
void		 completion_print(FILE *, const char *, const struct optdef *,
		     size_t, const struct optwords *);

/* walk.c */
int		 walk_operand(const struct walk_cb *, const char *);
int		 walk_list(const struct walk_cb *, const char *, int);

/* print-text.c */
const struct printer *print_text_init(const struct cli *);

/* print-json.c */
const struct printer *print_json_init(const struct cli *);
void		 print_json_summary_extra(void (*)(void));

/* print-report.c */
const struct printer *print_report_init(const struct cli *);
void		 report_entry(const struct kl_jentry *);
void		 report_jobs(void);
uint64_t	 report_new(void);
void		 report_input_mark(void);
void		 report_adopt(const struct kl_report *, struct mstate *);
void		 report_leaked(int);

/* fix.c */
enum fixr {
	FIXR_NONE = 0,		/* no call site */
	FIXR_NOTRAW,		/* printed by no raw conversion */
	FIXR_NOPATCH,		/* raw, but no safe patch: why says */
	FIXR_PATCH,		/* a patch */
};
struct rowfix {
	const struct kl_report_row *row;
	enum fixr	 state;
	const char	*why;
	int		 integer;	/* no patch: of an integer */
	size_t		 patch;		/* SIZE_MAX: none */
};
struct fixedit {
	uint64_t	 line, col;	/* where it starts, 1-based */
	uint64_t	 eline, ecol;	/* the byte after it */
	const char	*text;		/* what replaces it */
};
void		 fix_init(const struct cli *);
void		 fix_rows(struct kl_report_row **, size_t);
const struct rowfix *fix_row(const struct kl_report_row *);
const char	*fix_patch_name(const struct rowfix *);
const struct kl_maint_list *fix_who(const struct rowfix *);
size_t		 fix_edits(const struct rowfix *, struct fixedit *, size_t);
const char	*fix_kind(const struct rowfix *);
void		 fix_free(void);

/* print-row.c */
void		 report_row_init(int);
const char	*report_conversion(const struct kl_report_row *);
const uint8_t	*report_example_text(const struct kl_report_ex *,
		     struct buf *);
void		 report_json_str(const void *, size_t);
void		 report_json_cstr(const char *);
void		 report_json_example(const struct kl_report_ex *);
void		 report_fix_state(const struct kl_report_row *,
		     void (*)(const char *));

/* print-sarif.c */
void		 sarif_print(const struct cli *, struct kl_report_row **,
		     size_t, const struct totals *);

/* baseline.c */
void		 baseline_load(const char *);
int		 baseline_has(const char *);

/* log.c */
void		 log_init(int);
void		 log_error(const char *, size_t, uint64_t, const char *, ...)
		     KL_PRINTFLIKE(4, 5);
void		 log_error_esc(const char *, uint64_t, const char *, ...)
		     KL_PRINTFLIKE(3, 4);
void		 log_note(const char *, const char *, ...) KL_PRINTFLIKE(2, 3);
void		 log_note_at(const char *, uint64_t, const char *, ...)
		     KL_PRINTFLIKE(3, 4);
void		 log_warnx(const char *, ...) KL_PRINTFLIKE(1, 2);
void		 log_usage(const char *, ...) KL_PRINTFLIKE(1, 2);
_Noreturn void	 log_fatal(const char *, ...) KL_PRINTFLIKE(1, 2);
uint64_t	 log_errors(void);
void		 log_add_errors(uint64_t);
int		 log_write_errno(void);
void		*xmalloc(size_t);
void		*xreallocarray(void *, size_t, size_t);
char		*xstrdup(const char *);
void		 buf_reserve(struct buf *, size_t);
void		 buf_free(struct buf *);
size_t		 fmt_u64(char *, uint64_t);
#define FNV_OFFSET	UINT64_C(0xcbf29ce484222325)
uint64_t	 fnv64(uint64_t, const void *, size_t);
void		 put_u64(uint64_t);
const char	*print_text_esc(struct buf *, const void *, size_t);
void		 name_append(struct buf *, const uint8_t *, size_t,
		     const char *, int);
const char	*print_name_esc(struct buf *, const void *, size_t, int);
const char	*print_unit_name(struct buf *, const char *, size_t,
		     const char *const *, size_t);
void		 out_on_failure(void (*)(int));
void		 out_check(void);

#endif /* KLEAKSCAN_H */
