/*
 * classify.c - decide what one candidate token is.
 *
 * kl_classify() is called once per candidate token (a maximal run of 8 or
 * 16 hex digits, see candidate.c).  In order:
 *   1. value look-alikes (value_lookalike()): null, hashed, err-ptr,
 *      poison, mask;
 *   2. shape look-alikes from the bytes around the token
 *      (shape_lookalike()): uuid, mac/ipv6, hexdump, hash;
 *   3. the region from the layout (kl_arch_lookup()): not-kernel, hole,
 *      vsyscall and context-only come from there;
 *   4. the label before the token (find_label(), at most LABEL_SCAN
 *      bytes back) or the shape of a frame or dump row (find_shape())
 *      refines region and confidence, and in shared windows per-boot
 *      anchors (struct kl_anchors, 1 GiB clusters) do.
 * It allocates nothing, keeps no state, and looks at a bounded number of
 * bytes around the token.  When unsure it does not suppress.
 *
 * Rule ids (struct kl_verdict.rule; stable, they appear in the output):
 *
 *   value           no context: region from the value alone
 *   anchor          no context, value in a shared window: region from
 *                   the anchors
 *   register        a general register label: RAX:, R12:, x19:, r7 :,
 *                   a0 :, GPR00:, $ 4 :, Krnl GPRS:, and the later
 *                   columns of such a row
 *   stack-pointer   RSP:, ESP:, SP:, sp :, Stack: (, stack(, "stack is",
 *                   the first column of a powerpc "[sp] [ip] sym" frame
 *   pc              RIP:, EIP:, IP:, rIP:, pc :, PC:, lr :, LR:, NIP,
 *                   CFAR:, epc :, ra :, era :, "PC is at", "LR is at",
 *                   "instruction address:", "opcode bytes at"
 *   frame           a call-trace frame: [<addr>], or the ip column of
 *                   a powerpc "[sp] [ip] sym+0x1/0x2" frame
 *   percpu          GS:, knlGS:, FS: (per-CPU base in kernel mode)
 *   struct-page     page:, page=, "struct page"
 *   fault-address   CR2:, address:, "virtual address", "paging request
 *                   at", "dereference at", "non-canonical address",
 *                   badaddr:, BadVA:, BADV:, DAR:, "[addr] pgd="
 *   object-address  "at addr", "of addr", "object at", "unreferenced
 *                   object", addr=, vaddr=, kaddr=
 *   dump-row        the address column of a hex dump row, as in KASAN's
 *                   "ffff88806b2a0f00: fa fb fb ..." shadow rows
 *
 * A suppressed token carries the name of its reason as its rule
 * (kl_suppress_name(): "null", "hashed", "err-ptr", "poison", "mask",
 * "uuid", "mac", "ipv6", "hexdump", "hash", "not-kernel", "hole",
 * "vsyscall", "context-only"); the conditions are at each function.
 *
 * Confidence of a leak: outside a shared row, medium from the value alone
 * and high when the context agrees (agrees()).  In a shared row: high
 * when the context decides (context_region()), or on x86_64 when the value
 * is in the first TB of the direct map (x86_dm_zone()) and the context
 * agrees; medium from the value there or from anchors (anchor_region());
 * else low, keeping the row's nominal region.  KL_V_ANCHOR marks a 64-bit
 * verdict that context decided in a shared row: the caller adds it to the
 * anchors.  Severity follows the final region (region_sev[]).
 */
#include "config.h"

#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

/* clang-format off */
#define GIB		UINT64_C(0x40000000)
#define LABEL_SCAN	32	/* bytes before a token searched for a label */
#define LABEL_WORD_MAX	11	/* the longest of labels[], "PHYS_OFFSET" */
#define DUMP_SCAN	192	/* bytes each side searched for a dump row */
#define SYM_SCAN	128	/* bytes of a symbol name after a frame */
#define RUN_MAX		64	/* digits counted in a neighbouring hex run */
#define DM_PAD		(UINT64_C(10) << 40)	/* x86_64 direct-map padding */

/* What the bytes around a token say it is. */
enum ck {
	CK_NONE = 0,
	CK_REG,		/* a general register */
	CK_STACK,	/* a stack pointer */
	CK_PC,		/* a program counter or return address */
	CK_FRAME,	/* a call-trace frame */
	CK_PERCPU,	/* a per-CPU base (x86 GS/FS) */
	CK_PAGE,	/* a struct page pointer */
	CK_FAULT,	/* a faulting address */
	CK_OBJECT,	/* an object address (KASAN, kmemleak) */
	CK_ROW,		/* the address of a hex dump row */
	CK_HASH,	/* a label that says hash, digest or id */
	CK_PHYS,	/* a label that says physical: no context */
};

static const char *const ck_rule[] = {
	"value", "register", "stack-pointer", "pc", "frame", "percpu",
	"struct-page", "fault-address", "object-address", "dump-row",
	"hash", "value",
};

/* The context found around one token. */
struct cinfo {
	enum ck	 kind;
	int	 sym;		/* a "sym+0xoff/0xsize" follows */
	int	 module;	/* ... with a "[module]", or a BPF image */
	int	 valid;		/* the context bytes can be looked at */
};

/* A label printed before a value. */
struct label {
	const char	*s;	/* as printed, possibly several words */
	uint8_t		 len;
	uint8_t		 kind;	/* enum ck */
	uint8_t		 sep;	/* needs ':', '=', '[' or '(' before value */
};
#define L(s, k, sep) { (s), sizeof(s) - 1, (k), (sep) }

/*
 * Labels, first match wins, so a longer phrase comes before a label that
 * is its last word.  Case matters: x86 prints upper case, arm, riscv,
 * mips and loongarch lower case.  Sources: arch/x86/kernel/process_64.c
 * and dumpstack.c (__show_regs, show_ip), arch/x86/mm/fault.c,
 * arch/arm64/kernel/process.c (__show_regs), arch/arm/kernel/process.c,
 * arch/riscv/kernel/process.c, arch/mips/kernel/traps.c,
 * arch/loongarch/kernel/traps.c, arch/powerpc/kernel/process.c,
 * mm/kasan/report.c, mm/kmemleak.c, mm/debug.c (dump_page).
 */
/*
 * Phrases (labels of more than one word), matched before the single-word
 * labels below, so a phrase wins over its own last word.
 */
static const struct label phrases[] = {
	/* Not a virtual address: explicitly no context. */
	L("physical address", CK_PHYS, 0),
	L("Physical address", CK_PHYS, 0),
	L("phys address", CK_PHYS, 0),
	L("bus address", CK_PHYS, 0),
	L("dma address", CK_PHYS, 0),
	L("DMA address", CK_PHYS, 0),
	L("build id", CK_HASH, 0),
	L("build-id", CK_HASH, 0),
	L("Build ID", CK_HASH, 0),
	L("prog tag", CK_HASH, 0),
	L("end trace", CK_HASH, 0),	/* "---[ end trace <oops id> ]---" */
	L("stack is", CK_STACK, 0),
	L("PC is at", CK_PC, 0),
	L("LR is at", CK_PC, 0),
	L("instruction address", CK_PC, 1),
	L("opcode bytes at", CK_PC, 0),
	L("opcode bytes at RIP", CK_PC, 0),
	L("struct page", CK_PAGE, 0),
	L("non-canonical address", CK_FAULT, 0),
	L("virtual address", CK_FAULT, 0),
	L("paging request at", CK_FAULT, 0),
	L("dereference at", CK_FAULT, 0),
	L("at addr", CK_OBJECT, 0),
	L("of addr", CK_OBJECT, 0),
	L("object at", CK_OBJECT, 0),
	L("unreferenced object", CK_OBJECT, 0),
};

/*
 * Single-word labels, sorted by bytes (strcmp order) for the binary
 * search in label_at(); test-classify.c checks that each one is found.
 * Hash, digest and id labels mark values that are never pointers.  "ip"
 * is the arm r12, not an instruction pointer; CFAR is the powerpc
 * come-from address; GPRS is s390's "Krnl GPRS:".  Physical labels
 * (the "[mem " of %pR, "range=", "PHYS_OFFSET:") give no region but say
 * the value is printed raw, so a small one is not a hashed %p.
 */
static const struct label labels[] = {
	L("BADV", CK_FAULT, 1),
	L("BadVA", CK_FAULT, 1),
	L("BuildID", CK_HASH, 0),
	L("CFAR", CK_PC, 1),
	L("CR0", CK_REG, 1),
	L("CR2", CK_FAULT, 1),
	L("CR3", CK_REG, 1),
	L("CR4", CK_REG, 1),
	L("CTR", CK_REG, 1),
	L("DAR", CK_FAULT, 1),
	L("DR0", CK_REG, 1),
	L("DR1", CK_REG, 1),
	L("DR2", CK_REG, 1),
	L("DR3", CK_REG, 1),
	L("DR6", CK_REG, 1),
	L("DR7", CK_REG, 1),
	L("EAX", CK_REG, 1),
	L("EBP", CK_REG, 1),
	L("EBX", CK_REG, 1),
	L("ECX", CK_REG, 1),
	L("EDI", CK_REG, 1),
	L("EDX", CK_REG, 1),
	L("EIP", CK_PC, 1),
	L("EPC", CK_PC, 1),
	L("ERA", CK_PC, 1),
	L("ESI", CK_REG, 1),
	L("ESP", CK_STACK, 1),
	L("FS", CK_PERCPU, 1),
	L("GPRS", CK_REG, 1),
	L("GS", CK_PERCPU, 1),
	L("GUID", CK_HASH, 0),
	L("IP", CK_PC, 1),
	L("LR", CK_PC, 1),
	L("MSR", CK_REG, 1),
	L("NIP", CK_PC, 1),
	L("ORIG_RAX", CK_REG, 1),
	L("PC", CK_PC, 1),
	L("PHYS_OFFSET", CK_PHYS, 1),
	L("RAX", CK_REG, 1),
	L("RBP", CK_REG, 1),
	L("RBX", CK_REG, 1),
	L("RCX", CK_REG, 1),
	L("RDI", CK_REG, 1),
	L("RDX", CK_REG, 1),
	L("RIP", CK_PC, 1),
	L("RSI", CK_REG, 1),
	L("RSP", CK_STACK, 1),
	L("SP", CK_STACK, 1),
	L("Stack", CK_STACK, 1),
	L("WWNN", CK_HASH, 0),
	L("WWPN", CK_HASH, 0),
	L("XER", CK_REG, 1),
	L("addr", CK_OBJECT, 1),
	L("address", CK_FAULT, 1),
	L("badaddr", CK_FAULT, 1),
	L("build_id", CK_HASH, 0),
	L("checksum", CK_HASH, 0),
	L("crc", CK_HASH, 0),
	L("crc32", CK_HASH, 0),
	L("crc32c", CK_HASH, 0),
	L("csum", CK_HASH, 0),
	L("digest", CK_HASH, 0),
	L("epc", CK_PC, 1),
	L("era", CK_PC, 1),
	L("fp", CK_REG, 1),
	L("git_sha", CK_HASH, 0),
	L("gp", CK_REG, 1),
	L("guid", CK_HASH, 0),
	L("hash", CK_HASH, 0),
	L("ip", CK_REG, 1),
	L("kaddr", CK_OBJECT, 1),
	L("knlGS", CK_PERCPU, 1),
	L("lr", CK_PC, 1),
	L("md5", CK_HASH, 0),
	L("mem", CK_PHYS, 0),
	L("paddr", CK_PHYS, 1),
	L("page", CK_PAGE, 1),
	L("pc", CK_PC, 1),
	L("phys", CK_PHYS, 1),
	L("phys_addr", CK_PHYS, 1),
	L("psr", CK_REG, 1),
	L("rIP", CK_PC, 1),
	L("ra", CK_PC, 1),
	L("range", CK_PHYS, 1),
	L("sha", CK_HASH, 0),
	L("sha1", CK_HASH, 0),
	L("sha224", CK_HASH, 0),
	L("sha256", CK_HASH, 0),
	L("sha384", CK_HASH, 0),
	L("sha512", CK_HASH, 0),
	L("sl", CK_REG, 1),
	L("sp", CK_STACK, 1),
	L("stack", CK_STACK, 1),
	L("tp", CK_REG, 1),
	L("vaddr", CK_OBJECT, 1),
	L("wwn", CK_HASH, 0),
	L("wwnn", CK_HASH, 0),
	L("wwpn", CK_HASH, 0),
};

/* Severity of a region. */
static const enum kl_severity region_sev[KL_REGION_COUNT] = {
	[KL_REGION_NONE] = KL_SEV_NONE,
	[KL_REGION_TEXT] = KL_SEV_HIGH,
	[KL_REGION_MODULES] = KL_SEV_HIGH,
	[KL_REGION_DIRECT_MAP] = KL_SEV_MEDIUM,
	[KL_REGION_VMALLOC] = KL_SEV_MEDIUM,
	[KL_REGION_VMEMMAP] = KL_SEV_MEDIUM,
	[KL_REGION_CPU_ENTRY_AREA] = KL_SEV_LOW,
	[KL_REGION_ESPFIX] = KL_SEV_LOW,
	[KL_REGION_EFI] = KL_SEV_LOW,
	[KL_REGION_KASAN_SHADOW] = KL_SEV_MEDIUM,
	[KL_REGION_FIXMAP] = KL_SEV_LOW,
	[KL_REGION_KERNEL] = KL_SEV_HIGH,
	[KL_REGION_LAYOUT] = KL_SEV_LOW,
	[KL_REGION_PHYSICAL] = KL_SEV_LOW,
};

static const char *const sup_names[KL_SUP_COUNT] = {
	[KL_SUP_NONE] = "none",
	[KL_SUP_NOT_KERNEL] = "not-kernel",
	[KL_SUP_HOLE] = "hole",
	[KL_SUP_HASHED] = "hashed",
	[KL_SUP_NULL] = "null",
	[KL_SUP_ERR_PTR] = "err-ptr",
	[KL_SUP_MASK] = "mask",
	[KL_SUP_CONSTANT] = "constant",
	[KL_SUP_VSYSCALL] = "vsyscall",
	[KL_SUP_POISON] = "poison",
	[KL_SUP_UUID] = "uuid",
	[KL_SUP_MAC] = "mac",
	[KL_SUP_IPV6] = "ipv6",
	[KL_SUP_HEXDUMP] = "hexdump",
	[KL_SUP_HASH] = "hash",
	[KL_SUP_CONTEXT_ONLY] = "context-only",
};

/* Fill bytes of include/linux/poison.h (see is_poison()). */
static const uint8_t poison_fill[] = {
	0x11, 0x12, 0x22, 0x5a, 0x5b, 0x5c, 0x6b, 0x6c,
	0xa5, 0xa7, 0xa9, 0xaa, 0xab, 0xbb, 0xbd, 0xcc,
};

/* The x86_64 order of the randomised regions (arch/x86/mm/kaslr.c). */
static const enum kl_region x86_ord[] = {
	KL_REGION_DIRECT_MAP, KL_REGION_VMALLOC, KL_REGION_VMEMMAP,
};

/* How context_region() came to its answer. */
#define CTX_DECIDED	0	/* the context alone: an anchor */
#define CTX_ROW		1	/* the context agrees with the row's region */
#define CTX_DERIVED	2	/* the context and an anchor or the value */

/* clang-format on */

/* Name of a suppression reason ("none" for a leak). */
const char *
kl_suppress_name(enum kl_suppress s)
{
	if ((unsigned)s >= KL_SUP_COUNT)
		return ("unknown");
	return (sup_names[s]);
}

/* Is c a byte that may stand between a label and its value? */
static inline int
is_labelsep(uint8_t c)
{
	return ((kl_ctype[c] & KL_C_LABELSEP) != 0);
}

/* Is c part of a label word? */
static inline int
is_wordch(uint8_t c)
{
	return ((kl_ctype[c] & KL_C_WORD) != 0);
}

/* Are the n bytes at p all hex digits? */
static int
all_hex(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!kl_isxdigit(p[i]))
			return (0);
	return (1);
}

/* Does m[i..] hold the literal s (within len)? */
static int
lit_at(const uint8_t *m, size_t len, size_t i, const char *s, size_t sl)
{
	return (i <= len && kl_startswith(m + i, len - i, s, sl));
}

/* Length of the hex run starting at m[i] going right, at most RUN_MAX. */
static size_t
run_right(const uint8_t *m, size_t len, size_t i)
{
	size_t n = 0;

	while (i + n < len && n < RUN_MAX && kl_isxdigit(m[i + n]))
		n++;
	return (n);
}

/* Length of the hex run ending just before m[i], at most RUN_MAX. */
static size_t
run_left(const uint8_t *m, size_t i)
{
	size_t n = 0;

	while (n < i && n < RUN_MAX && kl_isxdigit(m[i - n - 1]))
		n++;
	return (n);
}

/* Skip label separators left from p, down to lim; notes strong ones. */
static size_t
skip_seps(const uint8_t *m, size_t p, size_t lim, int *strong)
{
	while (p > lim && is_labelsep(m[p - 1])) {
		if (m[p - 1] != ' ' && m[p - 1] != '\t' && m[p - 1] != '<')
			*strong = 1;
		p--;
	}
	return (p);
}

/*
 * Is the word m[ws, we) a register name not in the table: x86_64 R08-R15,
 * arm64 x0-x30, arm r0-r15, riscv/loongarch a0-a7, s0-s11, t0-t8, powerpc
 * GPR00-GPR31, or a mips "$ 4" / "$24"?
 */
static int
generic_reg(const uint8_t *m, size_t ws, size_t we)
{
	size_t n = we - ws, i;

	if (n >= 2 && n <= 3 &&
	    (m[ws] == 'x' || m[ws] == 'r' || m[ws] == 's' || m[ws] == 't' ||
		m[ws] == 'a' || m[ws] == 'R')) {
		for (i = ws + 1; i < we; i++)
			if (m[i] < '0' || m[i] > '9')
				return (0);
		return (1);
	}
	if (n == 5 && kl_startswith(m + ws, n, KL_LIT("GPR")) &&
	    m[ws + 3] >= '0' && m[ws + 3] <= '9' && m[ws + 4] >= '0' &&
	    m[ws + 4] <= '9')
		return (1);
	if (n >= 1 && n <= 2) {
		for (i = ws; i < we; i++)
			if (m[i] < '0' || m[i] > '9')
				return (0);
		if (ws >= 1 && m[ws - 1] == '$')
			return (1);
		if (ws >= 2 && m[ws - 1] == ' ' && m[ws - 2] == '$')
			return (1);
	}
	return (0);
}

/* Do the n bytes at w equal the literal t? */
static int
word_is(const uint8_t *w, size_t n, const char *t, size_t tl)
{
	size_t i;

	if (n != tl)
		return (0);
	for (i = 0; i < n; i++)
		if (w[i] != (uint8_t)t[i])
			return (0);
	return (1);
}

/*
 * Can the word w[0, n) end a phrase of phrases[]?  Keeps the phrase loop
 * off most words; test-classify.c checks that each phrase is found.
 */
static int
phrase_end(const uint8_t *w, size_t n)
{
	switch (n) {
	case 2:
		return (word_is(w, n, KL_LIT("at")) ||
		    word_is(w, n, KL_LIT("is")) ||
		    word_is(w, n, KL_LIT("id")) || word_is(w, n, KL_LIT("ID")));
	case 3:
		return (word_is(w, n, KL_LIT("RIP")) ||
		    word_is(w, n, KL_LIT("tag")));
	case 4:
		return (word_is(w, n, KL_LIT("addr")) ||
		    word_is(w, n, KL_LIT("page")));
	case 5:
		return (word_is(w, n, KL_LIT("trace")));
	case 6:
		return (word_is(w, n, KL_LIT("object")));
	case 7:
		return (word_is(w, n, KL_LIT("address")));
	default:
		return (0);
	}
}

/*
 * The single-word label w[0, n), n > 0, by binary search; NULL if none.
 * Most steps are decided by the first byte.
 */
static const struct label *
word_label(const uint8_t *w, size_t n)
{
	size_t lo = 0, hi = sizeof(labels) / sizeof(labels[0]), mid, i, k;
	const char *t;
	int d;

	if (n > LABEL_WORD_MAX)
		return (NULL);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		t = labels[mid].s;
		d = (int)w[0] - (int)(uint8_t)t[0];
		if (d == 0) {
			k = n < labels[mid].len ? n : labels[mid].len;
			for (i = 1; d == 0 && i < k; i++)
				d = (int)w[i] - (int)(uint8_t)t[i];
		}
		if (d == 0)
			d = n < labels[mid].len ? -1 : n > labels[mid].len;
		if (d == 0)
			return (&labels[mid]);
		if (d < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return (NULL);
}

/*
 * The label printed before position p (a token, or its 0x): skip back
 * over spaces, ':', '[', '<', '(', '=' and one "0018:"-style segment
 * selector, then match the word (or phrase) there.  Looks at most
 * LABEL_SCAN bytes back.
 */
static enum ck
label_at(const struct kl_ctx *c, size_t p)
{
	const uint8_t *m = c->msg;
	const struct label *lb;
	size_t lim, q, ws, we, wl, i;
	int strong = 0;

	lim = p > LABEL_SCAN ? p - LABEL_SCAN : 0;
	q = skip_seps(m, p, lim, &strong);
	/* RSP: 0018:ffffa667c016fe48 -- the selector is not the label. */
	if (q < p && m[q] == ':' && q >= lim + 4 && all_hex(m + q - 4, 4) &&
	    (q - 4 == 0 || is_labelsep(m[q - 5])))
		q = skip_seps(m, q - 4, lim, &strong);
	we = q;
	ws = we;
	while (ws > lim && is_wordch(m[ws - 1]))
		ws--;
	if (ws == we)
		return (CK_NONE);
	/* The word may be cut: by the scan limit or by a window start. */
	if ((ws == lim && lim > 0) || (ws == 0 && !c->msg_head))
		return (CK_NONE);
	wl = we - ws;
	/*
	 * "ACPI: RSDT 0x000000003FFE1AD8 000034 (v01 ...)": a table's
	 * physical address (dynamic SSDTs print a virtual one, which the
	 * value still classifies).
	 */
	if (wl == 4 && ws >= 6 && !strong &&
	    kl_startswith(m + ws - 6, 6, KL_LIT("ACPI: ")))
		return (CK_PHYS);
	for (i = 0;
	     phrase_end(m + ws, wl) && i < sizeof(phrases) / sizeof(phrases[0]);
	     i++) {
		lb = &phrases[i];
		if (lb->len <= wl || lb->len > we - lim ||
		    lb->s[lb->len - 1] != m[we - 1])
			continue;
		if (memcmp(m + we - lb->len, lb->s, lb->len) != 0)
			continue;
		if (we - lb->len > 0 && is_wordch(m[we - lb->len - 1]))
			continue;
		if (we - lb->len == 0 && !c->msg_head)
			continue;
		if (lb->sep && !strong)
			continue;
		return ((enum ck)lb->kind);
	}
	if ((lb = word_label(m + ws, wl)) != NULL && (!lb->sep || strong))
		return ((enum ck)lb->kind);
	if (strong && generic_reg(m, ws, we))
		return (CK_REG);
	return (CK_NONE);
}

/*
 * If the token at p (its 0x, if any) ends a range "A-B", "A - B", "A..B"
 * or "A to B" whose start A has the token's width, the position of A (its
 * 0x, if any); else p.  "[mem 0x0000000000100000-0x000000003ffdffff]",
 * "Exception stack(0xdf981fa8 to 0xdf981ff0)".
 */
static size_t
range_start(const struct kl_ctx *c, size_t p)
{
	const uint8_t *m = c->msg;
	size_t q;

	if (p >= 3 && kl_startswith(m + p - 3, 3, KL_LIT(" - ")))
		q = p - 3;
	else if (p >= 4 && kl_startswith(m + p - 4, 4, KL_LIT(" to ")))
		q = p - 4;
	else if (p >= 2 && m[p - 1] == '.' && m[p - 2] == '.')
		q = p - 2;
	else if (p >= 1 && m[p - 1] == '-')
		q = p - 1;
	else
		return (p);
	if (run_left(m, q) != c->toklen)
		return (p);
	q -= c->toklen;
	if (q >= 2 && m[q - 2] == '0' && (m[q - 1] | 0x20) == 'x')
		q -= 2;
	if (q > 0 && kl_isalnum(m[q - 1]))
		return (p);
	return (q);
}

/*
 * Is the token at p the address word of an s390 PSW, "Krnl PSW :
 * 0704e00180000000 00000000b05ec33c (sym+off/size)" (the first word is
 * the PSW mask, the second the instruction address)?
 */
static int
s390_psw_addr(const struct kl_ctx *c, size_t p)
{
	const uint8_t *m = c->msg;
	size_t q;

	if (c->prefix || c->toklen != 16 || p < 2 || m[p - 1] != ' ' ||
	    run_left(m, p - 1) != 16)
		return (0);
	q = p - 17;
	while (q > 0 && m[q - 1] == ' ')
		q--;
	if (q > 0 && m[q - 1] == ':')
		q--;
	while (q > 0 && m[q - 1] == ' ')
		q--;
	return (q >= 3 && memcmp(m + q - 3, "PSW", 3) == 0);
}

/*
 * The label of the token.  A token with none may be the end of a range
 * (range_start()), which takes the label of its start, or a later column
 * of a register row ("GPR08: c000000002bac020 6b6b6b6b6b6b6b6b ...", mips
 * "$ 4   :", s390 "Krnl GPRS:"): up to seven words of the token's width,
 * each after one to three spaces, lead back to a register label.
 */
static enum ck
find_label(const struct kl_ctx *c)
{
	const uint8_t *m = c->msg;
	enum ck k;
	size_t p, q, sp, n;

	p = c->tok - (c->prefix ? 2 : 0);
	if ((k = label_at(c, p)) != CK_NONE)
		return (k);
	if (s390_psw_addr(c, p))
		return (CK_PC);
	if ((q = range_start(c, p)) != p)
		return (label_at(c, q));
	if (c->prefix)
		return (CK_NONE);
	for (n = 0; n < 7; n++) {
		for (q = p, sp = 0; q > 0 && m[q - 1] == ' ' && sp < 3; q--)
			sp++;
		if (sp == 0 || run_left(m, q) != c->toklen ||
		    (q > c->toklen && kl_isalnum(m[q - c->toklen - 1])))
			return (CK_NONE);
		p = q - c->toklen;
		if (label_at(c, p) == CK_REG)
			return (CK_REG);
	}
	return (CK_NONE);
}

/*
 * Is a "sym+0xoff/0xsize" at m[i] (after "]", ">", spaces, "? " and "(")?
 * Sets ci->sym, and ci->module when " [module]" follows, as in
 * "func+0x1a/0x30 [mod]", or when the symbol is a BPF JIT image
 * (bpf_prog_<tag>, bpf_trampoline_<key>), which lives with the modules.
 */
static void
sym_after(const uint8_t *m, size_t len, size_t i, struct cinfo *ci)
{
	size_t s, n;
	int bpf;

	while (i < len && (m[i] == ']' || m[i] == '>'))
		i++;
	while (i < len && m[i] == ' ')
		i++;
	if (lit_at(m, len, i, KL_LIT("? ")))
		i += 2;
	if (i < len && m[i] == '(')
		i++;
	s = i;
	bpf = lit_at(m, len, i, KL_LIT("bpf_prog_")) ||
	    lit_at(m, len, i, KL_LIT("bpf_trampoline_"));
	while (i < len && i - s < SYM_SCAN &&
	    (is_wordch(m[i]) || m[i] == '.' || m[i] == '$'))
		i++;
	if (i == s || !lit_at(m, len, i, KL_LIT("+0x")))
		return;
	i += 3;
	if ((n = run_right(m, len, i)) == 0)
		return;
	i += n;
	if (!lit_at(m, len, i, KL_LIT("/0x")))
		return;
	i += 3;
	if ((n = run_right(m, len, i)) == 0)
		return;
	i += n;
	ci->sym = 1;
	ci->module = bpf;
	if (i < len && m[i] == ')')
		i++;
	if (lit_at(m, len, i, KL_LIT(" ["))) {
		i += 2;
		s = i;
		while (i < len && i - s < SYM_SCAN &&
		    (is_wordch(m[i]) || m[i] == '-'))
			i++;
		if (i > s && i < len && (m[i] == ']' || m[i] == ' '))
			ci->module = 1;
	}
}

/*
 * Frames and dump rows, when no label was found:
 *   [<ffffffff81234567>] func+0x1a/0x30       (print_ip_sym, lockdep)
 *   [c00000000152be10] [c000000001357c90] f+0x128/0x150  (powerpc)
 *   [0000000000000008] pgd=0800000106a37003    (show_pte)
 *   ffff88806b2a0f00: fa fb fb fb ...          (KASAN, hex dumps)
 */
static enum ck
find_shape(const struct kl_ctx *c, struct cinfo *ci)
{
	const uint8_t *m = c->msg;
	size_t s = c->tok - (c->prefix ? 2 : 0), e = c->tok + c->toklen, n;

	if (s >= 2 && m[s - 1] == '<' && m[s - 2] == '[' && e + 2 <= c->len &&
	    m[e] == '>' && m[e + 1] == ']') {
		sym_after(m, c->len, e + 2, ci);
		return (CK_FRAME);
	}
	if (s >= 1 && m[s - 1] == '[' && e + 1 < c->len && m[e] == ']' &&
	    m[e + 1] == ' ') {
		if (e + 2 < c->len && m[e + 2] == '[' &&
		    (n = run_right(m, c->len, e + 3)) >= 8 &&
		    e + 3 + n < c->len && m[e + 3 + n] == ']')
			return (CK_STACK);
		if (lit_at(m, c->len, e + 1, KL_LIT(" pgd=")) ||
		    lit_at(m, c->len, e + 1, KL_LIT(" *pgd=")))
			return (CK_FAULT);
		sym_after(m, c->len, e + 1, ci);
		if (ci->sym)
			return (CK_FRAME);
	}
	if (e + 7 <= c->len && m[e] == ':' && m[e + 1] == ' ' &&
	    all_hex(m + e + 2, 2) && m[e + 4] == ' ' && all_hex(m + e + 5, 2) &&
	    (e + 7 == c->len || !kl_isalnum(m[e + 7])))
		return (CK_ROW);
	return (CK_NONE);
}

/* Look at the bytes around the token. */
static void
context(const struct kl_ctx *c, struct cinfo *ci)
{
	ci->kind = CK_NONE;
	ci->sym = 0;
	ci->module = 0;
	ci->valid = 0;
	if (c == NULL || c->msg == NULL || c->toklen == 0 || c->tok > c->len ||
	    c->toklen > c->len - c->tok || (c->prefix && c->tok < 2))
		return;
	ci->valid = 1;
	ci->kind = find_label(c);
	if (ci->kind == CK_PC)
		sym_after(c->msg, c->len, c->tok + c->toklen, ci);
	if (ci->kind == CK_NONE)
		ci->kind = find_shape(c, ci);
}

/* Is the context kind one whose values the kernel prints raw (%lx)? */
static int
raw_printed(enum ck k)
{
	switch (k) {
	case CK_REG:
	case CK_STACK:
	case CK_PC:
	case CK_PERCPU:
	case CK_FAULT:
	case CK_OBJECT:
	case CK_PHYS:
		return (1);
	default:
		return (0);
	}
}

/*
 * Is v a known poison value?  include/linux/poison.h (v6.x, and the
 * older SLAB red zones), include/linux/stackleak.h:
 *   POISON_POINTER_DELTA (CONFIG_ILLEGAL_POINTER_VALUE, 0xdead000000000000
 *     on x86_64 and arm64) plus LIST_POISON1 0x100, LIST_POISON2 0x122
 *     (0x200 before v4.x), TIMER_ENTRY_STATIC 0x300, TAIL_MAPPING 0x400,
 *     MUTEX_POISON_WW_CTX 0x500, PP_SIGNATURE 0x40, SKB_LIST_POISON_NEXT
 *     0x800, NET_PTR_POISON 0x801, VFS_PTR_POISON 0xf5, STACK_DEPOT_POISON
 *     0xd390, BPF_PTR_POISON 0xeb9f: all in [delta, delta + 0xffff];
 *   STACKLEAK_POISON (KSTACK_ERASE_POISON) -0xBEEF: ffffffffffff4111;
 *   RED_INACTIVE 0x09f911029d74e35b, RED_ACTIVE 0xd84156c5635688c0 (SLAB);
 *   ATM_POISON / NEIGHBOR_DEAD 0xdeadbeef, NETFILTER_LINK_POISON 0xdead57ac
 *     (32-bit words);
 *   a word of one fill byte: POISON_INUSE 5a, POISON_FREE 6b, POISON_END
 *     a5, SLUB_RED_INACTIVE bb, SLUB_RED_ACTIVE / POISON_FREE_INITMEM cc,
 *     PAGE_POISON aa, JBD_POISON_FREE 5b, JBD2_POISON_FREE 5c,
 *     POOL_POISON_FREED a7, POOL_POISON_ALLOCATED a9, MUTEX_DEBUG_INIT 11,
 *     MUTEX_DEBUG_FREE 22, KEY_DESTROY bd, ATM_POISON_FREE 12, and the
 *     older FLEX_ARRAY_FREE 6c and OSS_POISON_FREE ab;
 *   the last word of a freed object, POISON_FREE bytes ending in
 *     POISON_END, read little- or big-endian.
 */
static int
is_poison(uint64_t v, unsigned width)
{
	uint64_t rep, b;
	size_t i;

	rep = width == 32 ? UINT64_C(0x01010101) : UINT64_C(0x0101010101010101);
	b = v & 0xff;
	if (v == b * rep)
		for (i = 0; i < sizeof(poison_fill); i++)
			if (poison_fill[i] == b)
				return (1);
	if (width == 32)
		return (v == UINT64_C(0xffff4111) ||
		    v == UINT64_C(0xdeadbeef) || v == UINT64_C(0xdead57ac) ||
		    v == UINT64_C(0xa56b6b6b) || v == UINT64_C(0x6b6b6ba5));
	return ((v >= UINT64_C(0xdead000000000000) &&
		    v <= UINT64_C(0xdead00000000ffff)) ||
	    v == UINT64_C(0xffffffffffff4111) ||
	    v == UINT64_C(0x09f911029d74e35b) ||
	    v == UINT64_C(0xd84156c5635688c0) ||
	    v == UINT64_C(0xa56b6b6b6b6b6b6b) ||
	    v == UINT64_C(0x6b6b6b6b6b6b6ba5));
}

/*
 * Value look-alikes, at the token's width:
 *   null     all zeros;
 *   hashed   64-bit only: 00000000xxxxxxxx with a non-zero low half, the
 *            shape of every hashed %p (siphash masked to 32 bits,
 *            lib/vsprintf.c ptr_to_id).  No kernel VA on a value-classified
 *            64-bit arch has its top 32 bits clear.  Not applied when the
 *            label is one the kernel prints with %lx (registers, CR2,
 *            "address:"), where such a value is a plain small number and
 *            not-kernel is the true reason, nor to code contexts on a
 *            context-only arch, where low values are kernel text.  On
 *            32-bit a hash is a uniform 32-bit value: no rule;
 *   err-ptr  -4095..-1 (IS_ERR_VALUE, MAX_ERRNO 4095);
 *   poison   is_poison();
 *   mask     ones then zeros (~0 << k, 12 <= k < width: smaller k are
 *            err-ptr), e.g. ffffffffffff0000, ffffffff80000000,
 *            c0000000: fixed constants such as PAGE_MASK or a region
 *            start, which disclose nothing.  ffffffff81000000 is not one.
 */
static enum kl_suppress
value_lookalike(uint64_t v, unsigned width, int rawlabel)
{
	uint64_t all, inv;

	all = width == 32 ? UINT64_C(0xffffffff) : UINT64_MAX;
	if (v == 0)
		return (KL_SUP_NULL);
	if (width == 64 && !rawlabel && (v >> 32) == 0)
		return (KL_SUP_HASHED);
	if (v > all)
		return (KL_SUP_NONE);
	if (v >= all - 4094)
		return (KL_SUP_ERR_PTR);
	if (is_poison(v, width))
		return (KL_SUP_POISON);
	inv = ~v & all;
	if ((inv & (inv + 1)) == 0)
		return (KL_SUP_MASK);
	/*
	 * The last address of a region: a mask minus one with at least 20
	 * trailing ones (ffffffffbfffffff, the end of the x86_64 relocation
	 * range).  A real pointer ending in 20 one bits is vanishingly rare.
	 */
	if ((v & 0xfffff) == 0xfffff) {
		inv = ~(v + 1) & all;
		if ((inv & (inv + 1)) == 0)
			return (KL_SUP_MASK);
	}
	return (KL_SUP_NONE);
}

/*
 * uuid: an 8-digit token followed by -xxxx-xxxx-xxxx-xxxxxxxxxxxx and a
 * boundary (the first group of a %pU UUID: filesystem UUIDs, root=UUID=,
 * EFI GUIDs).  Only the 8-digit group can be a candidate, so this matters
 * on 32-bit layouts.
 */
static int
uuid_shape(const struct kl_ctx *c)
{
	static const uint8_t grp[] = {4, 4, 4, 12};
	const uint8_t *m = c->msg;
	size_t i = c->tok + c->toklen, g;

	if (c->toklen != 8 || c->prefix)
		return (0);
	for (g = 0; g < sizeof(grp); g++) {
		if (i >= c->len || m[i] != '-')
			return (0);
		i++;
		if (run_right(m, c->len, i) != grp[g])
			return (0);
		i += grp[g];
	}
	return (i == c->len || !kl_isalnum(m[i]));
}

/*
 * mac, ipv6: the token is joined by ':' (or '-' for MAC) with no space to
 * a chain of at least two small hex groups of 1-4 digits, counting both
 * sides ("::" counts as a group).  All groups of two digits: mac;
 * otherwise ipv6.  A single group is not enough: "RSP: 0018:ffffa667..."
 * is a segment selector and a real stack pointer.
 */
static enum kl_suppress
netaddr_shape(const struct kl_ctx *c)
{
	const uint8_t *m = c->msg;
	size_t i, n, groups = 0, two = 0;
	uint8_t sep;

	if (c->prefix)
		return (KL_SUP_NONE);
	/* Left of the token. */
	i = c->tok;
	while (groups < 8 && i >= 2 && (m[i - 1] == ':' || m[i - 1] == '-')) {
		sep = m[i - 1];
		n = run_left(m, i - 1);
		if (n == 0 && sep == ':' && m[i - 2] == ':') {
			groups++; /* "::" */
			i -= 2;
			continue;
		}
		if (n == 0 || n > 4 || (n < i - 1 && kl_isalnum(m[i - 2 - n])))
			break;
		if (sep == '-' && n != 2)
			break;
		groups++;
		two += n == 2;
		i -= 1 + n;
	}
	/* Right of the token. */
	i = c->tok + c->toklen;
	while (groups < 16 && i + 1 < c->len && (m[i] == ':' || m[i] == '-')) {
		sep = m[i];
		n = run_right(m, c->len, i + 1);
		if (n == 0 && sep == ':' && m[i + 1] == ':') {
			groups++;
			i += 1;
			continue;
		}
		if (n == 0 || n > 4 ||
		    (i + 1 + n < c->len && kl_isalnum(m[i + 1 + n])))
			break;
		if (sep == '-' && n != 2)
			break;
		groups++;
		two += n == 2;
		i += 1 + n;
	}
	if (groups < 2)
		return (KL_SUP_NONE);
	return (two == groups ? KL_SUP_MAC : KL_SUP_IPV6);
}

/* Is c a byte that joins the parts of an id: - . _ / : ? */
static int
is_joiner(uint8_t c)
{
	return (c == '-' || c == '.' || c == '_' || c == '/' || c == ':');
}

/* Is c a byte of a hex dump row (digits, blanks, XX fill, markers)? */
static inline int
is_dumpch(uint8_t c)
{
	return ((kl_ctype[c] & KL_C_DUMP) != 0);
}

/*
 * hexdump: the token is an opcode word or sits among dump bytes.
 *  - On a "Code:" line: only dump bytes between "Code:" and the token
 *    (arm "Code: e5973000 ... (e5934008)", mips "Code: ... <8c450000>";
 *    not "Code: Unable to access opcode bytes at 0x...", a real RIP-42).
 *  - In a row of at least four words of the token's width with one word
 *    marked <...>: the pc mark of every instruction dump (x86 Code:,
 *    powerpc "Instruction dump:" rows, mips); no memory dump marks words.
 *  - Among at least four 2-digit byte groups (%*ph dumps).
 * A token followed by ':' is the address of a dump row: a real leak.
 */
static int
hexdump_shape(const struct kl_ctx *c)
{
	const uint8_t *m = c->msg;
	size_t s, e, t0 = c->tok, t1, lim, i, w, nw = 0, n2 = 0;
	int marked = 0, lt = 0, byte;

	if (c->prefix)
		return (0);
	e = t1 = c->tok + c->toklen;
	if (e < c->len && m[e] == ':')
		return (0);
	lim = t0 > DUMP_SCAN ? t0 - DUMP_SCAN : 0;
	for (s = t0; s > lim && is_dumpch(m[s - 1]); s--)
		lt |= m[s - 1] == '<';
	if (s >= 5 && m[s - 1] == ':' && memcmp(m + s - 5, "Code", 4) == 0 &&
	    (s == 5 ? c->msg_head : !is_wordch(m[s - 6])))
		return (1);
	lim = c->len - e > DUMP_SCAN ? e + DUMP_SCAN : c->len;
	for (; e < lim && is_dumpch(m[e]); e++)
		lt |= m[e] == '<';
	/* Neither a mark nor a byte group next to the token: no dump. */
	byte = (t0 >= s + 3 && m[t0 - 1] == ' ' && all_hex(m + t0 - 3, 2) &&
		   (t0 == s + 3 || m[t0 - 4] == ' ')) ||
	    (t1 + 3 <= e && m[t1] == ' ' && all_hex(m + t1 + 1, 2) &&
		(t1 + 3 == e || m[t1 + 3] == ' '));
	if (!lt && !byte)
		return (0);
	/* Split [s, e) into words. */
	for (i = s; i < e;) {
		while (i < e && m[i] == ' ')
			i++;
		if (i == e)
			break;
		for (w = i; w < e && m[w] != ' '; w++)
			;
		if (m[i] == '<' && w - i == c->toklen + 2 && m[w - 1] == '>')
			marked = 1;
		if (m[i] == '<' || m[i] == '(')
			i++;
		if (w > i && (m[w - 1] == '>' || m[w - 1] == ')'))
			w--;
		if (w - i == c->toklen)
			nw++;
		else if (w - i == 2)
			n2++;
		while (i < e && m[i] != ' ')
			i++;
	}
	return ((marked && nw >= 4) || n2 >= 4);
}

/*
 * hash: the token is part of a longer hash or identifier.
 *  - A label that says so: sha1, sha256, md5, digest, hash, crc, csum,
 *    build id, BuildID, prog tag, guid, wwn (see labels[]).
 *  - bpf_prog_<tag>: the BPF program tag, the first 8 bytes of the
 *    program's SHA-1 (kernel/bpf/core.c, bpf_prog_calc_tag).
 *  - eui.<id>, naa.<id>: NVMe EUI-64 and SCSI NAA identifiers.
 *  - A value of a ';'-separated k=v list, ";k=<token>" or
 *    "k=<token>;k=": "...;t=5e0d4b1bb0c64;x=b9a7c5c1a3d0e1f2" (a journal
 *    cursor).
 *  - Joined by one of - . _ / : (no space) to a hex run longer than the
 *    token: a fragment of a longer id.  A neighbour of the same width is
 *    a range or pair and stays a leak: "ffff88003d5e8000-ffff88003d5e9000",
 *    "(stack is ffffc900190d0000..ffffc900190d7fff)".
 *  - The git "index <hash>..<hash>" line of a patch quoted in a log.
 *  - Followed by '.' and a letter: one label of a dotted host or file
 *    name ("rhost=c9063558.virtua.com.br"); a pointer is not printed so.
 */
static int
hash_shape(const struct kl_ctx *c, enum ck kind)
{
	const uint8_t *m = c->msg;
	size_t s = c->tok, e = c->tok + c->toklen, i, n;

	if (kind == CK_HASH)
		return (1);
	if (!c->prefix) {
		if (s >= 9 && memcmp(m + s - 9, "bpf_prog_", 9) == 0)
			return (1);
		if (s >= 4 &&
		    (memcmp(m + s - 4, "eui.", 4) == 0 ||
			memcmp(m + s - 4, "naa.", 4) == 0) &&
		    (s == 4 || !is_wordch(m[s - 5])))
			return (1);
		/* ;k=<token> */
		if (s >= 3 && m[s - 1] == '=') {
			for (i = s - 1; i > 0 && i + 8 > s && m[i - 1] >= 'a' &&
			     m[i - 1] <= 'z';
			     i--)
				;
			if (i < s - 1 && i > 0 && m[i - 1] == ';')
				return (1);
		}
		/* A longer hex run on the left. */
		if (s >= 2 && is_joiner(m[s - 1])) {
			i = s - 1;
			if (m[i] == '.' && i >= 1 && m[i - 1] == '.')
				i--;
			n = run_left(m, i);
			if (n > c->toklen)
				return (1);
			if (n >= 7 && i == s - 2 && i >= n + 6 &&
			    memcmp(m + i - n - 6, "index ", 6) == 0)
				return (1);
		}
		/* index <token>..<hash> */
		if (s >= 6 && memcmp(m + s - 6, "index ", 6) == 0 &&
		    lit_at(m, c->len, e, KL_LIT("..")) &&
		    run_right(m, c->len, e + 2) >= 7)
			return (1);
	}
	/* k=<token>;k= */
	if (e + 2 < c->len && m[e] == ';' && !c->prefix && s >= 2 &&
	    m[s - 1] == '=' && m[s - 2] >= 'a' && m[s - 2] <= 'z') {
		for (i = e + 1;
		     i < c->len && i < e + 9 && m[i] >= 'a' && m[i] <= 'z'; i++)
			;
		if (i > e + 1 && i < c->len && m[i] == '=')
			return (1);
	}
	/* <token>.<name>: a label of a host or file name. */
	if (e + 1 < c->len && m[e] == '.' && (m[e + 1] | 0x20) >= 'a' &&
	    (m[e + 1] | 0x20) <= 'z')
		return (1);
	/* A longer hex run on the right. */
	if (e + 1 < c->len && is_joiner(m[e])) {
		i = e + 1;
		if (m[e] == '.' && m[i] == '.')
			i++;
		if (run_right(m, c->len, i) > c->toklen)
			return (1);
	}
	return (0);
}

/* Shape look-alikes, in order; KL_SUP_NONE when the shape is no reason. */
static enum kl_suppress
shape_lookalike(const struct kl_ctx *c, enum ck kind)
{
	enum kl_suppress why;

	/*
	 * "Kernel Offset: 0x%lx from 0x%lx (relocation range: ...)" prints
	 * the offset (a layout disclosure of its own) and link-time
	 * constants: __START_KERNEL, KIMAGE_VADDR, the relocation range.
	 */
	if (c->msg_head && c->tok < 64 &&
	    kl_startswith(c->msg, c->len, KL_LIT("Kernel Offset: ")))
		return (KL_SUP_CONSTANT);
	if (uuid_shape(c))
		return (KL_SUP_UUID);
	if ((why = netaddr_shape(c)) != KL_SUP_NONE)
		return (why);
	if (hexdump_shape(c))
		return (KL_SUP_HEXDUMP);
	if (hash_shape(c, kind))
		return (KL_SUP_HASH);
	return (KL_SUP_NONE);
}

/* Is the profile x86_64 (RANDOMIZE_MEMORY shared windows)? */
static int
is_x86_64(enum kl_arch_id id)
{
	return (id == KL_ARCH_X86_64 || id == KL_ARCH_X86_64_L5);
}

/* Is the profile an arm64 one? */
static int
is_arm64(enum kl_arch_id id)
{
	return (id >= KL_ARCH_ARM64 && id <= KL_ARCH_ARM64_PRE54);
}

/* Is the profile a riscv64 one? */
static int
is_riscv64(enum kl_arch_id id)
{
	return ((id >= KL_ARCH_RISCV64 && id <= KL_ARCH_RISCV64_SV57) ||
	    id == KL_ARCH_RISCV64_PRE513);
}

/* Index of r in the x86_64 order direct map < vmalloc < vmemmap, or -1. */
static int
x86_order(enum kl_region r)
{
	switch (r) {
	case KL_REGION_DIRECT_MAP:
		return (0);
	case KL_REGION_VMALLOC:
		return (1);
	case KL_REGION_VMEMMAP:
		return (2);
	default:
		return (-1);
	}
}

/* How far a region reaches from its lowest address, in the layout. */
static uint64_t
region_span(const struct kl_layout *l, enum kl_region r)
{
	uint64_t span = 0, d;
	size_t i;

	if (r == KL_REGION_TEXT || r == KL_REGION_MODULES)
		return (2 * GIB); /* arm64: modules within 2 GiB of text */
	for (i = 0; i < l->n && i < KL_LAYOUT_MAX; i++) {
		if (l->row[i].region != r || l->row[i].hi < l->row[i].lo)
			continue;
		d = l->row[i].hi - l->row[i].lo;
		if (d > span)
			span = d;
	}
	return (span);
}

/* Number of anchor clusters of r (bounded by KL_ANCHOR_MAX). */
static unsigned
anchor_n(const struct kl_anchors *a, enum kl_region r)
{
	if (a == NULL)
		return (0);
	return (a->n[r] < KL_ANCHOR_MAX ? a->n[r] : KL_ANCHOR_MAX);
}

/* Lowest anchor cluster of r in *min; 0 when r has none. */
static int
anchor_min(const struct kl_anchors *a, enum kl_region r, uint64_t *min)
{
	unsigned i, n;

	if ((n = anchor_n(a, r)) == 0)
		return (0);
	*min = a->v[r][0];
	for (i = 1; i < n; i++)
		if (a->v[r][i] < *min)
			*min = a->v[r][i];
	return (1);
}

/* Does an anchor cluster of r equal cl? */
static int
anchor_has(const struct kl_anchors *a, enum kl_region r, uint64_t cl)
{
	unsigned i, n;

	n = anchor_n(a, r);
	for (i = 0; i < n; i++)
		if (a->v[r][i] == cl)
			return (1);
	return (0);
}

/*
 * On x86_64, is the cluster cl within reach of the direct map, that is
 * below the highest direct-map anchor plus 10 TB?  RANDOMIZE_MEMORY
 * (arch/x86/mm/kaslr.c) sizes the direct map as RAM rounded up to a TB
 * plus CONFIG_RANDOMIZE_MEMORY_PHYSICAL_PADDING (default 0xa, 10 TB, with
 * MEMORY_HOTPLUG as in distro kernels) and starts vmalloc after it, so
 * every vmalloc or vmemmap address lies at least 10 TB above any real
 * direct-map address; without randomisation vmalloc is 64 TB above.
 */
static int
x86_dm_reach(const struct kl_anchors *a, uint64_t cl)
{
	uint64_t max = 0;
	unsigned i, n;

	if ((n = anchor_n(a, KL_REGION_DIRECT_MAP)) == 0)
		return (0);
	for (i = 0; i < n; i++)
		if (a->v[KL_REGION_DIRECT_MAP][i] > max)
			max = a->v[KL_REGION_DIRECT_MAP][i];
	return (cl < max || cl - max < DM_PAD);
}

/*
 * On x86_64, is v in the first TB of the direct-map row?  Nothing else
 * can be there: RANDOMIZE_MEMORY starts the direct map at or above the
 * row's start (page_offset_base; ffff880000000000 before v4.17,
 * ffff888000000000 since) and vmalloc after at least one TB of it (the
 * direct map is sized in whole TBs), and without randomisation the direct
 * map is there anyway.  This decides most direct-map values of a machine
 * with less than a TB of RAM by value alone.
 */
static int
x86_dm_zone(const struct kl_region_hit *h, uint64_t v)
{
	return (h->row != NULL && h->row->region == KL_REGION_DIRECT_MAP &&
	    v >= h->row->lo && v - h->row->lo < (UINT64_C(1) << 40));
}

/*
 * Region of a value in a shared 64-bit window from the anchors; NONE
 * when they cannot tell.  *conf is MEDIUM, or LOW for a weak guess.
 *   1. x86_64: within the direct map's reach (x86_dm_reach()), the
 *      direct map; a vmalloc anchor there came from a direct-map stack.
 *   2. The value's 1 GiB cluster is an anchor cluster: that region (none
 *      when two regions claim it, as arm64 v5.4-v6.4 without KASLR keeps
 *      image, modules and the first vmalloc pages in one GiB).
 *   3. x86_64.  RANDOMIZE_MEMORY (arch/x86/mm/kaslr.c) keeps the order
 *      direct map < vmalloc < vmemmap and puts each base on a 1 GiB
 *      boundary after the end of the previous region, so no cluster
 *      holds two regions and a region starts at or below its lowest
 *      anchor.  The value belongs to the region r of the highest lowest-
 *      anchor at or below it, if within r's reach (10 TB for the direct
 *      map, see x86_dm_reach(); the row size for vmalloc and vmemmap).
 *      Beyond it, the value is in a region above r, up to and including
 *      the next anchored one: when that is a single region, it; else a
 *      LOW guess, the nominal region if it is one of them, else the
 *      next.  Below every anchor, or in the KASAN shadow row (KASAN
 *      kernels are not randomised): no answer.
 *   4. Elsewhere (arm64): the nearest anchor within its region's reach
 *      (2 GiB for text and modules, the row size otherwise).
 */
static enum kl_region
anchor_region(const struct kl_layout *l, const struct kl_anchors *a,
    const struct kl_region_hit *h, uint64_t v, enum kl_confidence *conf)
{
	enum kl_region r, best = KL_REGION_NONE;
	uint64_t cl = v & ~(GIB - 1), min = 0, span, d, bestd = UINT64_MAX;
	unsigned i, n;
	int top = -1, j, last, nom;

	*conf = KL_CONF_MEDIUM;
	if (a == NULL)
		return (KL_REGION_NONE);
	if (is_x86_64(h->arch) && x86_dm_reach(a, cl))
		return (KL_REGION_DIRECT_MAP);
	for (r = KL_REGION_TEXT; r < KL_REGION_COUNT; r++) {
		if (!anchor_has(a, r, cl))
			continue;
		if (best != KL_REGION_NONE)
			return (KL_REGION_NONE); /* two claim it */
		best = r;
	}
	if (best != KL_REGION_NONE)
		return (best);
	if (is_x86_64(h->arch)) {
		/* KASAN shadow row: KASAN kernels are not randomised. */
		if (x86_order(h->region) < 0)
			return (KL_REGION_NONE);
		for (i = 0; i < 3; i++)
			if (anchor_min(a, x86_ord[i], &d) && d <= cl) {
				top = (int)i;
				min = d;
			}
		if (top < 0)
			return (KL_REGION_NONE);
		span = top == 0 ? DM_PAD : region_span(l, x86_ord[top]);
		if (span == 0 || cl - min <= span)
			return (x86_ord[top]);
		/*
		 * Beyond its reach: one of the regions above, up to the next
		 * anchored one (which may start below its lowest anchor).
		 */
		for (j = top + 1; j < 3 && anchor_n(a, x86_ord[j]) == 0; j++)
			;
		last = j < 3 ? j : 2;
		if (last <= top)
			return (KL_REGION_NONE);
		if (last == top + 1)
			return (x86_ord[last]);
		*conf = KL_CONF_LOW;
		nom = x86_order(h->region);
		return (
		    nom > top && nom <= last ? h->region : x86_ord[top + 1]);
	}
	for (r = KL_REGION_TEXT; r < KL_REGION_COUNT; r++) {
		n = anchor_n(a, r);
		span = region_span(l, r);
		for (i = 0; i < n; i++) {
			d = cl > a->v[r][i] ? cl - a->v[r][i] : a->v[r][i] - cl;
			if ((span == 0 || d <= span) && d < bestd) {
				bestd = d;
				best = r;
			}
		}
	}
	return (best);
}

/* Does the context agree with a region decided by value? */
static int
agrees(enum ck k, enum kl_region r, unsigned width)
{
	switch (k) {
	case CK_STACK:
		return (r == KL_REGION_VMALLOC || r == KL_REGION_DIRECT_MAP ||
		    r == KL_REGION_TEXT || r == KL_REGION_KERNEL);
	case CK_PC:
	case CK_FRAME:
		return (r == KL_REGION_TEXT || r == KL_REGION_MODULES ||
		    r == KL_REGION_KERNEL);
	case CK_PERCPU:
		return (r == KL_REGION_DIRECT_MAP || r == KL_REGION_KERNEL);
	case CK_PAGE:
		return (r == KL_REGION_VMEMMAP || r == KL_REGION_KERNEL ||
		    (width == 32 && r == KL_REGION_DIRECT_MAP));
	case CK_FAULT:
	case CK_OBJECT:
	case CK_ROW:
		return (r != KL_REGION_NONE);
	default:
		return (0);
	}
}

/*
 * The region the context decides for a value in a shared row, or NONE;
 * *how says how (CTX_*).
 * x86_64 (the RANDOMIZE_MEMORY window, where the row says nothing):
 *   stack-pointer  vmalloc (CONFIG_VMAP_STACK, default since v4.9), but
 *                  the direct map when the value is within the direct
 *                  map's reach of a direct-map anchor (x86_dm_reach(): a
 *                  kernel without vmapped stacks, such as KASAN kernels
 *                  before v5.5);
 *   percpu         the direct map (GS points at the embedded first percpu
 *                  chunk, the default allocator);
 *   struct-page    vmemmap.
 * Other arches (a row shared by regions the value cannot separate):
 *   pc, frame      modules when "[module]" follows the symbol (or it is a
 *                  bpf_prog_ JIT image); text when a core-kernel symbol
 *                  follows; else the row's own text or modules region, and
 *                  in a vmalloc or kernel row text on arm64 (the KASLR
 *                  image) and modules elsewhere (modules live in vmalloc);
 *   stack-pointer  vmalloc on arm64 (vmapped stacks) and in vmalloc rows;
 *                  the direct map (lowmem stacks) in direct-map and kernel
 *                  rows; no decision in a text row (init_stack is in the
 *                  image);
 *   struct-page    vmemmap in a vmemmap row; the direct map in a 32-bit
 *                  lowmem row (flat mem_map).
 */
static enum kl_region
context_region(const struct kl_anchors *a, const struct kl_region_hit *h,
    const struct cinfo *ci, uint64_t v, unsigned width, int *how)
{
	uint64_t cl = v & ~(GIB - 1);
	enum kl_region rr = h->region;

	*how = CTX_DECIDED;
	if (is_x86_64(h->arch)) {
		switch (ci->kind) {
		case CK_STACK:
			if (x86_dm_reach(a, cl)) {
				*how = CTX_DERIVED;
				return (KL_REGION_DIRECT_MAP);
			}
			return (KL_REGION_VMALLOC);
		case CK_PERCPU:
			return (KL_REGION_DIRECT_MAP);
		case CK_PAGE:
			return (KL_REGION_VMEMMAP);
		default:
			return (KL_REGION_NONE);
		}
	}
	switch (ci->kind) {
	case CK_PC:
	case CK_FRAME:
		if (rr != KL_REGION_TEXT && rr != KL_REGION_MODULES &&
		    rr != KL_REGION_VMALLOC && rr != KL_REGION_KERNEL &&
		    rr != KL_REGION_DIRECT_MAP)
			return (KL_REGION_NONE);
		if (ci->module)
			return (KL_REGION_MODULES);
		if (ci->sym)
			return (KL_REGION_TEXT);
		*how = CTX_ROW;
		if (rr == KL_REGION_TEXT || rr == KL_REGION_MODULES)
			return (rr);
		if (rr == KL_REGION_VMALLOC || rr == KL_REGION_KERNEL)
			return (is_arm64(h->arch) ? KL_REGION_TEXT
						  : KL_REGION_MODULES);
		return (KL_REGION_NONE);
	case CK_STACK:
		if (is_arm64(h->arch) || rr == KL_REGION_VMALLOC) {
			if (rr == KL_REGION_VMALLOC)
				*how = CTX_ROW;
			return (KL_REGION_VMALLOC);
		}
		if (rr == KL_REGION_DIRECT_MAP || rr == KL_REGION_KERNEL) {
			if (rr == KL_REGION_DIRECT_MAP)
				*how = CTX_ROW;
			return (KL_REGION_DIRECT_MAP);
		}
		return (KL_REGION_NONE);
	case CK_PAGE:
		if (rr == KL_REGION_VMEMMAP) {
			*how = CTX_ROW;
			return (KL_REGION_VMEMMAP);
		}
		if (width == 32 &&
		    (rr == KL_REGION_TEXT || rr == KL_REGION_DIRECT_MAP ||
			rr == KL_REGION_KERNEL))
			return (KL_REGION_DIRECT_MAP);
		return (KL_REGION_NONE);
	default:
		return (KL_REGION_NONE);
	}
}

/*
 * Fill out for a suppressed token.  The confidence is that of the
 * suppression: high for a reason taken from the value, medium for one
 * taken from the shape around it, low when the arch cannot tell.
 */
static void
suppress(struct kl_verdict *out, enum kl_suppress why, enum kl_arch_id arch)
{
	out->region = KL_REGION_NONE;
	out->severity = KL_SEV_NONE;
	switch (why) {
	case KL_SUP_UUID:
	case KL_SUP_MAC:
	case KL_SUP_IPV6:
	case KL_SUP_HEXDUMP:
	case KL_SUP_HASH:
		out->confidence = KL_CONF_MEDIUM;
		break;
	case KL_SUP_CONTEXT_ONLY:
		out->confidence = KL_CONF_LOW;
		break;
	default:
		out->confidence = KL_CONF_HIGH;
		break;
	}
	out->suppressed = why;
	out->arch = arch;
	out->rule = kl_suppress_name(why);
	out->flags = 0;
}

/* Classify one candidate token with value v. */
void
kl_classify(const struct kl_layout *l, const struct kl_anchors *a,
    const struct kl_ctx *c, uint64_t v, struct kl_verdict *out)
{
	struct kl_region_hit h;
	struct cinfo ci;
	enum kl_suppress why;
	enum kl_region r;
	enum kl_confidence conf;
	enum kl_arch_id arch;
	unsigned width;
	int ctxonly, code, how;

	if (l == NULL) {
		suppress(out, KL_SUP_NOT_KERNEL, KL_ARCH_UNKNOWN);
		return;
	}
	arch = l->arch != NULL ? l->arch->id : KL_ARCH_UNKNOWN;
	ctxonly = l->arch != NULL && (l->arch->flags & KL_ARCH_CONTEXT_ONLY);
	if (c != NULL && (c->toklen == 8 || c->toklen == 16))
		width = (unsigned)c->toklen * 4;
	else
		width = l->arch != NULL && l->arch->bits == 32 ? 32 : 64;
	context(c, &ci);
	code = ci.kind == CK_PC || ci.kind == CK_FRAME || ci.kind == CK_STACK;

	/* 1. Look-alikes, before the region. */
	/*
	 * On s390x every kernel address has its top 32 bits clear: a
	 * 00000000xxxxxxxx value (lockdep's %px) is no hashed %p there.
	 */
	why = value_lookalike(v, width, raw_printed(ci.kind) ||
	    (ctxonly && code) || arch == KL_ARCH_S390X);
	if (why == KL_SUP_NONE && ci.valid)
		why = shape_lookalike(c, ci.kind);
	if (why != KL_SUP_NONE) {
		suppress(out, why, arch);
		return;
	}

	/* 2. The region, from the layout. */
	kl_arch_lookup(l, v, &h);
	if (h.region == KL_REGION_NONE) {
		if (h.reason == KL_SUP_CONTEXT_ONLY && code) {
			/* s390x, sparc64: only the context says kernel. */
			out->region = KL_REGION_KERNEL;
			out->severity = region_sev[KL_REGION_KERNEL];
			out->confidence = KL_CONF_MEDIUM;
			out->suppressed = KL_SUP_NONE;
			out->arch = h.arch;
			out->rule = ck_rule[ci.kind];
			out->flags = ci.kind == CK_STACK ? KL_V_STACK : 0;
			return;
		}
		suppress(out,
		    h.reason != KL_SUP_NONE ? h.reason : KL_SUP_NOT_KERNEL,
		    h.arch);
		return;
	}

	/* 3. Context, then anchors (64-bit: 1 GiB clusters). */
	out->suppressed = KL_SUP_NONE;
	out->arch = h.arch;
	out->flags = ci.kind == CK_STACK ? KL_V_STACK : 0;
	out->rule = ck_rule[ci.kind];
	r = h.region;
	if ((h.flags & KL_AR_SHARED) == 0) {
		/*
		 * A code address with a resolved symbol is text (or a module)
		 * even in a direct-map or vmalloc row: riscv64 before v5.13
		 * and large ppc64 images run from the linear map.
		 */
		code = ci.kind == CK_PC || ci.kind == CK_FRAME;
		if (code && ci.sym &&
		    (r == KL_REGION_DIRECT_MAP || r == KL_REGION_VMALLOC))
			r = ci.module ? KL_REGION_MODULES : KL_REGION_TEXT;
		out->confidence =
		    agrees(ci.kind, r, width) ? KL_CONF_HIGH : KL_CONF_MEDIUM;
		/*
		 * Without a symbol, only on riscv64, whose image was in the
		 * linear map before v5.13 ("riscv: Move kernel mapping outside
		 * of linear mapping"): code there is that image (medium).
		 */
		if (code && !ci.sym && r == KL_REGION_DIRECT_MAP &&
		    is_riscv64(h.arch))
			r = KL_REGION_TEXT;
	} else if (is_x86_64(h.arch) && x86_dm_zone(&h, v)) {
		r = KL_REGION_DIRECT_MAP;
		if (agrees(ci.kind, r, width)) {
			out->confidence = KL_CONF_HIGH;
			out->flags |= KL_V_ANCHOR;
		} else
			out->confidence = KL_CONF_MEDIUM;
	} else if ((r = context_region(a, &h, &ci, v, width, &how)) !=
	    KL_REGION_NONE) {
		out->confidence = KL_CONF_HIGH;
		if (how == CTX_DECIDED && width == 64)
			out->flags |= KL_V_ANCHOR;
	} else if (width == 64 &&
	    (r = anchor_region(l, a, &h, v, &conf)) != KL_REGION_NONE) {
		out->confidence = conf;
		if (ci.kind == CK_NONE || ci.kind == CK_PHYS)
			out->rule = "anchor";
	} else {
		r = h.region;
		out->confidence = KL_CONF_LOW;
	}
	out->region = r;
	/* The layout row knows best (arm64 vmalloc may hold the image). */
	out->severity = r == h.region && h.severity != KL_SEV_NONE ?
	    h.severity : region_sev[r];
}

/* Remember the 1 GiB cluster of v as evidence for region r. */
void
kl_anchors_add(struct kl_anchors *a, enum kl_region r, uint64_t v)
{
	uint64_t cl = v & ~(GIB - 1);

	if (a == NULL || r <= KL_REGION_NONE || r >= KL_REGION_COUNT)
		return;
	if (anchor_has(a, r, cl) || a->n[r] >= KL_ANCHOR_MAX)
		return;
	a->v[r][a->n[r]++] = cl;
}
