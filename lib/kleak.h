/*
 * kleak.h - public interface of libkleak, the kernel address leak scanner.
 *
 * The library finds kernel addresses in log text.  It never prints, never
 * exits and keeps no global state: results go to a caller's sink, errors
 * to a caller's struct kl_error.  Addresses are uint64_t on every host;
 * lines and columns are 1-based, columns and offsets count bytes.
 */
#ifndef KLEAK_H
#define KLEAK_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define KL_PRINTFLIKE(a, b) __attribute__((format(printf, a, b)))
#else
#define KL_PRINTFLIKE(a, b)
#endif

/* Error codes in struct kl_error. */
enum kl_errcode {
	KL_EOK = 0,
	KL_ENOMEM,		/* allocation failed */
	KL_EIO,			/* read or write failed (errnum says why) */
	KL_EINVAL,		/* bad argument or option value */
	KL_ELIMIT,		/* a configured limit was reached */
	KL_EFORMAT,		/* malformed input */
	KL_EPCRE,		/* PCRE2 refused a pattern */
};

/* An error: what went wrong, where. */
struct kl_error {
	enum kl_errcode	 code;
	int		 errnum;	/* errno, or 0 */
	uint64_t	 line;		/* 1-based input line, 0 when none */
	/* lower-case text, no trailing newline */
	char		 msg[256];
};

/* Regions of the kernel address space a value can fall in. */
enum kl_region {
	KL_REGION_NONE = 0,	/* not a kernel address */
	KL_REGION_TEXT,		/* kernel image: text, data, bss */
	KL_REGION_MODULES,
	KL_REGION_DIRECT_MAP,	/* linear map of physical memory */
	KL_REGION_VMALLOC,	/* vmalloc/ioremap, vmapped stacks */
	KL_REGION_VMEMMAP,	/* struct page array */
	KL_REGION_CPU_ENTRY_AREA,
	KL_REGION_ESPFIX,
	KL_REGION_EFI,
	KL_REGION_KASAN_SHADOW,
	KL_REGION_FIXMAP,	/* fixmap, PCI I/O, other fixed windows */
	KL_REGION_KERNEL,	/* kernel, the arch cannot subdivide */
	KL_REGION_LAYOUT,	/* a line disclosing layout, no VA itself */
	KL_REGION_PHYSICAL,	/* a physical address */
	KL_REGION_COUNT
};

enum kl_severity {
	KL_SEV_NONE = 0,
	KL_SEV_LOW,		/* fixed or barely randomised region */
	KL_SEV_MEDIUM,		/* heap, stack, struct page: data layout */
	KL_SEV_HIGH,		/* text or modules: defeats KASLR */
	KL_SEV_COUNT
};

enum kl_confidence {
	KL_CONF_LOW = 0,	/* value only, windows overlap */
	KL_CONF_MEDIUM,		/* value in an unambiguous window */
	KL_CONF_HIGH,		/* value and context agree */
	KL_CONF_COUNT
};

/* Why a candidate token is not reported as a leak. */
enum kl_suppress {
	KL_SUP_NONE = 0,
	/* user range, non-canonical, below the kernel */
	KL_SUP_NOT_KERNEL,
	KL_SUP_HOLE,		/* inside the kernel half, in a layout hole */
	KL_SUP_HASHED,		/* hashed %p: 00000000xxxxxxxx on 64-bit */
	KL_SUP_NULL,
	KL_SUP_ERR_PTR,		/* -MAX_ERRNO..-1 */
	KL_SUP_MASK,		/* contiguous ones then zeros */
	KL_SUP_VSYSCALL,	/* the fixed legacy vsyscall page */
	KL_SUP_POISON,		/* LIST_POISON, STACKLEAK, slab poison */
	KL_SUP_UUID,		/* part of a UUID */
	KL_SUP_MAC,		/* part of a MAC address */
	KL_SUP_IPV6,		/* part of an IPv6 address */
	KL_SUP_HEXDUMP,		/* part of a byte dump (%ph, Code:) */
	KL_SUP_HASH,		/* part of a longer hash or id */
	/* arch cannot classify values (s390x, sparc64) */
	KL_SUP_CONTEXT_ONLY,
	/* a link-time layout constant (Kernel Offset:) */
	KL_SUP_CONSTANT,
	/* a page-table entry or base (*pgd=, PGD, Table:): physical */
	KL_SUP_PTE,
	/* a bus or physical address by its label (PCI BAR "Memory at") */
	KL_SUP_PHYSICAL,
	KL_SUP_COUNT
};

/* Architecture profiles (values of --arch). */
enum kl_arch_id {
	KL_ARCH_AUTO = 0,	/* decide from the log; as a result: unknown */
	KL_ARCH_X86_64,
	KL_ARCH_X86_64_L5,
	KL_ARCH_I386,
	KL_ARCH_ARM64,		/* VA_BITS 48 */
	KL_ARCH_ARM64_39,
	KL_ARCH_ARM64_42,
	KL_ARCH_ARM64_47,
	KL_ARCH_ARM64_52,
	KL_ARCH_ARM64_PRE54,	/* before the v5.4 VA flip, 48-bit */
	KL_ARCH_ARM,
	KL_ARCH_PPC64,		/* book3s */
	KL_ARCH_PPC64_BOOK3E,
	KL_ARCH_PPC32,
	KL_ARCH_RISCV64,	/* sv39 */
	KL_ARCH_RISCV64_SV48,
	KL_ARCH_RISCV64_SV57,
	KL_ARCH_MIPS64,
	KL_ARCH_LOONGARCH64,
	KL_ARCH_S390X,
	KL_ARCH_SPARC64,
	KL_ARCH_MIPS32,
	KL_ARCH_RISCV64_PRE513,	/* sv39 before v5.13, image in linear map */
	KL_ARCH_RISCV32,	/* sv32, PAGE_OFFSET 0xc0000000 */
	KL_ARCH_COUNT
};
#define KL_ARCH_UNKNOWN KL_ARCH_AUTO

/* Flags of a layout row. */
#define KL_AR_RANDOMIZED 0x1	/* base moves at boot (KASLR) */
#define KL_AR_SHARED	 0x2	/* window shared with other regions under
				   randomisation: value alone is ambiguous */

/* One row of a layout: [lo, hi] inclusive. */
struct kl_arch_region {
	uint64_t	 lo;
	uint64_t	 hi;
	enum kl_region	 region;
	enum kl_severity severity;
	unsigned	 flags;		/* KL_AR_* */
	const char	*what;		/* "kernel text mapping" */
	const char	*doc;		/* kernel document the row comes from */
};

/* Flags of a profile. */
#define KL_ARCH_CONTEXT_ONLY 0x1 /* no value rule (s390x, sparc64) */
#define KL_ARCH_PAGE_OFFSET  0x2 /* takes --page-offset (VMSPLIT) */

/* An architecture profile. */
struct kl_arch {
	enum kl_arch_id	 id;
	const char	*name;		/* "x86_64", "arm64-39" */
	const char	*descr;		/* one line for --list-arches */
	unsigned	 bits;		/* 32 or 64: tokens are bits/4 digits */
	unsigned	 flags;		/* KL_ARCH_* */
	/* default PAGE_OFFSET (32-bit splits) */
	uint64_t	 page_offset;
	uint64_t	 text_base;	/* default _text without KASLR */
	uint64_t	 kaslr_align;	/* KASLR step, 0 when none */
};

#define KL_LAYOUT_MAX 40

/* A profile resolved for one PAGE_OFFSET: sorted, non-overlapping rows. */
struct kl_layout {
	const struct kl_arch	*arch;	/* NULL for the unknown 64-bit union */
	uint64_t		 page_offset;
	size_t			 n;
	struct kl_arch_region	 row[KL_LAYOUT_MAX];
};

/* What a value is in a layout. */
struct kl_region_hit {
	enum kl_region			 region;	/* NONE if not kernel */
	enum kl_severity		 severity;
	unsigned			 flags;		/* row flags */
	/* NOT_KERNEL, HOLE, VSYSCALL */
	enum kl_suppress		 reason;
	/* profile that matched */
	enum kl_arch_id			 arch;
	const struct kl_arch_region	*row;		/* NULL when none */
};

/* Per-boot evidence of where randomised regions sit (1 GiB clusters). */
#define KL_ANCHOR_MAX 8
struct kl_anchors {
	unsigned	 n[KL_REGION_COUNT];
	uint64_t	 v[KL_REGION_COUNT][KL_ANCHOR_MAX];
};

/* The bytes around one candidate token, for context rules. */
struct kl_ctx {
	const uint8_t	*msg;		/* message span of the line (or part) */
	size_t		 len;
	size_t		 tok;		/* first hex digit, index into msg */
	size_t		 toklen;	/* number of hex digits */
	int		 prefix;	/* 0x or 0X before the digits */
	/* msg starts at the real message start */
	int		 msg_head;
};

/* The decision on one candidate token. */
struct kl_verdict {
	enum kl_region		 region;
	enum kl_severity	 severity;
	enum kl_confidence	 confidence;
	enum kl_suppress	 suppressed;
	enum kl_arch_id		 arch;		/* profile that matched */
	const char		*rule;		/* static rule id */
	unsigned		 flags;		/* KL_V_* */
};
#define KL_V_STACK	0x1	/* context says: a stack pointer */
#define KL_V_ANCHOR	0x2	/* usable as an anchor for its region */
#define KL_V_CONTEXT	0x4	/* the context alone decided: no range */

/* A detection state for --arch auto, one per boot segment. */
struct kl_detect {
	enum kl_arch_id	 arch;		/* best guess so far, AUTO if none */
	int		 certain;	/* guess will not change any more */
	int		 family;	/* KL_FAM_*: arch family seen */
	int		 bits;		/* 32, 64 or 0 */
	int		 va_bits;	/* arm64/riscv/x86 VA size, 0 unknown */
	int		 kver;		/* kernel version * 65536 + major*256 +
					   minor, e.g. 0x050a6e, 0 unknown */
	unsigned	 score[KL_ARCH_COUNT];
	uint64_t	 lines;		/* lines seen */
	unsigned	 flags;		/* detect.c internal (DF_*): facts
					   that are final, pending work */
	uint64_t	 page_offset;	/* arm: PAGE_OFFSET of a VMSPLIT
					   seen in frames, 0 unknown */
};
enum kl_family {
	KL_FAM_NONE = 0, KL_FAM_X86, KL_FAM_ARM64, KL_FAM_ARM, KL_FAM_PPC,
	KL_FAM_RISCV, KL_FAM_MIPS, KL_FAM_LOONGARCH, KL_FAM_S390, KL_FAM_SPARC
};

/* Record framing of one text line. */
enum kl_line_kind {
	KL_LINE_PLAIN = 0,	/* no known prefix (console, crash text) */
	KL_LINE_DMESG,		/* [    1.234567] (and [T123]) */
	KL_LINE_DMESG_RAW,	/* <6>[    1.234567] */
	KL_LINE_KMSG,		/* prio,seq,usec,flags;msg */
	KL_LINE_KMSG_CONT,	/*  KEY=value after a kmsg record */
	KL_LINE_SYSLOG,		/* RFC 3164 or RFC 3339 syslog file line */
	KL_LINE_RFC5424,	/* <PRI>1 TS HOST APP PROCID MSGID SD MSG */
	KL_LINE_JOURNAL_MARK,	/* -- Boot ... -- / -- Logs begin ... -- */
};

struct kl_frame {
	enum kl_line_kind kind;
	size_t		 msg;		/* offset of the message in the line */
	int		 level;		/* printk level 0-7, -1 unknown */
	int		 has_ts;	/* a kernel timestamp was found */
	uint64_t	 ts_us;		/* kernel timestamp in microseconds */
	int		 boot;		/* the line starts a boot segment */
};

/* Input formats (--format). */
enum kl_format {
	KL_FORMAT_AUTO = 0,
	KL_FORMAT_TEXT,		/* any text log, framing per line */
	KL_FORMAT_KMSG,		/* /dev/kmsg records */
	KL_FORMAT_EXPORT,	/* journalctl -o export */
	KL_FORMAT_JSON,		/* journalctl -o json / json-seq */
};

/* Matching engines (--engine). */
enum kl_engine_kind {
	KL_ENGINE_FAST = 0,	/* table-driven hex-run finder */
	KL_ENGINE_PCRE2,	/* PCRE2 JIT reference */
};

/* Scanner options: set once, then shared read-only by every scanner. */
struct kl_options {
	enum kl_arch_id		 arch;		/* AUTO: per input and boot */
	uint64_t		 page_offset;	/* 0: profile default */
	enum kl_format		 format;
	enum kl_engine_kind	 engine;
	/* bytes kept per line; 0: 1 MiB */
	size_t			 window;
	int			 suppressed;	/* report suppressed too */
};

/* A candidate hex token in a buffer. */
struct kl_token {
	size_t		 start;		/* index of the first hex digit */
	size_t		 len;		/* number of digits */
	int		 prefix;	/* preceded by 0x/0X */
	uint64_t	 value;
};

/* Finding flags. */
#define KL_F_UNHASHED	0x1	/* the boot said %p hashing is off */
#define KL_F_HEAD_CUT	0x2	/* line text starts after the line start */
#define KL_F_TAIL_CUT	0x4	/* line text ends before the line end */
#define KL_F_SLIDE	0x8	/* the value is the KASLR slide itself */

/* One reported token (a leak, or a suppressed look-alike). */
struct kl_finding {
	uint64_t		 line;
	/* of the first digit after 0x */
	uint64_t		 column;
	uint64_t		 offset;	/* byte offset of that digit */
	uint64_t		 value;
	const uint8_t		*text;		/* the digits as printed */
	size_t			 textlen;
	int			 prefix;	/* 0x/0X before the digits */
	enum kl_arch_id		 arch;		/* UNKNOWN: 64-bit union */
	enum kl_region		 region;
	enum kl_severity	 severity;
	enum kl_confidence	 confidence;
	enum kl_suppress	 suppressed;
	const char		*rule;
	/* why the rule leaks, or NULL */
	const char		*note;
	unsigned		 boot;		/* boot segment, 0-based */
	unsigned		 flags;		/* KL_F_* */
	const uint8_t		*ltext;		/* the line, or the kept part */
	size_t			 llen;
	uint64_t		 lcol;		/* 1-based column of ltext[0] */
	const struct kl_record	*record;	/* journal field, or NULL */
	/* message start in ltext (0 when KL_F_HEAD_CUT cut it off) */
	size_t			 lmsg;
};

/*
 * A journal field scanned as a record of its own: lines and columns
 * count within the field's value, offsets are in the unit (the stream).
 */
struct kl_record {
	/* unit offset of the value's first byte */
	uint64_t	 offset;
	uint64_t	 entry;		/* entry index in the unit, 0-based */
	const char	*field;		/* field name, NUL-terminated */
	const char	*cursor;	/* __CURSOR of the entry, or NULL */
	uint64_t	 realtime;	/* __REALTIME_TIMESTAMP, 0 when none */
	int		 exact;		/* offsets map 1:1 to stream bytes */
};

/* Counters of one scan. */
struct kl_stats {
	uint64_t	 bytes;
	uint64_t	 lines;
	uint64_t	 candidates;
	uint64_t	 findings;
	uint64_t	 boots;
	uint64_t	 region[KL_REGION_COUNT];
	uint64_t	 suppressed[KL_SUP_COUNT];
	unsigned	 unhashed;	/* no_hash_pointers banners seen */
	enum kl_arch_id	 arch;		/* last decided arch */
};

/* A framed line, for callers that look at lines themselves (KASLR). */
struct kl_line {
	uint64_t		 line;
	const uint8_t		*text;		/* the line (the part held) */
	size_t			 len;		/* without the newline */
	size_t			 msg;		/* message start in text */
	uint64_t		 offset;	/* unit offset of text[0] */
	unsigned		 boot;		/* boot segment, 0-based */
	int			 banner;	/* a "Linux version" banner */
	const struct kl_record	*record;	/* journal field, or NULL */
};

/* A boot segment that ended: lines first_line..last_line. */
struct kl_boot {
	unsigned		 boot;
	uint64_t		 first_line;
	uint64_t		 last_line;
	enum kl_arch_id		 arch;		/* decided for the segment */
	uint64_t		 first_offset;	/* unit offset: first byte of
						   first_line */
	uint64_t		 last_offset;	/* ... last byte of last_line
						   (its newline, if any) */
};

/*
 * Where results go.  A callback returning non-zero stops the scan.
 * line (may be NULL) sees each line once it is framed, before its
 * findings; boot (may be NULL) each boot segment as it ends, after its
 * findings.
 */
struct kl_sink {
	void	*arg;
	int	(*finding)(void *, const struct kl_finding *);
	int	(*line)(void *, const struct kl_line *);
	int	(*boot)(void *, const struct kl_boot *);
	/*
	 * The first message bytes of the lines line wants (bit c of word
	 * c / 64), besides boot banners; a line with an empty message is
	 * not shown.  Read at each line, so the sink may change it.  NULL:
	 * every line.
	 */
	const uint64_t *line_first;
};

/*
 * %pK as the kernel's lib/vsprintf.c prints it (restricted_pointer()),
 * with the hashed %p it falls back to at kptr_restrict 0 (ptr_to_id()).
 */
#define KL_PK_LEFT	0x1	/* '-' flag: LEFT */
#define KL_PK_ZEROPAD	0x2	/* '0' flag: ZEROPAD */
#define KL_PK_SPECIAL	0x4	/* '#' flag: SPECIAL, a 0x prefix */
#define KL_PK_WIDTH_MAX	((1 << 23) - 1)	/* the kernel's FIELD_WIDTH_MAX */
#define KL_PK_PREC_MAX	((1 << 15) - 1)	/* the kernel's PRECISION_MAX */
#define KL_PK_KEYLEN	16		/* bytes of a siphash_key_t */

/* A conversion's printf_spec: %-20pK is { 20, -1, KL_PK_LEFT }. */
struct kl_pk_spec {
	int		 field_width;	/* -1: none given */
	int		 precision;	/* -1: none given */
	unsigned	 flags;		/* KL_PK_* */
};
#define KL_PK_SPEC_DEFAULT { -1, -1, 0 }	/* plain %pK */

/* The kernel, the sysctls and the task that runs the vsprintf(). */
struct kl_pk_ctx {
	int		 kptr_restrict;	/* 0, 1 or 2 (the sysctl's range) */
	int		 cap_syslog;	/* current has CAP_SYSLOG */
	int		 creds_match;	/* euid == uid and egid == gid */
	int		 in_irq;	/* hardirq, serving softirq or NMI */
	int		 ptr_bits;	/* 32 or 64 */
	int		 kver;		/* 0xMMmmpp (5.10.110 is 0x050a6e),
					   0 for current mainline */
	int		 no_hash_pointers; /* booted with it (or slub_debug) */
	const uint8_t	*key;		/* KL_PK_KEYLEN bytes of ptr_key, or
					   NULL: not filled yet, (ptrval) */
};

struct kl_engine;
struct kl_scan;

/* arch.c */
const struct kl_arch	*kl_arch_get(enum kl_arch_id);
const struct kl_arch	*kl_arch_byname(const char *);
const char		*kl_arch_name(enum kl_arch_id);
int			 kl_arch_layout(enum kl_arch_id, uint64_t,
			     struct kl_layout *, struct kl_error *);
void			 kl_arch_lookup(const struct kl_layout *, uint64_t,
			     struct kl_region_hit *);
const char		*kl_region_name(enum kl_region);
const char		*kl_severity_name(enum kl_severity);
const char		*kl_confidence_name(enum kl_confidence);
const struct kl_arch	*kl_arch_at(size_t);
int			 kl_arch_parse(const char *, enum kl_arch_id *);
uint64_t		 kl_arch_untag(enum kl_arch_id, uint64_t);

void			 kl_arch_refine(struct kl_layout *, int);

/* detect.c */
void		 kl_detect_init(struct kl_detect *);
void		 kl_detect_line(struct kl_detect *, const uint8_t *, size_t);
void		 kl_detect_value(struct kl_detect *, uint64_t, size_t);
void		 kl_detect_finish(struct kl_detect *);
int		 kl_detect_report(const uint8_t *, size_t);

/* classify.c */
void		 kl_classify(const struct kl_layout *,
		     const struct kl_anchors *, const struct kl_ctx *, uint64_t,
		     struct kl_verdict *);
void		 kl_anchors_add(struct kl_anchors *, enum kl_region, uint64_t);
const char	*kl_suppress_name(enum kl_suppress);

/* hex.c */
int		 kl_hex_all(const uint8_t *, size_t);
int		 kl_hex_value(uint8_t);

/* mail.c */
size_t		 kl_mail_quote(const uint8_t *, size_t);
size_t		 kl_mail_spaces(uint8_t *, size_t);
int		 kl_mail_suspect(const uint8_t *, size_t);

/* mime.c: mail containers (mbox, a message) and MIME bodies */
/* longer stored lines are cut */
#define KL_MIME_LINE_MAX	(64u << 10)
#define KL_MIME_DEPTH		16		/* nested multiparts */
#define KL_MIME_ID_MAX		256		/* bytes of a Message-ID kept */
/* What kl_mime_sniff() saw. */
enum kl_mime_box {
	KL_MIME_NONE = 0,	/* not mail */
	KL_MIME_MBOX,		/* "From " lines between messages */
	KL_MIME_MESSAGE,	/* one message (.eml, a maildir file) */
};
/* A message of a mail container. */
struct kl_mime_msg {
	uint64_t	 index;		/* 0-based in the container */
	const char	*id;		/* Message-ID without <>, or NULL */
	uint64_t	 offset;	/* stored offset of its first byte */
	uint64_t	 line;		/* stored line of its first byte */
};
/* How a decoded byte is stored. */
enum kl_mime_kind {
	KL_MIME_LIT = 0,	/* the byte itself */
	KL_MIME_QP,		/* a quoted-printable =XX */
	KL_MIME_B64,		/* in a base64 quad on one line */
	KL_MIME_EXP,		/* made from other bytes (charset, entity) */
};
/* Where a decoded byte is stored. */
struct kl_mime_pos {
	uint64_t		 offset;	/* stored offset (quad start) */
	uint64_t		 line;		/* 1-based stored line */
	uint64_t		 column;	/* 1-based stored column */
	enum kl_mime_kind	 kind;
};
/* Counters of a mail reader. */
struct kl_mime_stats {
	uint64_t	 messages;
	uint64_t	 parts;		/* leaf parts */
	uint64_t	 text;		/* of those, decoded and scanned */
	uint64_t	 binary;	/* of those, not text: skipped */
	uint64_t	 errors;	/* damage reported */
};
/*
 * Callbacks of a mail reader, in order per message: begin, text (the
 * decoded text of its text parts, whole lines), end.  error gets each
 * damage it reads past (err->line is the stored line).  A callback
 * returning non-zero stops the reader.
 */
struct kl_mime_ops {
	void	*arg;
	int	(*begin)(void *, const struct kl_mime_msg *);
	int	(*text)(void *, const uint8_t *, size_t);
	int	(*end)(void *, const struct kl_mime_msg *);
	int	(*error)(void *, const struct kl_error *);
};
struct kl_mime;
enum kl_mime_box kl_mime_sniff(const uint8_t *, size_t);
struct kl_mime	*kl_mime_new(enum kl_mime_box, const struct kl_mime_ops *,
		     struct kl_error *);
int		 kl_mime_feed(struct kl_mime *, const void *, size_t,
		     struct kl_error *);
int		 kl_mime_end(struct kl_mime *, struct kl_error *);
int		 kl_mime_place(const struct kl_mime *, uint64_t,
		     struct kl_mime_pos *);
uint64_t	 kl_mime_settled(const struct kl_mime *, uint64_t);
void		 kl_mime_trim(struct kl_mime *, uint64_t);
int		 kl_mime_put(const struct kl_mime *, uint64_t, uint8_t,
		     uint8_t *, uint64_t, size_t);
const struct kl_mime_stats *kl_mime_stats(const struct kl_mime *);
void		 kl_mime_free(struct kl_mime *);

/* frame.c */
void		 kl_frame_line(const uint8_t *, size_t, enum kl_line_kind,
		     enum kl_format, struct kl_frame *);

/* candidate.c */
size_t		 kl_cand_fast(const uint8_t *, size_t, size_t, unsigned,
		     struct kl_token *, size_t, size_t *);
int		 kl_hexval(const uint8_t *, size_t, uint64_t *);

/* engine.c */
struct kl_engine *kl_engine_new(const struct kl_options *, struct kl_error *);
void		 kl_engine_free(struct kl_engine *);
const char	*kl_engine_pcre2_version(char *, size_t);
int		 kl_engine_jit(const struct kl_engine *);

/* scan.c */
struct kl_scan	*kl_scan_new(const struct kl_engine *, const struct kl_sink *,
		     struct kl_error *);
int		 kl_scan_feed(struct kl_scan *, const void *, size_t,
		     struct kl_error *);
int		 kl_scan_end(struct kl_scan *, struct kl_error *);
void		 kl_scan_reset(struct kl_scan *);
const struct kl_stats *kl_scan_stats(const struct kl_scan *);
void		 kl_scan_free(struct kl_scan *);
int		 kl_scan_record_begin(struct kl_scan *,
		     const struct kl_record *, struct kl_error *);
int		 kl_scan_record_end(struct kl_scan *, struct kl_error *);
int		 kl_scan_new_boot(struct kl_scan *);
uint64_t	 kl_scan_settled(const struct kl_scan *);
int		 kl_scan_settle(struct kl_scan *);
#define KL_SCAN_MARKS	6
size_t		 kl_scan_marks(const struct kl_scan *,
		     uint64_t[KL_SCAN_MARKS]);
int		 kl_scan_drain(struct kl_scan *, struct kl_error *);

/*
 * The chunked scan of one plain file (chunk.c): the lines of the file
 * are cut into chunks of about chunk bytes at line ends, scanned ahead
 * on threads from a speculated scanner state and given to the sink in
 * order when the real state at each cut agrees, else scanned again in
 * order; the events and counters are those of kl_scan_feed() of the
 * whole file.  The sink is called on the calling thread only; its
 * line_first may not change during the call.
 */
struct kl_chunk_opt {
	unsigned	 threads;	/* scanning threads, at least 1 */
	size_t		 chunk;		/* bytes a chunk, about */
	unsigned	 slots;		/* chunks in flight; 0: 2 a thread */
};
struct kl_chunk_stats {
	uint64_t	 chunks;	/* cut from the file */
	uint64_t	 accepted;	/* scanned ahead, their events given */
	uint64_t	 resynced;	/* ...from their first new boot on */
	uint64_t	 rescanned;	/* scanned ahead, state differed */
	uint64_t	 serial;	/* scanned in order, not ahead */
	uint64_t	 replay_ns;	/* calling thread: giving events */
	uint64_t	 order_ns;	/* ... scanning in order */
	uint64_t	 wait_ns;	/* ... waiting for a chunk */
};
int		 kl_scan_chunked(struct kl_scan *, int,
		     const struct kl_chunk_opt *, struct kl_chunk_stats *,
		     struct kl_error *);
/* The same, the unit's bytes given in order (a decompressed stream). */
struct kl_chunker;
struct kl_chunker *kl_chunk_new(struct kl_scan *, const struct kl_chunk_opt *,
		     struct kl_error *);
int		 kl_chunk_feed(struct kl_chunker *, const void *, size_t,
		     struct kl_error *);
int		 kl_chunk_end(struct kl_chunker *, struct kl_chunk_stats *,
		     struct kl_error *);
void		 kl_chunk_free(struct kl_chunker *);

/* Limits of the input layer (input.c); 0 means the default. */
struct kl_limits {
	unsigned	 max_depth;	/* nesting of archives/compressors: 8 */
	uint64_t	 max_member;	/* bytes of one member, expanded:
					   unlimited */
	uint64_t	 max_ratio;	/* expanded bytes per input byte: 4000,
					   checked past 64 MiB expanded */
	/* expanded bytes per input: unlimited */
	uint64_t	 max_total;
	unsigned	 threads;	/* cores for an xz stream: 0, every
					   online CPU; the decoder takes
					   all but one (the scan's) */
};
#define KL_INPUT_DEPTH_MAX 64	/* largest max_depth kl_input_fd() takes */

/* What a unit holds, decided from its first bytes. */
enum kl_unit_kind {
	KL_UNIT_TEXT = 0,	/* a text log */
	KL_UNIT_EXPORT,		/* journalctl -o export stream */
	KL_UNIT_JSON,		/* journalctl -o json / json-seq */
	KL_UNIT_JOURNAL,	/* native journal file (needs libsystemd) */
	KL_UNIT_BINARY,		/* none of these: skipped, counted */
};

/* A unit: a file, stdin, or a member (of a member ...) of an archive. */
struct kl_unit {
	const char		*path;		/* the input's display name */
	/* member chain, outermost first */
	const char *const	*members;
	size_t			 nmembers;
	enum kl_unit_kind	 kind;
	const char		*filter;	/* "gzip", "xz", ... or NULL */
};

/*
 * Callbacks of the input layer, in order: begin, data (any number of
 * times), end (with the error that cut the unit short, or NULL).  A
 * callback returning non-zero stops the input.
 */
struct kl_input_ops {
	void	*arg;
	int	(*begin)(void *, const struct kl_unit *);
	int	(*data)(void *, const struct kl_unit *, const void *, size_t);
	int	(*end)(void *, const struct kl_unit *, const struct kl_error *);
	unsigned flags;		/* KL_INPUT_*, 0 by default */
};
#define KL_INPUT_ALL_DATA 0x1	/* data for binary units too (the caller
				   forces a format: --format=text) */
#define KL_INPUT_TOP_DATA 0x2	/* a binary unit that is the input
				   itself, or its decompressed stream (no
				   archive above it), is given as text:
				   it was named and is scanned */

/* A journal entry, whole: its fields in stream order. */
struct kl_jfield {
	const char	*name;		/* NUL-terminated */
	const uint8_t	*data;		/* decoded value */
	size_t		 len;
	uint64_t	 offset;	/* stream offset of the value */
	int		 exact;		/* data[i] is stream byte offset + i */
};
struct kl_jentry {
	uint64_t		 index;		/* 0-based */
	uint64_t		 offset;	/* stream offset of the entry */
	const char		*cursor;	/* or NULL */
	uint64_t		 realtime;	/* or 0 */
	const char		*boot_id;	/* or NULL */
	const struct kl_jfield	*fields;
	size_t			 nfields;
	int			 partial;	/* cut short by damage or a
						   limit: what came before */
};
/*
 * Callbacks of a journal parser.  error (may be NULL) gets each format
 * error the parser recovers from, before the damaged entry's partial
 * delivery; without it they are counted and kl_journal_end returns -1
 * with the first.  A callback returning non-zero stops the parse.
 */
struct kl_journal_ops {
	void	*arg;
	int	(*entry)(void *, const struct kl_jentry *);
	int	(*error)(void *, const struct kl_error *);
};
/* Counters of a journal parser. */
struct kl_jstats {
	uint64_t	 entries;	/* entries seen, damaged ones too */
	uint64_t	 delivered;	/* entries given to ops->entry */
	uint64_t	 partial;	/* of those, cut short */
	uint64_t	 errors;	/* format errors */
	uint64_t	 skipped;	/* bytes passed over: resynchronising,
					   binary data not stored */
	uint64_t	 nulls;		/* JSON null values (journalctl -o json
					   writes fields >= 4 KiB as null
					   unless --all) */
};
struct kl_journal;

/* input.c */
int		 kl_input_fd(int, const char *, const struct kl_limits *,
		     const struct kl_input_ops *, struct kl_error *);
enum kl_unit_kind kl_input_sniff(const uint8_t *, size_t);
const char	*kl_input_code_name(int, int);
const char	*kl_input_inflater(void);
const char	*kl_input_xz_decoder(void);
int		 kl_input_container(const uint8_t *, size_t, int *, int *);

/* journal.c */
#define KL_JOURNAL_ENTRY_MAX	(64u << 20)	/* bytes of names and values
						   of one entry */
#define KL_JOURNAL_FIELDS_MAX	4096u		/* fields of one entry */
#define KL_JOURNAL_SKIP_MAX	(768u << 20)	/* longer binary lengths are
						   damage (systemd's
						   DATA_SIZE_MAX) */
struct kl_journal *kl_journal_new(enum kl_unit_kind,
		     const struct kl_journal_ops *, struct kl_error *);
int		 kl_journal_feed(struct kl_journal *, const void *, size_t,
		     struct kl_error *);
int		 kl_journal_end(struct kl_journal *, struct kl_error *);
const struct kl_jstats *kl_journal_stats(const struct kl_journal *);
uint64_t	 kl_journal_settled(const struct kl_journal *);
void		 kl_journal_free(struct kl_journal *);
int		 kl_journal_export(const struct kl_jentry *,
		     int (*)(void *, const void *, size_t), void *);
int		 kl_journal_json_patch(uint8_t *, size_t, size_t, size_t,
		     const uint8_t *, size_t, size_t *, struct kl_error *);

/* journal-native.c */
int		 kl_journal_native(const char *, const struct kl_journal_ops *,
		     struct kl_error *);

/* Rewriting styles (--redact-style). */
enum kl_redact_style {
	KL_REDACT_ZERO = 0,	/* zeros, as %pK prints at kptr_restrict=2 */
	KL_REDACT_HASH,		/* a keyed hash, as %p prints since 4.15 */
};

/* Options of a rewriter. */
struct kl_redact_opts {
	int			 level;		/* 2, 3 or 4 (--restrict) */
	enum kl_redact_style	 style;		/* of what is not de-slid */
	uint8_t			 key[16];	/* SipHash key for HASH */
	size_t			 max_hold;	/* bytes held before the
						   caller settles; 0: 16 MiB */
	int			 deslide;	/* image addresses to their
						   link-time values */
};
struct kl_redact;

/*
 * What the boot segment of waiting tokens tells of the kernel image, for
 * the deslide style (kl_redact_resolve()): the slide, when known, and
 * the image at run time, [lo, hi); hi 0 when no map gives its end: then
 * the values of region text at or above lo.
 */
struct kl_redact_image {
	int			 known;
	uint64_t		 slide;
	uint64_t		 lo;
	uint64_t		 hi;
};

/* How a token was rewritten. */
enum kl_redact_how {
	KL_REDACT_HOW_ZERO = 0,
	KL_REDACT_HOW_HASH,
	KL_REDACT_HOW_DESLIDE,		/* the value less the slide */
};

/* A waiting token rewritten by kl_redact_resolve(), for a receipt. */
struct kl_redact_token {
	uint64_t		 offset;	/* where its bytes start */
	uint64_t		 line;
	uint64_t		 column;
	unsigned		 boot;
	uint64_t		 value;
	uint64_t		 link;		/* written (DESLIDE) */
	const uint8_t		*text;		/* the digits as they were */
	size_t			 textlen;
	enum kl_region		 region;
	enum kl_redact_how	 how;
};

/* redact.c */
struct kl_redact *kl_redact_new(const struct kl_redact_opts *,
		     int (*)(void *, const void *, size_t), void *,
		     struct kl_error *);
void		 kl_redact_reset(struct kl_redact *);
void		 kl_redact_free(struct kl_redact *);
int		 kl_redact_wants(const struct kl_redact_opts *,
		     const struct kl_finding *);
int		 kl_redact_data(struct kl_redact *, const void *, size_t,
		     struct kl_error *);
int		 kl_redact_finding(struct kl_redact *,
		     const struct kl_finding *, struct kl_error *);
int		 kl_redact_settle(struct kl_redact *, uint64_t,
		     struct kl_error *);
size_t		 kl_redact_held(const struct kl_redact *);
int		 kl_redact_full(const struct kl_redact *);
int		 kl_redact_end(struct kl_redact *, struct kl_error *);
uint64_t	 kl_redact_changed(const struct kl_redact *);
uint64_t	 kl_redact_where(const struct kl_redact *);
int		 kl_redact_digits(const struct kl_redact *,
		     const struct kl_finding *, uint8_t *);
uint8_t		*kl_redact_hold(struct kl_redact *, uint64_t, size_t,
		     uint64_t *, size_t *);
void		 kl_redact_count(struct kl_redact *, uint64_t);
enum kl_redact_how kl_redact_how(const struct kl_redact *,
		     const struct kl_finding *, const struct kl_redact_image *);
int		 kl_redact_digits_as(const struct kl_redact *,
		     const struct kl_finding *, const struct kl_redact_image *,
		     uint8_t *, enum kl_redact_how *);
size_t		 kl_redact_waiting(const struct kl_redact *);
int		 kl_redact_resolve(struct kl_redact *,
		     const struct kl_redact_image *,
		     void (*)(void *, const struct kl_redact_token *), void *,
		     struct kl_error *);

/* symbols.c */
#define KL_SYM_LINE_MAX	1024	/* longer map lines are malformed */
struct kl_symtab;
struct kl_symdir;

/* A symbol an address falls in: what %pS prints. */
struct kl_sym_hit {
	const char	*name;		/* in the table: valid until freed */
	const char	*module;	/* NULL for the kernel image */
	uint64_t	 addr;		/* the symbol's address */
	uint64_t	 offset;	/* from the symbol */
	uint64_t	 size;		/* to the next symbol; 0: unknown */
	char		 type;		/* nm type letter: T, t, D, ... */
};

/* Counters of a map load. */
struct kl_sym_stats {
	uint64_t	 lines;		/* lines read, blank ones too */
	uint64_t	 symbols;	/* kept in the table */
	uint64_t	 modules;
	uint64_t	 ignored;	/* well-formed, not kept: A, U, N,
					   undefined weak, ignored names */
	uint64_t	 percpu;	/* x86_64 per-CPU offsets dropped */
	uint64_t	 malformed;	/* lines skipped */
	uint64_t	 first_bad;	/* line of the first, 0 when none */
};

struct kl_symtab *kl_sym_load(const char *, struct kl_error *);
struct kl_symtab *kl_sym_load_fd(int, const char *, struct kl_error *);
struct kl_symtab *kl_sym_load_mem(const void *, size_t, const char *,
		     struct kl_error *);
void		 kl_sym_free(struct kl_symtab *);
const char	*kl_sym_release(const struct kl_symtab *);
size_t		 kl_sym_count(const struct kl_symtab *);
const struct kl_sym_stats *kl_sym_stats(const struct kl_symtab *);
int		 kl_sym_lookup(const struct kl_symtab *, uint64_t,
		     struct kl_sym_hit *);
int		 kl_sym_lookup_bt(const struct kl_symtab *, uint64_t,
		     struct kl_sym_hit *);
int		 kl_sym_format(const struct kl_sym_hit *, char *, size_t);
int		 kl_sym_find(const struct kl_symtab *, const char *,
		     uint64_t *);
uint64_t	 kl_sym_text(const struct kl_symtab *);
int		 kl_sym_image(const struct kl_symtab *, uint64_t *, uint64_t *);
struct kl_symdir *kl_symdir_open(const char *, struct kl_error *);
size_t		 kl_symdir_count(const struct kl_symdir *);
const char	*kl_symdir_release(const struct kl_symdir *, size_t);
const struct kl_symtab *kl_symdir_get(struct kl_symdir *, const char *,
		     struct kl_error *);
const char	*kl_symdir_path(const struct kl_symdir *, const char *);
void		 kl_symdir_free(struct kl_symdir *);

/* Kinds of KASLR evidence (kaslr.c). */
enum kl_evidence_kind {
	KL_EV_KERNEL_OFFSET = 0,	/* "Kernel Offset: 0x.. from 0x.." */
	KL_EV_KASLR_OFF,		/* disabled, nokaslr: slide 0 */
	KL_EV_FRAME,			/* [<addr>] sym+off/size */
	KL_EV_KALLSYMS,			/* runtime kallsyms line */
	KL_EV_VALUE,			/* a leaked value of a region */
	KL_EV_REGISTER,			/* pc/RIP/ra raw value + its symbol */
	KL_EV_KASLR_FAILED,		/* randomisation failed, no slide */
	KL_EV_LAYOUT_DUMP,		/* "modules : 0x..", ".text @ 0x.." */
	KL_EV_FREED_RANGE,		/* "Freeing ... memory: nK (a - b)" */
	KL_EV_LEAK_SOURCE,		/* another known leaky line shape */
	KL_EV_MEMORY_MAP,		/* e820, EFI, zones, reservations */
	KL_EV_PHYS_OFFSET,		/* arm64 "PHYS_OFFSET: 0x.." */
	KL_EV_CAPTURE,			/* a captured system's kallsyms and
					   its map (--redact, deslide) */
};

/* What a line says of the KASLR state (kl_kaslr_state()). */
enum kl_kaslr_state {
	KL_KSTATE_NONE = 0,
	KL_KSTATE_OFF,			/* opted out: the default layout */
	KL_KSTATE_FAILED,		/* no random offset, not the default */
};

/* One piece of evidence, at its line. */
struct kl_evidence {
	uint64_t		 line;
	enum kl_evidence_kind	 kind;
	enum kl_region		 region;
	uint64_t		 value;		/* slide, or the value */
};

#define KL_EVIDENCE_MAX	16
#define KL_SLIDES_MAX	8

/* The KASLR evidence of one boot segment. */
struct kl_kaslr {
	enum kl_arch_id		 arch;
	const struct kl_symtab	*map;		/* or NULL */
	int			 off;		/* KASLR disabled */
	uint64_t		 offset_from;	/* "from" of Kernel Offset */
	size_t			 nslides;
	uint64_t		 slide[KL_SLIDES_MAX];
	unsigned		 votes[KL_SLIDES_MAX];
	unsigned char		 stated[KL_SLIDES_MAX]; /* by the kernel */
	int			 kver;		/* release 0xMMmm00, 0: ? */
	uint64_t		 img_text;	/* the map's _text, _end */
	uint64_t		 img_end;
	int			 has_phys_offset; /* arm64 PHYS_OFFSET */
	uint64_t		 phys_offset;
	uint64_t		 lowmem;	/* 32-bit: RAM - highmem */
	uint64_t		 page_offset;	/* 0: the profile's */
	uint64_t		 seen[KL_REGION_COUNT];	/* values per region */
	uint64_t		 low[KL_REGION_COUNT];	/* lowest value */
	uint64_t		 exact[KL_REGION_COUNT]; /* base printed */
	unsigned		 has_exact;	/* 1 << region */
	int			 failed;	/* randomisation failed */
	unsigned		 off_x86;	/* x86's "Kernel Offset:
						   disabled" lines read while
						   the arch was open */
	uint64_t		 off_x86_line[4]; /* the first of them */
	size_t			 nev;
	uint64_t		 nev_total;
	struct kl_evidence	 ev[KL_EVIDENCE_MAX];
	/* Symbolised registers waiting for their raw values. */
	struct kl_kaslr_reg {
		uint64_t	 line;		/* of the symbol, 0: none */
		uint64_t	 off;
		char		 name[128];
		uint64_t	 raw_line;	/* of the raw value, 0: none */
		uint64_t	 raw;
	}			 reg[2];	/* pc (epc, EIP), lr (ra) */
};

/* What a boot segment discloses. */
struct kl_boot_verdict {
	enum kl_arch_id		 arch;
	int			 kaslr_off;
	int			 kaslr_failed;
	int			 has_slide;
	uint64_t		 slide;
	unsigned		 slide_votes;	/* evidence agreeing */
	unsigned		 conflicts;	/* other slides seen */
	int			 outside;	/* stated slide outside the
						   modelled range */
	int			 has_phys_offset; /* arm64 PHYS_OFFSET: */
	uint64_t		 phys_offset;	/* memstart_addr */
	uint64_t		 text_base;	/* 0 when unknown */
	int			 text_exact;	/* from the slide */
	unsigned		 disclosed;	/* 1 << region */
	uint64_t		 base[KL_REGION_COUNT];
	unsigned		 entropy_bits;	/* text KASLR bits left */
	size_t			 nev;
	uint64_t		 nev_total;
	struct kl_evidence	 ev[KL_EVIDENCE_MAX];
};

/* kaslr.c */
void		 kl_kaslr_init(struct kl_kaslr *, enum kl_arch_id,
		     const struct kl_symtab *);
void		 kl_kaslr_set_arch(struct kl_kaslr *, enum kl_arch_id);
void		 kl_kaslr_set_map(struct kl_kaslr *, const struct kl_symtab *);
void		 kl_kaslr_set_release(struct kl_kaslr *, const char *);
void		 kl_kaslr_set_page_offset(struct kl_kaslr *, uint64_t);
int		 kl_kaslr_range_ok(enum kl_arch_id, int, uint64_t);
enum kl_region	 kl_kaslr_place(const struct kl_kaslr *, uint64_t,
		     enum kl_region);
int		 kl_kaslr_line(struct kl_kaslr *, uint64_t, const uint8_t *,
		     size_t);
int		 kl_kaslr_wants(const struct kl_kaslr *, const uint8_t *,
		     size_t);
void		 kl_kaslr_first(const struct kl_kaslr *, uint64_t *);
void		 kl_kaslr_value(struct kl_kaslr *, uint64_t, enum kl_region,
		     uint64_t);
void		 kl_kaslr_base(struct kl_kaslr *, uint64_t,
		     enum kl_evidence_kind, enum kl_region, uint64_t, int);
enum kl_kaslr_state kl_kaslr_state(const uint8_t *, size_t, size_t *,
		     size_t *);
int		 kl_kaslr_slide(const struct kl_kaslr *, uint64_t *);
int		 kl_kaslr_given(struct kl_kaslr *, uint64_t,
		     enum kl_evidence_kind, uint64_t);
int		 kl_kaslr_symbol(const struct kl_kaslr *, uint64_t, char *,
		     size_t);
void		 kl_kaslr_verdict(const struct kl_kaslr *,
		     struct kl_boot_verdict *);
const char	*kl_evidence_name(enum kl_evidence_kind);

/* escape.c */
size_t		 kl_esc_text(char *, size_t, const uint8_t *, size_t);
int		 kl_utf8_valid(const uint8_t *, size_t);
size_t		 kl_esc_json(char *, size_t, const uint8_t *, size_t);
size_t		 kl_base64(char *, size_t, const uint8_t *, size_t);

/* pk.c */
int		 kl_pk_format(uint64_t, const struct kl_pk_spec *,
		     const struct kl_pk_ctx *, char *, size_t,
		     struct kl_error *);
uint64_t	 kl_pk_siphash(const void *, size_t, const uint8_t *);
uint64_t	 kl_pk_siphash_u64(uint64_t, const uint8_t *);
uint64_t	 kl_pk_siphash_u32(uint32_t, const uint8_t *);
int		 kl_pk_hash_digits(uint64_t, const uint8_t *, int, char *);
int		 kl_pk_zero_token(char *, size_t);

/* leaks.c */
#define KL_LEAKDB_LINE_MAX	8192	/* longer data-file lines are errors */
#define KL_LEAK_VALUES_MAX	8	/* named values one entry may carry */

/* What an entry's line gives away (bits of kl_leak_entry.discloses). */
#define KL_LD_TEXT		0x01	/* kernel image: text, data, bss */
#define KL_LD_MODULES		0x02
#define KL_LD_DIRECT_MAP	0x04
#define KL_LD_VMALLOC		0x08	/* vmalloc, ioremap, vmapped stacks */
#define KL_LD_VMEMMAP		0x10
#define KL_LD_PHYSICAL		0x20
#define KL_LD_LAYOUT		0x40	/* region bounds or KASLR state */

/* What kind of value an entry's line carries. */
enum kl_leak_class {
	KL_LCLASS_VIRTUAL = 0,	/* kernel virtual addresses */
	KL_LCLASS_PHYSICAL,	/* physical addresses */
	KL_LCLASS_LAYOUT,	/* no address: a fact about the layout */
};

/* One entry of the leak-sources file.  Strings live in the database. */
struct kl_leak_entry {
	const char	*id;
	unsigned	 families;	/* bits 1u << KL_FAM_*; "any" sets
					   every bit, KL_FAM_NONE too */
	unsigned	 discloses;	/* KL_LD_* */
	enum kl_leak_class class;
	const char	*fixed;		/* version or commit, NULL for "-" */
	const char	*key;		/* literal every matching line has */
	const char	*pattern;	/* PCRE2, on the message part */
	const char	*explain;
	uint64_t	 line;		/* of "id:" in the data file */
};

/* A named value a hit captured: hex, or a decimal size in bytes. */
struct kl_leak_value {
	const char	*name;		/* group name, a size suffix dropped */
	uint64_t	 value;
	size_t		 off;		/* span of the digits in msg */
	size_t		 len;
	int		 overflow;	/* did not fit 64 bits (value 0) */
};

/* One entry matching one message. */
struct kl_leak_hit {
	const struct kl_leak_entry *entry;
	size_t		 off;		/* span of the whole match in msg */
	size_t		 len;
	size_t		 nvalues;	/* set named groups, in pattern order */
	struct kl_leak_value v[KL_LEAK_VALUES_MAX];
};

struct kl_leakdb;
struct kl_leakmatch;

struct kl_leakdb *kl_leakdb_load(const char *, struct kl_error *);
struct kl_leakdb *kl_leakdb_load_mem(const void *, size_t, const char *,
		     struct kl_error *);
void		 kl_leakdb_free(struct kl_leakdb *);
size_t		 kl_leakdb_count(const struct kl_leakdb *);
const struct kl_leak_entry *kl_leakdb_entry(const struct kl_leakdb *,
		     size_t);
int		 kl_leakdb_jit(const struct kl_leakdb *);
struct kl_leakmatch *kl_leakmatch_new(const struct kl_leakdb *);
void		 kl_leakmatch_free(struct kl_leakmatch *);
int		 kl_leak_match(struct kl_leakmatch *, const uint8_t *, size_t,
		     struct kl_leak_hit *, size_t);

/* srcindex.c: the format strings of a kernel tree (call sites). */
#define KL_SRCIDX_FILE_MAX	(8u << 20)	/* larger sources are skipped
						   (generated tables) */
struct kl_srcidx;

/* Files of a tree an index keeps besides its sources. */
enum kl_srcidx_meta {
	KL_SRCIDX_MAINTAINERS = 0,	/* MAINTAINERS, whole */
	KL_SRCIDX_MAILMAP,		/* .mailmap, whole */
	KL_SRCIDX_VERSION,		/* "6.1.192", from the top Makefile */
	KL_SRCIDX_META_COUNT
};

/* Counters of an index. */
struct kl_srcidx_stats {
	uint64_t	 files;		/* .c and .h files read */
	uint64_t	 bytes;
	uint64_t	 formats;	/* formats indexed (a call's literal
					   chain holding a conversion) */
	uint64_t	 skip_binary;	/* files with a NUL byte */
	uint64_t	 skip_huge;	/* over KL_SRCIDX_FILE_MAX */
	uint64_t	 skip_unreadable; /* not opened, cut short */
	uint64_t	 skip_unterminated; /* literals open at line end */
	uint64_t	 skip_macro;	/* formats joined with a macro the
					   indexer cannot expand */
	uint64_t	 skip_long;	/* formats over 8 KiB */
	uint64_t	 skip_nokey;	/* sites with no literal word */
	uint64_t	 pk_lines;	/* printk index lines read */
	uint64_t	 pk_sites;	/* sites they gave */
	uint64_t	 pk_malformed;	/* printk index lines not understood */
	uint64_t	 pk_first_bad;	/* line of the first, 0 when none */
	int		 cached;	/* loaded from a cache */
	int		 cache_unwritten; /* the cache could not be written */
};

/* One site: a line of a format, where it is. */
struct kl_srcidx_site {
	const char	*file;		/* relative to the tree's top */
	uint64_t	 line;		/* of the literal the piece starts in */
	const char	*function;	/* enclosing function or macro, or "" */
	const char	*format;	/* the piece, decoded, NUL-terminated */
	size_t		 formatlen;
	int		 exact;		/* from a printk index */
};

/* Why a site ranks where it does (struct kl_srcidx_match's why). */
#define KL_SRCM_EXACT	0x1	/* from a printk index */
#define KL_SRCM_ARCH	0x2	/* in the tree of the message's arch */
#define KL_SRCM_ARCHDIR	0x4	/* under arch/, no arch known: after
				   generic code */
#define KL_SRCM_WIDTH	0x8	/* the conversion's width is the token's */
#define KL_SRCM_SIBLING	0x10	/* another call of the function that
				   printed the line's other part */

/* A site that printed a message. */
struct kl_srcidx_match {
	size_t		 site;		/* for kl_srcidx_site() */
	int		 score;		/* higher is better */
	unsigned	 why;		/* KL_SRCM_* */
	size_t		 lit;		/* literal bytes of the line matched */
	size_t		 conv_off;	/* the conversion's offset in the
					   site's format */
	char		 conversion[32]; /* printed the token: "%px" */
};

struct kl_srcidx *kl_srcidx_new(struct kl_error *);
void		 kl_srcidx_free(struct kl_srcidx *);
int		 kl_srcidx_add_source(struct kl_srcidx *, const char *,
		     const void *, size_t, struct kl_error *);
int		 kl_srcidx_add_tree(struct kl_srcidx *, const char *,
		     struct kl_error *);
int		 kl_srcidx_add_printk_index(struct kl_srcidx *, const void *,
		     size_t, struct kl_error *);
int		 kl_srcidx_build(struct kl_srcidx *, struct kl_error *);
int		 kl_srcidx_add_meta(struct kl_srcidx *, const char *,
		     const void *, size_t, struct kl_error *);
int		 kl_srcidx_add_dir(struct kl_srcidx *, const char *, size_t,
		     struct kl_error *);
const char	*kl_srcidx_meta(const struct kl_srcidx *, enum kl_srcidx_meta,
		     size_t *);
int		 kl_srcidx_isdir(const struct kl_srcidx *, const char *);
int		 kl_srcidx_read_files(const char *, const char *const *, size_t,
		     uint8_t **, size_t *, struct kl_error *);
int		 kl_srcidx_meta_name(const char *);
size_t		 kl_srcidx_count(const struct kl_srcidx *);
int		 kl_srcidx_site(const struct kl_srcidx *, size_t,
		     struct kl_srcidx_site *);
const struct kl_srcidx_stats *kl_srcidx_stats(const struct kl_srcidx *);
size_t		 kl_srcidx_match(const struct kl_srcidx *, const uint8_t *,
		     size_t, size_t, size_t, enum kl_arch_id,
		     struct kl_srcidx_match *, size_t);
size_t		 kl_srcidx_match_arches(const struct kl_srcidx *,
		     const uint8_t *, size_t, size_t, size_t, uint32_t,
		     struct kl_srcidx_match *, size_t);
int		 kl_srcidx_tree_key(const char *, char *, size_t,
		     struct kl_error *);
int		 kl_srcidx_save(const struct kl_srcidx *, const char *,
		     uint8_t **, size_t *, struct kl_error *);
struct kl_srcidx *kl_srcidx_load(const void *, size_t, const char *,
		     struct kl_error *);
struct kl_srcidx *kl_srcidx_open(const char *, const char *, int *,
		     struct kl_error *);
/* maint.c: who receives a patch to a file (MAINTAINERS, .mailmap) */
enum kl_maint_role {
	KL_MAINT_MAINTAINER = 0,	/* M: */
	KL_MAINT_REVIEWER,		/* R: */
	KL_MAINT_LIST,			/* L: */
};
struct kl_maint_who {
	char			*addr;	/* "Name <address>", or a list */
	enum kl_maint_role	 role;
};
struct kl_maint_list {
	struct kl_maint_who	*who;
	size_t			 n;
};
struct kl_maint;
struct kl_maint	*kl_maint_new(const char *, size_t, const char *, size_t,
		     int (*)(void *, const char *), void *, struct kl_error *);
void		 kl_maint_free(struct kl_maint *);
int		 kl_maint_lookup(struct kl_maint *, const char *, const void *,
		     size_t, struct kl_maint_list *, struct kl_error *);
void		 kl_maint_list_free(struct kl_maint_list *);

/* srcfix.c: the fix of a call site that printed a raw pointer */
enum kl_srcfix_why {
	KL_FIX_OK = 0,		/* edits made */
	KL_FIX_NOCALL,		/* the format is not a call's argument at
				   its line any more */
	KL_FIX_MACRO,		/* in a macro, or a #if inside the call */
	KL_FIX_NOARG,		/* no argument for the conversion */
	KL_FIX_SPLIT,		/* the conversion spans literals, escapes */
	KL_FIX_NOTRAW,		/* it prints no raw pointer (%p, %pS, %s) */
	KL_FIX_INTEGER,		/* of an integer: a cast would be needed */
	KL_FIX_UNKNOWN,		/* the argument's type is not known */
	KL_FIX_EXPR,		/* an expression that cannot be rewritten */
};
struct kl_srcfix_edit {
	size_t		 off, len;	/* bytes of the file replaced */
	char		 text[8];	/* by this */
};
struct kl_srcfix {
	enum kl_srcfix_why	 why;
	char			 detail[256];	/* what changes, or why not */
	struct kl_srcfix_edit	*edit;		/* by offset */
	size_t			 nedit;
	size_t			 nconv;		/* conversions changed */
	char			 callee[64];
	size_t			 call_off, call_end;
	int			 restricted;	/* %pK: a file's content */
};
int		 kl_srcfix_make(const uint8_t *, size_t, uint64_t, const char *,
		     size_t, const char *, const size_t *, size_t,
		     struct kl_srcfix *, struct kl_error *);
void		 kl_srcfix_free(struct kl_srcfix *);
int		 kl_srcfix_apply(const uint8_t *, size_t,
		     const struct kl_srcfix *, uint8_t **, size_t *,
		     struct kl_error *);
int		 kl_srcfix_diff(const uint8_t *, size_t, const uint8_t *,
		     size_t, const char *, char **, size_t *,
		     struct kl_error *);

/* What kind of printing leaked (template.c), in report order. */
enum kl_tclass {
	KL_TC_POINTER = 0,	/* a message printing a pointer: a call site */
	KL_TC_LEAK_SOURCE,	/* a known leak source of data/leak-sources */
	/* KASAN, KFENCE, SLUB, kmemleak, lockdep, oops */
	KL_TC_REPORT,
	KL_TC_REGISTER,		/* a register dump */
	KL_TC_FRAME,		/* a stack-trace frame */
	KL_TC_FILE,		/* a file's content: kallsyms, /proc files */
	KL_TC_LAYOUT,		/* a layout or KASLR line */
	KL_TC_COUNT
};

#define KL_TPL_MAX	400	/* bytes of a template, without its NUL */
#define KL_FP_LEN	16	/* hex digits of a fingerprint */

/* Template flags. */
#define KL_TPL_CUT	0x1	/* the message or template was cut: "..." */
#define KL_TPL_FRAME	0x2	/* a call-trace frame shape */
#define KL_TPL_KALLSYMS	0x4	/* a kallsyms or System.map line */
#define KL_TPL_DUMP	0x8	/* holds a byte dump (%*ph) */

/*
 * A message template: the message with its variable parts replaced by
 * printf-like placeholders (%x hex, %d decimal, %pS symbol, %s task or
 * cache name, %*ph a byte dump, %% a percent sign of the message).
 */
struct kl_template {
	char		 text[KL_TPL_MAX + 1];	/* NUL-terminated; other bytes
						   as in the log */
	size_t		 len;
	unsigned	 flags;			/* KL_TPL_* */
	enum kl_tclass	 tclass;
	uint64_t	 hash;
	char		 fp[KL_FP_LEN + 1];	/* the fingerprint */
};

/* template.c */
void		 kl_template_make(const uint8_t *, size_t, unsigned,
		     struct kl_template *);
void		 kl_template_finding(const struct kl_finding *,
		     const struct kl_leak_entry *, struct kl_template *);
enum kl_tclass	 kl_template_class(const struct kl_template *, const char *,
		     enum kl_region, const struct kl_leak_entry *);
void		 kl_template_fingerprint(struct kl_template *);
const char	*kl_tclass_name(enum kl_tclass);
int		 kl_tclass_parse(const char *, enum kl_tclass *);
int		 kl_template_host(const uint8_t *, size_t, size_t *, size_t *);
size_t		 kl_mask_addr(uint8_t *, size_t);

/* An occurrence of a template, for kl_report_add(). */
struct kl_report_occ {
	const struct kl_template *t;
	enum kl_region		 region;
	enum kl_severity	 severity;
	enum kl_arch_id		 arch;
	unsigned		 boot;		/* boot segment of the unit */
	int			 unhashed;	/* the boot said %p hashing is
						   off */
	const char		*host;		/* syslog or journal host, or
						   the input's name */
	const char		*path;		/* the input */
	const char *const	*members;	/* member chain */
	size_t			 nmembers;
	uint64_t		 line;
	const char		*ts;		/* the log's time, or NULL */
	const uint8_t		*text;		/* the line */
	size_t			 textlen;
	const char		*source;	/* leak source id, or NULL */
	const char		*fixed;		/* its "fixed in", or NULL */
	uint64_t		 ord;		/* the input's place in the
						   listing (--shard, --merge) */
};

#define KL_REPORT_TEXT_MAX	512	/* bytes of an example line kept */

/* An example of a template: where it was seen. */
struct kl_report_ex {
	char		*path;
	char		**members;
	size_t		 nmembers;
	uint64_t	 line;
	char		*ts;		/* or NULL */
	uint8_t		*text;
	size_t		 textlen;
	/* text longer than KL_REPORT_TEXT_MAX */
	int		 cut;
	uint64_t	 ord;		/* its input's place in the listing */
};

/* A set of strings, sorted. */
struct kl_strset {
	char		**v;
	size_t		 n;
	size_t		 cap;
};

/* One row of a report: a template and what was seen of it. */
struct kl_report_row {
	struct kl_template	 t;
	uint64_t		 count;		/* findings */
	uint64_t		 inputs;	/* units */
	uint64_t		 boots;		/* boot segments */
	uint64_t		 unhashed;	/* findings in unhashed boots */
	unsigned		 regions;	/* 1u << enum kl_region */
	uint32_t		 arches;	/* 1u << enum kl_arch_id */
	enum kl_severity	 severity;	/* the highest */
	struct kl_strset	 hosts;
	struct kl_strset	 releases;
	char			*source;	/* leak source id, or NULL */
	char			*fixed;
	struct kl_report_ex	 first;
	struct kl_report_ex	 last;
	long			 lastboot;	/* unit partials: last boot */
	int			 baselined;	/* for the caller */
};

struct kl_report;

/* report.c */
struct kl_report *kl_report_new(void);
void		 kl_report_free(struct kl_report *);
void		 kl_report_clear(struct kl_report *);
int		 kl_report_add(struct kl_report *,
		     const struct kl_report_occ *);
int		 kl_report_boot(struct kl_report *, unsigned, const char *);
int		 kl_report_merge(struct kl_report *, const struct kl_report *);
int		 kl_report_merge_any(struct kl_report *,
		     const struct kl_report *);
size_t		 kl_report_count(const struct kl_report *);
struct kl_report_row **kl_report_rows(struct kl_report *);
int		 kl_report_write(const struct kl_report *,
		     int (*)(void *, const void *, size_t), void *);
int		 kl_report_read(struct kl_report *, const uint8_t *, size_t,
		     struct kl_error *);
int		 kl_report_cmp(const struct kl_report_row *,
		     const struct kl_report_row *);

/* live.c: files of live and captured systems */
struct kl_symrange {
	uint64_t	 lo, hi;	/* lowest and highest kernel symbol */
	uint64_t	 text;		/* _text, when have_text */
	int		 have_text;
	int		 stext;		/* text is _stext: no _text line */
	uint64_t	 stext_addr;	/* _stext, when have_stext */
	int		 have_stext;
	size_t		 n;		/* kernel symbols seen */
};
size_t		 kl_live_mask(char *, size_t);
size_t		 kl_live_symrange(const char *, size_t, unsigned,
		     struct kl_symrange *);
const char	*kl_live_relpath(const char *);
/* A section of a supportconfig report file (kl_live_section()). */
struct kl_live_section {
	const char	*kind;		/* "Command", "Configuration File" */
	size_t		 klen;
	const char	*title;		/* after "# ": a path or a command */
	size_t		 tlen;
	size_t		 body;		/* offset and length of the body */
	size_t		 blen;
};
int		 kl_live_section(const char *, size_t, size_t *,
		     struct kl_live_section *);

/* error.c */
void		 kl_error_set(struct kl_error *, enum kl_errcode, int,
		     const char *, ...) KL_PRINTFLIKE(4, 5);
void		 kl_error_clear(struct kl_error *);

#endif /* KLEAK_H */
