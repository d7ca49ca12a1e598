/*
 * label.c - what the bytes around a candidate token say it is: the label
 * printed before it (a register, a stack pointer, a program counter, a
 * fault or object address, a hash, a physical address), or else the shape
 * of a call-trace frame or hex dump row, and a "sym+0xoff/0xsize [module]"
 * after it.
 *
 * kl_label_context() fills a struct kl_cinfo once per token for
 * kl_classify(): the label before the token (find_label(), at most
 * LABEL_SCAN bytes back) or the shape of a frame or dump row
 * (find_shape()).  It allocates nothing and looks at a bounded number of
 * bytes around the token.
 */
#include "config.h"

#include <pthread.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

/* clang-format off */
#define LABEL_SCAN	32	/* bytes before a token searched for a label */
#define LABEL_WORD_MAX	11	/* the longest of labels[], "PHYS_OFFSET" */
#define SYM_SCAN	128	/* bytes of a symbol name after a frame */

/* A label printed before a value. */
struct label {
	const char	*s;	/* as printed, possibly several words */
	uint8_t		 len;
	uint8_t		 kind;	/* enum kl_ck */
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
	L("physical address", KL_CK_PHYS, 0),
	L("Physical address", KL_CK_PHYS, 0),
	L("phys address", KL_CK_PHYS, 0),
	L("bus address", KL_CK_PHYS, 0),
	L("dma address", KL_CK_PHYS, 0),
	L("DMA address", KL_CK_PHYS, 0),
	L("build id", KL_CK_HASH, 0),
	L("build-id", KL_CK_HASH, 0),
	L("Build ID", KL_CK_HASH, 0),
	L("prog tag", KL_CK_HASH, 0),
	L("end trace", KL_CK_HASH, 0),	/* "---[ end trace <oops id> ]---" */
	L("stack is", KL_CK_STACK, 0),
	L("PC is at", KL_CK_PC, 0),
	L("LR is at", KL_CK_PC, 0),
	L("instruction address", KL_CK_PC, 1),
	L("opcode bytes at", KL_CK_PC, 0),
	L("opcode bytes at RIP", KL_CK_PC, 0),
	L("struct page", KL_CK_PAGE, 0),
	L("non-canonical address", KL_CK_FAULT, 0),
	L("virtual address", KL_CK_FAULT, 0),
	L("paging request at", KL_CK_FAULT, 0),
	L("dereference at", KL_CK_FAULT, 0),
	L("at addr", KL_CK_OBJECT, 0),
	L("of addr", KL_CK_OBJECT, 0),
	L("object at", KL_CK_OBJECT, 0),
	L("unreferenced object", KL_CK_OBJECT, 0),
};

/*
 * Single-word labels, sorted by bytes (strcmp order): word_label()
 * looks among those with the word's first byte (lab_index());
 * test-classify.c checks that each one is found.
 * Hash, digest and id labels mark values that are never pointers.  "ip"
 * is the arm r12, not an instruction pointer; CFAR is the powerpc
 * come-from address; GPRS is s390's "Krnl GPRS:".  Physical labels
 * (the "[mem " of %pR, "range=", "PHYS_OFFSET:") give no region but say
 * the value is printed raw, so a small one is not a hashed %p.
 */
static const struct label labels[] = {
	L("BADV", KL_CK_FAULT, 1),
	L("BadVA", KL_CK_FAULT, 1),
	L("BuildID", KL_CK_HASH, 0),
	L("CFAR", KL_CK_PC, 1),
	L("CR0", KL_CK_REG, 1),
	L("CR2", KL_CK_FAULT, 1),
	L("CR3", KL_CK_REG, 1),
	L("CR4", KL_CK_REG, 1),
	L("CTR", KL_CK_REG, 1),
	L("DAR", KL_CK_FAULT, 1),
	L("DR0", KL_CK_REG, 1),
	L("DR1", KL_CK_REG, 1),
	L("DR2", KL_CK_REG, 1),
	L("DR3", KL_CK_REG, 1),
	L("DR6", KL_CK_REG, 1),
	L("DR7", KL_CK_REG, 1),
	L("EAX", KL_CK_REG, 1),
	L("EBP", KL_CK_REG, 1),
	L("EBX", KL_CK_REG, 1),
	L("ECX", KL_CK_REG, 1),
	L("EDI", KL_CK_REG, 1),
	L("EDX", KL_CK_REG, 1),
	L("EIP", KL_CK_PC, 1),
	L("EPC", KL_CK_PC, 1),
	L("ERA", KL_CK_PC, 1),
	L("ESI", KL_CK_REG, 1),
	L("ESP", KL_CK_STACK, 1),
	L("FS", KL_CK_PERCPU, 1),
	L("GPRS", KL_CK_REG, 1),
	L("GS", KL_CK_PERCPU, 1),
	L("GUID", KL_CK_HASH, 0),
	L("IP", KL_CK_PC, 1),
	L("LR", KL_CK_PC, 1),
	L("MSR", KL_CK_REG, 1),
	L("NIP", KL_CK_PC, 1),
	L("ORIG_RAX", KL_CK_REG, 1),
	L("Oops", KL_CK_HASH, 1),	/* "Internal error: Oops: 8000000d" */
	L("PC", KL_CK_PC, 1),
	L("PHYS_OFFSET", KL_CK_PHYS, 1),
	L("RAX", KL_CK_REG, 1),
	L("RBP", KL_CK_REG, 1),
	L("RBX", KL_CK_REG, 1),
	L("RCX", KL_CK_REG, 1),
	L("RDI", KL_CK_REG, 1),
	L("RDX", KL_CK_REG, 1),
	L("RIP", KL_CK_PC, 1),
	L("RSI", KL_CK_REG, 1),
	L("RSP", KL_CK_STACK, 1),
	L("SP", KL_CK_STACK, 1),
	L("Stack", KL_CK_STACK, 1),
	L("WWNN", KL_CK_HASH, 0),
	L("WWPN", KL_CK_HASH, 0),
	L("XER", KL_CK_REG, 1),
	L("addr", KL_CK_OBJECT, 1),
	L("address", KL_CK_FAULT, 1),
	L("badaddr", KL_CK_FAULT, 1),
	L("build_id", KL_CK_HASH, 0),
	L("checksum", KL_CK_HASH, 0),
	L("crc", KL_CK_HASH, 0),
	L("crc32", KL_CK_HASH, 0),
	L("crc32c", KL_CK_HASH, 0),
	L("csum", KL_CK_HASH, 0),
	L("digest", KL_CK_HASH, 0),
	L("epc", KL_CK_PC, 1),
	L("era", KL_CK_PC, 1),
	L("fp", KL_CK_REG, 1),
	L("git_sha", KL_CK_HASH, 0),
	L("gp", KL_CK_REG, 1),
	L("guid", KL_CK_HASH, 0),
	L("hash", KL_CK_HASH, 0),
	L("ip", KL_CK_REG, 1),
	L("kaddr", KL_CK_OBJECT, 1),
	L("knlGS", KL_CK_PERCPU, 1),
	L("lr", KL_CK_PC, 1),
	L("md5", KL_CK_HASH, 0),
	L("mem", KL_CK_PHYS, 0),
	L("paddr", KL_CK_PHYS, 1),
	L("page", KL_CK_PAGE, 1),
	L("pc", KL_CK_PC, 1),
	L("phys", KL_CK_PHYS, 1),
	L("phys_addr", KL_CK_PHYS, 1),
	L("psr", KL_CK_REG, 1),
	L("rIP", KL_CK_PC, 1),
	L("ra", KL_CK_PC, 1),
	L("range", KL_CK_PHYS, 1),
	L("sha", KL_CK_HASH, 0),
	L("sha1", KL_CK_HASH, 0),
	L("sha224", KL_CK_HASH, 0),
	L("sha256", KL_CK_HASH, 0),
	L("sha384", KL_CK_HASH, 0),
	L("sha512", KL_CK_HASH, 0),
	L("sl", KL_CK_REG, 1),
	L("sp", KL_CK_STACK, 1),
	L("stack", KL_CK_STACK, 1),
	L("tp", KL_CK_REG, 1),
	L("vaddr", KL_CK_OBJECT, 1),
	L("wwn", KL_CK_HASH, 0),
	L("wwnn", KL_CK_HASH, 0),
	L("wwpn", KL_CK_HASH, 0),
};

/* clang-format on */

/* Is c a byte that may stand between a label and its value? */
static inline int
is_labelsep(uint8_t c)
{
	return ((kl_ctype[c] & KL_C_LABELSEP) != 0);
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

#define NLABELS	(sizeof(labels) / sizeof(labels[0]))
#define NPHRASES	(sizeof(phrases) / sizeof(phrases[0]))

/* labels[] by first byte: labels[lab_at[c], lab_at[c + 1]) start with c. */
static uint8_t lab_at[257];
static pthread_once_t lab_once = PTHREAD_ONCE_INIT;

/* Fill lab_at[] from labels[], which is sorted (test-classify checks). */
static void
lab_index(void)
{
	size_t i, c = 0;

	for (i = 0; i < NLABELS; i++)
		while (c <= (uint8_t)labels[i].s[0])
			lab_at[c++] = (uint8_t)i;
	while (c <= 256)
		lab_at[c++] = (uint8_t)NLABELS;
}

/*
 * The single-word label w[0, n), n > 0; NULL if none.  Only the labels
 * that start with w[0] are compared: one or none for most words.
 */
static const struct label *
word_label(const uint8_t *w, size_t n)
{
	size_t i, k;

	if (n > LABEL_WORD_MAX)
		return (NULL);
	(void)pthread_once(&lab_once, lab_index);
	for (i = lab_at[w[0]]; i < lab_at[w[0] + 1]; i++) {
		if (labels[i].len != n)
			continue;
		for (k = 1; k < n && w[k] == (uint8_t)labels[i].s[k]; k++)
			;
		if (k == n)
			return (&labels[i]);
	}
	return (NULL);
}

/*
 * The label printed before position p (a token, or its 0x): skip back
 * over spaces, ':', '[', '<', '(', '=' and one "0018:"-style segment
 * selector, then match the word (or phrase) there.  Looks at most
 * LABEL_SCAN bytes back.
 */
static enum kl_ck
label_at(const struct kl_ctx *c, size_t p)
{
	const uint8_t *m = c->msg;
	const struct label *lb;
	size_t lim, q, ws, we, wl, i;
	int strong = 0;

	lim = p > LABEL_SCAN ? p - LABEL_SCAN : 0;
	q = skip_seps(m, p, lim, &strong);
	/* RSP: 0018:ffffa667c016fe48 -- the selector is not the label. */
	if (q < p && m[q] == ':' && q >= lim + 4 && kl_hex_all(m + q - 4, 4) &&
	    (q - 4 == 0 || is_labelsep(m[q - 5])))
		q = skip_seps(m, q - 4, lim, &strong);
	we = q;
	ws = we;
	while (ws > lim && kl_iswordch(m[ws - 1]))
		ws--;
	if (ws == we)
		return (KL_CK_NONE);
	/* The word may be cut: by the scan limit or by a window start. */
	if ((ws == lim && lim > 0) || (ws == 0 && !c->msg_head))
		return (KL_CK_NONE);
	wl = we - ws;
	/*
	 * "ACPI: RSDT 0x000000003FFE1AD8 000034 (v01 ...)": a table's
	 * physical address (dynamic SSDTs print a virtual one, which the
	 * value still classifies).
	 */
	if (wl == 4 && ws >= 6 && !strong &&
	    kl_startswith(m + ws - 6, 6, KL_LIT("ACPI: ")))
		return (KL_CK_PHYS);
	for (i = phrase_end(m + ws, wl) ? 0 : NPHRASES; i < NPHRASES; i++) {
		lb = &phrases[i];
		/*
		 * Its last byte, then the last byte of the word before
		 * (a phrase is a word, a separator, then the word at ws,
		 * so it is at least wl + 2 long).
		 */
		if (lb->len < wl + 2 || lb->len > we - lim ||
		    lb->s[lb->len - 1] != m[we - 1] ||
		    lb->s[lb->len - wl - 2] != m[we - wl - 2])
			continue;
		if (memcmp(m + we - lb->len, lb->s, lb->len) != 0)
			continue;
		if (we - lb->len > 0 && kl_iswordch(m[we - lb->len - 1]))
			continue;
		if (we - lb->len == 0 && !c->msg_head)
			continue;
		if (lb->sep && !strong)
			continue;
		return ((enum kl_ck)lb->kind);
	}
	if ((lb = word_label(m + ws, wl)) != NULL && (!lb->sep || strong))
		return ((enum kl_ck)lb->kind);
	if (strong && generic_reg(m, ws, we))
		return (KL_CK_REG);
	return (KL_CK_NONE);
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
	if (kl_run_left(m, q) != c->toklen)
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
	    kl_run_left(m, p - 1) != 16)
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
 * Is the token a page-table entry or a page-table base, which hold
 * physical frames: show_pte()'s "*pgd=9671f835, *pte=00000000" (arm),
 * "pgd=0800000106a37003, p4d=..." (arm64), x86's "PGD 1a201067 P4D
 * 1a201067 PUD ...", arm's "Table: 89b9006a" (TTBR0)?  "pgd = c0004000"
 * with spaces is arm's mm->pgd, a virtual address, and not one.
 */
static int
pte_entry(const struct kl_ctx *c)
{
	static const char *const words[] = {
	    "pgd", "p4d", "pud", "pmd", "pte", "ppte", "PGD", "P4D", "PUD",
	    "PMD", "PTE",
	};
	const uint8_t *m = c->msg;
	size_t p = c->tok - (c->prefix ? 2 : 0), q, i, n;

	if (p >= 7 && kl_lit_at(m, p, p - 7, KL_LIT("Table: ")))
		return (1);
	if (p < 4 || (m[p - 1] != '=' && m[p - 1] != ' '))
		return (0);
	q = p - 1;
	/* Every word ends in d, e, D or E: most tokens stop here. */
	switch (m[q - 1]) {
	case 'd': case 'e': case 'D': case 'E':
		break;
	default:
		return (0);
	}
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		n = strlen(words[i]);
		if (q < n || memcmp(m + q - n, words[i], n) != 0 ||
		    (q > n && kl_iswordch(m[q - n - 1])))
			continue;
		/* Lower case takes '=', upper case (x86) a space. */
		if ((m[p - 1] == '=') == (words[i][0] >= 'a'))
			return (1);
	}
	return (0);
}

/*
 * Is the token a bus address of a PCI region, as lspci -v and pasted
 * device listings print it: "Memory at e0300000 (32-bit,
 * non-prefetchable)", "I/O ports at e000", "Expansion ROM at fe000000"?
 */
static int
bar_entry(const struct kl_ctx *c)
{
	static const char *const words[] = {
	    "Memory at ", "I/O ports at ", "Expansion ROM at ",
	};
	const uint8_t *m = c->msg;
	size_t p = c->tok - (c->prefix ? 2 : 0), i, n;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		n = strlen(words[i]);
		if (p >= n && memcmp(m + p - n, words[i], n) == 0)
			return (1);
	}
	return (0);
}

/*
 * Is the token a bound of a /proc/iomem row, "  fd000000-febfffff : PCI
 * Bus 0000:00" (kernel/resource.c r_show(): "%*s%0*llx-%0*llx : %s", two
 * spaces a level)?  Physical and bus addresses, whatever their value (the
 * bounds, and a device-tree node's unit address in the name): an i386 or
 * arm machine's PCI windows and RAM sit where its kernel addresses
 * would.
 */
static int
iomem_entry(const struct kl_ctx *c)
{
	const uint8_t *m = c->msg;
	size_t i = 0, a, b, n = c->len;

	if (c->prefix || !c->msg_head)
		return (0);
	while (i < n && i < 32 && m[i] == ' ')
		i++;
	for (a = i; i < n && kl_isxdigit(m[i]); i++)
		;
	if (i - a < 4 || i - a > 16 || i >= n || m[i] != '-')
		return (0);
	for (b = ++i; i < n && kl_isxdigit(m[i]); i++)
		;
	if (i - b != b - 1 - a || n - i < 4 || memcmp(m + i, " : ", 3) != 0)
		return (0);
	/* ...and the unit address of a device-tree name: "dma@7ffb0000". */
	return (c->tok == a || c->tok == b || c->tok >= i + 3);
}

/*
 * The label of the token.  A token with none may be the end of a range
 * (range_start()), which takes the label of its start, or a later column
 * of a register row ("GPR08: c000000002bac020 6b6b6b6b6b6b6b6b ...", mips
 * "$ 4   :", s390 "Krnl GPRS:"): up to seven words of the token's width,
 * each after one to three spaces, lead back to a register label.
 */
static enum kl_ck
find_label(const struct kl_ctx *c)
{
	const uint8_t *m = c->msg;
	enum kl_ck k;
	size_t p, q, sp, n;

	p = c->tok - (c->prefix ? 2 : 0);
	if ((k = label_at(c, p)) != KL_CK_NONE)
		return (k);
	if (s390_psw_addr(c, p))
		return (KL_CK_PC);
	if ((q = range_start(c, p)) != p)
		return (label_at(c, q));
	if (c->prefix)
		return (KL_CK_NONE);
	for (n = 0; n < 7; n++) {
		for (q = p, sp = 0; q > 0 && m[q - 1] == ' ' && sp < 3; q--)
			sp++;
		if (sp == 0 || kl_run_left(m, q) != c->toklen ||
		    (q > c->toklen && kl_isalnum(m[q - c->toklen - 1])))
			return (KL_CK_NONE);
		p = q - c->toklen;
		if (label_at(c, p) == KL_CK_REG)
			return (KL_CK_REG);
	}
	return (KL_CK_NONE);
}

/*
 * The end of arm's "[<c01abcde>] (sym) from [<...>]" at m[i], after the
 * name: %ps prints the bare name (or "name [mod]") in the parentheses,
 * which close before " from" or the line's end.  A value %ps could not
 * name prints as "(0xe0236b93)" and is no symbol (the caller checks).
 */
static void
arm_sym(const uint8_t *m, size_t len, size_t i, struct kl_cinfo *ci)
{
	size_t s;
	int mod = 0;

	if (kl_lit_at(m, len, i, KL_LIT(" ["))) {
		s = i += 2;
		while (i < len && i - s < SYM_SCAN &&
		    (kl_iswordch(m[i]) || m[i] == '-'))
			i++;
		if (i == s || i >= len || m[i] != ']')
			return;
		i++;
		mod = 1;
	}
	if (i >= len || m[i] != ')')
		return;
	i++;
	if (i < len && m[i] != '\r' && !kl_lit_at(m, len, i, KL_LIT(" from")))
		return;
	ci->sym = 1;
	ci->module = mod;
}

/*
 * Is a "sym+0xoff/0xsize" at m[i] (after "]", ">", spaces, "? " and "(")?
 * Sets ci->sym, and ci->module when " [module]" follows, as in
 * "func+0x1a/0x30 [mod]", or when the symbol is a BPF JIT image
 * (bpf_prog_<tag>, bpf_trampoline_<key>), which lives with the modules.
 */
static void
sym_after(const uint8_t *m, size_t len, size_t i, struct kl_cinfo *ci)
{
	size_t s, n;
	int bpf;

	while (i < len && (m[i] == ']' || m[i] == '>'))
		i++;
	while (i < len && m[i] == ' ')
		i++;
	if (kl_lit_at(m, len, i, KL_LIT("? ")))
		i += 2;
	if (i < len && m[i] == '(')
		i++;
	s = i;
	bpf = kl_lit_at(m, len, i, KL_LIT("bpf_prog_")) ||
	    kl_lit_at(m, len, i, KL_LIT("bpf_trampoline_"));
	while (i < len && i - s < SYM_SCAN &&
	    (kl_iswordch(m[i]) || m[i] == '.' || m[i] == '$'))
		i++;
	if (i > s && s > 0 && m[s - 1] == '(' && (m[s] < '0' || m[s] > '9')) {
		arm_sym(m, len, i, ci);
		if (ci->sym) {
			ci->module |= bpf;
			return;
		}
	}
	if (i == s || !kl_lit_at(m, len, i, KL_LIT("+0x")))
		return;
	i += 3;
	if ((n = kl_run_right(m, len, i)) == 0)
		return;
	i += n;
	if (!kl_lit_at(m, len, i, KL_LIT("/0x")))
		return;
	i += 3;
	if ((n = kl_run_right(m, len, i)) == 0)
		return;
	i += n;
	ci->sym = 1;
	ci->module = bpf;
	if (i < len && m[i] == ')')
		i++;
	if (kl_lit_at(m, len, i, KL_LIT(" ["))) {
		i += 2;
		s = i;
		while (i < len && i - s < SYM_SCAN &&
		    (kl_iswordch(m[i]) || m[i] == '-'))
			i++;
		if (i > s && i < len && (m[i] == ']' || m[i] == ' '))
			ci->module = 1;
	}
}

/*
 * A kallsyms or System.map line "ffffffff81000000 T _text" (or with a
 * "\t[module]"): the token starts the message (or follows blanks), then
 * one space, a type letter of the image's sections (text, data, bss,
 * rodata, weak: not absolute, undefined or debugging symbols) and a
 * space, then a symbol name.  Sets ci->sym, and ci->module for a module
 * symbol.
 */
static int
ksym_line(const struct kl_ctx *c, size_t s, size_t e, struct kl_cinfo *ci)
{
	const uint8_t *m = c->msg;
	size_t i, n;

	for (i = 0; i < s; i++)
		if (m[i] != ' ' && m[i] != '\t' && m[i] != '`')
			return (0);
	if ((s == 0 && !c->msg_head) || e + 4 > c->len || m[e] != ' ' ||
	    m[e + 2] != ' ' || strchr("TtDdBbRrWwVv", m[e + 1]) == NULL ||
	    m[e + 1] == '\0')
		return (0);
	i = e + 3;
	n = i;
	if (i >= c->len || !(kl_iswordch(m[i]) || m[i] == '.' || m[i] == '$') ||
	    (m[i] >= '0' && m[i] <= '9'))
		return (0);
	while (i < c->len && i - n < SYM_SCAN &&
	    (kl_iswordch(m[i]) || m[i] == '.' || m[i] == '$'))
		i++;
	if (i < c->len && (m[i] == '\r' || m[i] == '`'))
		i++;
	if (i < c->len) {
		if (m[i] != '\t' && m[i] != ' ')
			return (0);
		while (i < c->len && (m[i] == '\t' || m[i] == ' '))
			i++;
		if (i < c->len && m[i] == '[')
			ci->module = 1;
		else if (i < c->len && m[i] != '\r')
			return (0);
	}
	ci->sym = 1;
	return (1);
}

/*
 * Frames and dump rows, when no label was found:
 *   [<ffffffff81234567>] func+0x1a/0x30       (print_ip_sym, lockdep)
 *   [c00000000152be10] [c000000001357c90] f+0x128/0x150  (powerpc)
 *   [0000000000000008] pgd=0800000106a37003    (show_pte)
 *   ffff88806b2a0f00: fa fb fb fb ...          (KASAN, hex dumps)
 */
static enum kl_ck
find_shape(const struct kl_ctx *c, struct kl_cinfo *ci)
{
	const uint8_t *m = c->msg;
	size_t s = c->tok - (c->prefix ? 2 : 0), e = c->tok + c->toklen, n;

	if (s >= 2 && m[s - 1] == '<' && m[s - 2] == '[' && e + 2 <= c->len &&
	    m[e] == '>' && m[e + 1] == ']') {
		sym_after(m, c->len, e + 2, ci);
		return (KL_CK_FRAME);
	}
	if (s >= 1 && m[s - 1] == '[' && e + 1 < c->len && m[e] == ']' &&
	    m[e + 1] == ' ') {
		if (e + 2 < c->len && m[e + 2] == '[' &&
		    (n = kl_run_right(m, c->len, e + 3)) >= 8 &&
		    e + 3 + n < c->len && m[e + 3 + n] == ']')
			return (KL_CK_STACK);
		if (kl_lit_at(m, c->len, e + 1, KL_LIT(" pgd=")) ||
		    kl_lit_at(m, c->len, e + 1, KL_LIT(" *pgd=")))
			return (KL_CK_FAULT);
		sym_after(m, c->len, e + 1, ci);
		if (ci->sym)
			return (KL_CK_FRAME);
	}
	if (ksym_line(c, s, e, ci))
		return (KL_CK_KSYM);
	if (e + 7 <= c->len && m[e] == ':' && m[e + 1] == ' ' &&
	    kl_hex_all(m + e + 2, 2) && m[e + 4] == ' ' &&
	    kl_hex_all(m + e + 5, 2) &&
	    (e + 7 == c->len || !kl_isalnum(m[e + 7])))
		return (KL_CK_ROW);
	return (KL_CK_NONE);
}

/*
 * Is the token one end of a range, "Stack: (0xc8e1ff00 to 0xc8e20000)",
 * "Exception stack(A to B)", arm64's "Task stack: [A..B]"?
 */
static int
stack_range(const struct kl_ctx *c)
{
	const uint8_t *m = c->msg;
	size_t p = c->tok - (c->prefix ? 2 : 0), q = c->tok + c->toklen;

	if (range_start(c, p) != p)
		return (1);
	if (kl_lit_at(m, c->len, q, KL_LIT(" to ")))
		q += 4;
	else if (kl_lit_at(m, c->len, q, KL_LIT("..")))
		q += 2;
	else
		return (0);
	if (kl_lit_at(m, c->len, q, KL_LIT("0x")))
		q += 2;
	return (kl_run_right(m, c->len, q) == c->toklen);
}

/*
 * Does the line say its registers are the kernel's?  The x86 code
 * selector before the value ("RIP: 0010:", i386 "EIP: 0060:[<",
 * __KERNEL_CS; user mode prints 0033 or 0073), or an arm "psr: %08lx" on
 * the line whose mode bits are not USR_MODE (0x10).
 */
static int
kernel_mode(const struct kl_ctx *c)
{
	const uint8_t *m = c->msg, *q, *e = c->msg + c->len;
	size_t p = c->tok - (c->prefix ? 2 : 0);
	uint64_t psr;

	if (p >= 2 && m[p - 1] == '<' && m[p - 2] == '[')
		p -= 2;
	if (p >= 5 && m[p - 1] == ':' && (kl_lit_at(m, p, p - 5,
	    KL_LIT("0010")) || kl_lit_at(m, p, p - 5, KL_LIT("0060"))))
		return (1);
	if (c->toklen != 8)
		return (0);
	for (q = m; (q = memchr(q, 'p', (size_t)(e - q))) != NULL; q++) {
		if (e - q < 13 || memcmp(q, "psr: ", 5) != 0 ||
		    kl_hexval(q + 5, 8, &psr) != 0)
			continue;
		return ((psr & 0x10) != 0 && (psr & 0x1f) != 0x10);
	}
	return (0);
}

/* clang-format off */
/*
 * Row names of the boot's "Virtual kernel memory layout:" banner and the
 * region each names: arm (arch/arm/mm/init.c mem_init() before v5.x),
 * arm64 (before v4.16), i386 (arch/x86/mm/init_32.c), riscv
 * (arch/riscv/mm/init.c print_vm_layout()), ppc32 ("  * A..B  : name",
 * arch/powerpc/mm/mem.c).
 */
static const struct banner_row {
	const char	*s;
	uint8_t		 len;
	uint8_t		 region;	/* enum kl_region */
} banner_rows[] = {
#define BR(s, r) { (s), sizeof(s) - 1, (r) }
	BR("vector", KL_REGION_FIXMAP), BR("fixmap", KL_REGION_FIXMAP),
	BR("fixed", KL_REGION_FIXMAP), BR("DMA", KL_REGION_FIXMAP),
	BR("consistent", KL_REGION_FIXMAP), BR("PCI I/O", KL_REGION_FIXMAP),
	BR("pci io", KL_REGION_FIXMAP), BR("ITCM", KL_REGION_FIXMAP),
	BR("DTCM", KL_REGION_FIXMAP), BR("pkmap", KL_REGION_FIXMAP),
	BR("cpu_entry", KL_REGION_FIXMAP),
	BR("early ioremap", KL_REGION_FIXMAP),
	BR("highmem PTEs", KL_REGION_FIXMAP),
	BR("vmalloc", KL_REGION_VMALLOC), BR("vmalloc & ioremap",
	    KL_REGION_VMALLOC),
	BR("lowmem", KL_REGION_DIRECT_MAP), BR("memory", KL_REGION_DIRECT_MAP),
	BR("modules", KL_REGION_MODULES), BR("vmemmap", KL_REGION_VMEMMAP),
	BR("kasan", KL_REGION_KASAN_SHADOW),
	BR(".text", KL_REGION_TEXT), BR(".init", KL_REGION_TEXT),
	BR(".data", KL_REGION_TEXT), BR(".bss", KL_REGION_TEXT),
	BR(".rodata", KL_REGION_TEXT), BR("kernel", KL_REGION_TEXT),
#undef BR
};
/* clang-format on */

/* The region a banner row named m[s, e) stands for; NONE if unknown. */
static enum kl_region
banner_name(const uint8_t *m, size_t s, size_t e)
{
	size_t i;

	for (i = 0; i < sizeof(banner_rows) / sizeof(banner_rows[0]); i++)
		if (e - s == banner_rows[i].len &&
		    memcmp(m + s, banner_rows[i].s, e - s) == 0)
			return ((enum kl_region)banner_rows[i].region);
	return (KL_REGION_NONE);
}

/*
 * Is the token a bound of a layout banner row: "    vmalloc : 0xc3000000
 * - 0xff000000   ( 960 MB)", or ppc32's "  * 0xfffdf000..0xfffff000  :
 * fixmap"?  The row must start the message (after blanks).  Sets
 * ci->bregion.
 */
static int
banner_row(const struct kl_ctx *c, struct kl_cinfo *ci)
{
	const uint8_t *m = c->msg;
	size_t p = c->tok - (c->prefix ? 2 : 0), a, s, e, i;

	if (!c->prefix)
		return (0);
	a = range_start(c, p);		/* the first bound, or p */
	if (a == p) {
		/* The first bound: a second one must follow. */
		i = c->tok + c->toklen;
		if (kl_lit_at(m, c->len, i, KL_LIT(" - 0x")))
			i += 5;
		else if (kl_lit_at(m, c->len, i, KL_LIT("..0x")))
			i += 4;
		else
			return (0);
		if (kl_run_right(m, c->len, i) != c->toklen)
			return (0);
	}
	if (!c->msg_head && a < 24)
		return (0);
	/* "  * A..B  : name" */
	for (i = 0; i < a && (m[i] == ' ' || m[i] == '\t'); i++)
		;
	if (i + 2 == a && m[i] == '*' && m[i + 1] == ' ') {
		s = a + 2 * (c->toklen + 2) + 2;	/* past "A..B" */
		while (s < c->len && m[s] == ' ')
			s++;
		if (!kl_lit_at(m, c->len, s, KL_LIT(": ")))
			return (0);
		s += 2;
		for (e = s; e < c->len && m[e] != '\r'; e++)
			;
		ci->bregion = banner_name(m, s, e);
		return (ci->bregion != KL_REGION_NONE);
	}
	/* "    name : A - B" */
	s = i;
	e = a;
	while (e > s && (m[e - 1] == ' ' || m[e - 1] == ':'))
		e--;
	if (e == s || e + 2 > a || memchr(m + e, ':', a - e) == NULL)
		return (0);
	ci->bregion = banner_name(m, s, e);
	return (ci->bregion != KL_REGION_NONE);
}

/* Look at the bytes around the token. */
void
kl_label_context(const struct kl_ctx *c, struct kl_cinfo *ci)
{
	ci->kind = KL_CK_NONE;
	ci->sym = 0;
	ci->module = 0;
	ci->valid = 0;
	ci->range = 0;
	ci->kmode = 0;
	ci->bregion = KL_REGION_NONE;
	if (c == NULL || c->msg == NULL || c->toklen == 0 || c->tok > c->len ||
	    c->toklen > c->len - c->tok || (c->prefix && c->tok < 2))
		return;
	ci->valid = 1;
	ci->kind = find_label(c);
	if (ci->kind == KL_CK_PC)
		sym_after(c->msg, c->len, c->tok + c->toklen, ci);
	if (ci->kind == KL_CK_NONE && pte_entry(c))
		ci->kind = KL_CK_PTE;
	if (ci->kind == KL_CK_NONE && (bar_entry(c) || iomem_entry(c)))
		ci->kind = KL_CK_BAR;
	if (ci->kind == KL_CK_NONE)
		ci->kind = find_shape(c, ci);
	if (ci->kind == KL_CK_NONE && banner_row(c, ci))
		ci->kind = KL_CK_BANNER;
	if (ci->kind == KL_CK_STACK)
		ci->range = stack_range(c);
	if (ci->kind == KL_CK_PC || ci->kind == KL_CK_STACK)
		ci->kmode = kernel_mode(c);
}
