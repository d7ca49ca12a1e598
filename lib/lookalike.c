/*
 * lookalike.c - is a candidate token a look-alike, a value that has the
 * shape of a kernel address and is none: by its value (null, hashed %p,
 * ERR_PTR, poison, mask) or by the bytes around it (a link-time constant,
 * UUID, MAC or IPv6 address, hex dump, hash or identifier).
 *
 * kl_classify() asks kl_lookalike_value(), then kl_lookalike_shape(),
 * before it looks for a region; each returns the reason (enum
 * kl_suppress) or KL_SUP_NONE.  When unsure they do not suppress.
 */
#include "config.h"

#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

/* clang-format off */
#define DUMP_SCAN	192	/* bytes each side searched for a dump row */

/* Fill bytes of include/linux/poison.h (see is_poison()). */
static const uint8_t poison_fill[] = {
	0x11, 0x12, 0x22, 0x5a, 0x5b, 0x5c, 0x6b, 0x6c,
	0xa5, 0xa7, 0xa9, 0xaa, 0xab, 0xbb, 0xbd, 0xcc,
};

/* clang-format on */

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
enum kl_suppress
kl_lookalike_value(uint64_t v, unsigned width, int rawlabel)
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
		if (kl_run_right(m, c->len, i) != grp[g])
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
		n = kl_run_left(m, i - 1);
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
		n = kl_run_right(m, c->len, i + 1);
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

/* Is c an ASCII letter? */
static int
is_letter(uint8_t c)
{
	return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/*
 * Is m[i..] a label of a host or file name, as the text after
 * "<token>." can be?  Such a label starts with a letter.  The answer
 * must not change when --redact zeroes a token in it, or a rewritten
 * log would show a token the first pass kept; so a label that starts
 * with a hex run a token could be (8 digits or more, no letter after
 * them) is judged by what follows, whatever its first digit: a name
 * only when another label follows it that is one.
 */
static int
name_label(const uint8_t *m, size_t len, size_t i)
{
	size_t n;

	while (i < len) {
		n = kl_run_right(m, len, i);
		if (n < 8 || (i + n < len && is_letter(m[i + n])))
			return (is_letter(m[i]));
		i += n;
		if (i + 1 >= len || m[i] != '.')
			return (0);
		i++;
	}
	return (0);
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
	size_t s, e, t0 = c->tok, t1, lim, i, w, next, nw = 0, n2 = 0;
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
	    (s == 5 ? c->msg_head : !kl_iswordch(m[s - 6])))
		return (1);
	lim = c->len - e > DUMP_SCAN ? e + DUMP_SCAN : c->len;
	for (; e < lim && is_dumpch(m[e]); e++)
		lt |= m[e] == '<';
	/* Neither a mark nor a byte group next to the token: no dump. */
	byte = (t0 >= s + 3 && m[t0 - 1] == ' ' && kl_hex_all(m + t0 - 3, 2) &&
		   (t0 == s + 3 || m[t0 - 4] == ' ')) ||
	    (t1 + 3 <= e && m[t1] == ' ' && kl_hex_all(m + t1 + 1, 2) &&
		(t1 + 3 == e || m[t1 + 3] == ' '));
	if (!lt && !byte)
		return (0);
	/* Split [s, e) into words: [i, next), less a <...> or (...). */
	for (i = s; i < e; i = next) {
		while (i < e && m[i] == ' ')
			i++;
		if (i == e)
			break;
		for (next = i; next < e && m[next] != ' '; next++)
			;
		w = next;
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
	}
	/*
	 * Bytes outnumber the words of the token's width: LoongArch's
	 * "a0 %016lx a1 %016lx a2 ..." register rows alternate the two.
	 */
	return ((marked && nw >= 4) || (n2 >= 4 && n2 > nw));
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
 *    A label that a token could be (8 or more hex digits) counts as a
 *    name only when a name follows it: zeroing it must not change what
 *    its left neighbour is.
 */
static int
hash_shape(const struct kl_ctx *c, enum kl_ck kind)
{
	const uint8_t *m = c->msg;
	size_t s = c->tok, e = c->tok + c->toklen, i, n;

	if (kind == KL_CK_HASH)
		return (1);
	if (!c->prefix) {
		if (s >= 9 && memcmp(m + s - 9, "bpf_prog_", 9) == 0)
			return (1);
		if (s >= 4 &&
		    (memcmp(m + s - 4, "eui.", 4) == 0 ||
			memcmp(m + s - 4, "naa.", 4) == 0) &&
		    (s == 4 || !kl_iswordch(m[s - 5])))
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
			n = kl_run_left(m, i);
			if (n > c->toklen)
				return (1);
			if (n >= 7 && i == s - 2 && i >= n + 6 &&
			    memcmp(m + i - n - 6, "index ", 6) == 0)
				return (1);
		}
		/* index <token>..<hash> */
		if (s >= 6 && memcmp(m + s - 6, "index ", 6) == 0 &&
		    kl_lit_at(m, c->len, e, KL_LIT("..")) &&
		    kl_run_right(m, c->len, e + 2) >= 7)
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
	if (e + 1 < c->len && m[e] == '.' && name_label(m, c->len, e + 1))
		return (1);
	/* A longer hex run on the right. */
	if (e + 1 < c->len && is_joiner(m[e])) {
		i = e + 1;
		if (m[e] == '.' && m[i] == '.')
			i++;
		if (kl_run_right(m, c->len, i) > c->toklen)
			return (1);
	}
	return (0);
}

/* Shape look-alikes, in order; KL_SUP_NONE when the shape is no reason. */
enum kl_suppress
kl_lookalike_shape(const struct kl_ctx *c, enum kl_ck kind)
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
