/*
 * kleak-int.h - helpers shared inside lib/ only.
 */
#ifndef KLEAK_INT_H
#define KLEAK_INT_H

#include <stddef.h>
#include <stdint.h>

#include "kleak.h"

/* A function the compiler must not inline into its only caller. */
#if defined(__GNUC__) || defined(__clang__)
#define KL_NOINLINE	__attribute__((noinline))
#else
#define KL_NOINLINE
#endif

/* Byte classes for the candidate finder and the classifier (candidate.c). */
#define KL_C_HEX	0x01	/* 0-9 a-f A-F */
#define KL_C_ALNUM	0x02	/* 0-9 a-z A-Z (a token boundary is not this) */
#define KL_C_WORD	0x04	/* 0-9 a-z A-Z _: a label word */
/* space tab : [ < ( =: between label and value */
#define KL_C_LABELSEP	0x08
/* hex digits, space, X < > ( ): a hex dump row */
#define KL_C_DUMP	0x10
extern const uint8_t kl_ctype[256];

/* Is c an ASCII letter or digit? */
static inline int
kl_isalnum(uint8_t c)
{
	return (kl_ctype[c] & KL_C_ALNUM) != 0;
}

/* Is c a hex digit? */
static inline int
kl_isxdigit(uint8_t c)
{
	return (kl_ctype[c] & KL_C_HEX) != 0;
}

/* The number of trailing zero bits of x, x != 0. */
static inline unsigned
kl_ctz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return ((unsigned)__builtin_ctzll(x));
#else
	unsigned n = 0;

	while ((x & 1) == 0) {
		x >>= 1;
		n++;
	}
	return (n);
#endif
}

/* Checked size_t addition: returns -1 on overflow. */
static inline int
kl_add(size_t a, size_t b, size_t *r)
{
	if (a > SIZE_MAX - b)
		return (-1);
	*r = a + b;
	return (0);
}

/* Checked size_t multiplication: returns -1 on overflow. */
static inline int
kl_mul(size_t a, size_t b, size_t *r)
{
	if (a != 0 && b > SIZE_MAX / a)
		return (-1);
	*r = a * b;
	return (0);
}

/* AVX2 code under a target attribute, chosen at run time. */
#if defined(__x86_64__) && defined(__SSE2__) && defined(__GNUC__)
#define KL_AVX2	1
#endif

/* candidate.c: the next run of eight hex digits; candidates from one. */
size_t		 kl_hexrun(const uint8_t *, size_t, size_t);
size_t		 kl_hexrun_scalar(const uint8_t *, size_t, size_t);
#ifdef __SSE2__
size_t		 kl_hexrun_sse2(const uint8_t *, size_t, size_t);
#endif
#ifdef KL_AVX2
size_t		 kl_hexrun_avx2(const uint8_t *, size_t, size_t);
#endif
size_t		 kl_cand_fast_at(const uint8_t *, size_t, size_t, size_t,
		     size_t *, unsigned, struct kl_token *, size_t, size_t *);

/* frame.c: do two kinds of the line before frame a line the same? */
int		 kl_frame_prev_same(enum kl_line_kind, enum kl_line_kind);
void		 kl_frame_line_all(const uint8_t *, size_t, enum kl_line_kind,
		     enum kl_format, struct kl_frame *);

/* mail.c: a line's end, and where kl_mail_suspect() must start. */
size_t		 kl_line_end(const uint8_t *, size_t, size_t *);
size_t		 kl_line_end_scalar(const uint8_t *, size_t, size_t *);
#ifdef __SSE2__
size_t		 kl_line_end_sse2(const uint8_t *, size_t, size_t *);
#endif
#ifdef KL_AVX2
size_t		 kl_line_end_avx2(const uint8_t *, size_t, size_t *);
#endif
int		 kl_mail_suspect_from(const uint8_t *, size_t, size_t);

/*
 * hbuf.c: big buffers the kernel may back with huge pages.  Under
 * AddressSanitizer they come from the heap, where it checks them.
 */
#if defined(__SANITIZE_ADDRESS__)
#define KL_HB_HEAP	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KL_HB_HEAP	1
#endif
#endif
void		*kl_hb_alloc(size_t, size_t *);
void		 kl_hb_free(void *, size_t);
int		 kl_hb_grow(void **, size_t *, size_t, size_t);

/* Find needle in haystack (bytes). */
const uint8_t	*kl_memmem(const uint8_t *, size_t, const char *, size_t);
const uint8_t	*kl_memmem_scalar(const uint8_t *, size_t, const char *,
		     size_t);
#ifdef KL_AVX2
const uint8_t	*kl_memmem_avx2(const uint8_t *, size_t, const char *,
		     size_t);
#endif

/* Does buf[0..len) start with the literal s? */
static inline int
kl_startswith(const uint8_t *buf, size_t len, const char *s, size_t slen)
{
	size_t i;

	if (len < slen)
		return (0);
	for (i = 0; i < slen; i++)
		if (buf[i] != (uint8_t)s[i])
			return (0);
	return (1);
}
#define KL_LIT(s) (s), (sizeof(s) - 1)

/* engine.c: match with the PCRE2 reference engine. */
size_t	 kl_cand_pcre2(const struct kl_engine *, void *, const uint8_t *,
	    size_t, size_t, unsigned, struct kl_token *, size_t, size_t *);
void	*kl_engine_mdata(const struct kl_engine *);
void	 kl_engine_mdata_free(void *);
const struct kl_options *kl_engine_options(const struct kl_engine *);

/* leaks.c: every pattern, no key filter (the reference for tests). */
int	 kl_leak_match_all(struct kl_leakmatch *, const uint8_t *, size_t,
	    struct kl_leak_hit *, size_t);
/* leaks.c: can a message starting with the byte match entry i? */
int	 kl_leakdb_first_ok(const struct kl_leakdb *, size_t, uint8_t);

/* symbols.c: the index of the kernel symbol called name. */
int	 kl_sym_core_find(const struct kl_symtab *, const char *, size_t *);

/* symmap.c: map load errors; the release in a map's file name. */
void	 kl_sym_seterr(struct kl_error *, enum kl_errcode, int, uint64_t,
	    const char *, const char *);
int	 kl_sym_release_of(const char *, char **);

/* The value of a base64 character, -1 (not one) or -2 ('='). */
static inline int
kl_b64_value(uint8_t c)
{
	if (c >= 'A' && c <= 'Z')
		return (c - 'A');
	if (c >= 'a' && c <= 'z')
		return (c - 'a' + 26);
	if (c >= '0' && c <= '9')
		return (c - '0' + 52);
	if (c == '+')
		return (62);
	if (c == '/')
		return (63);
	if (c == '=')
		return (-2);
	return (-1);
}

/* mimebody.c: a text part's body lines decoded; damage; the begin event. */
int	 kl_mime_body_line(struct kl_mime *, const uint8_t *, size_t, size_t);
int	 kl_mime_part_end(struct kl_mime *);
int	 kl_mime_damage(struct kl_mime *, unsigned, const char *);
int	 kl_mime_begin_now(struct kl_mime *);

/* detect.c: the evidence of --arch auto, recorded by detect-line.c. */
/* struct kl_detect.flags: facts that are final, and pending work. */
#define KL_DF_BITS	0x01	/* bits from a register width or banner */
#define KL_DF_VA	0x02	/* va_bits decided */
#define KL_DF_BOOK3E	0x04	/* ppc64 book3e */
#define KL_DF_PPC_E	0x08	/* book3e hint: die line without MMU=, e5500 */
#define KL_DF_DIRTY	0x10	/* evidence changed since the last resolve */
#define KL_DF_FR_LOONG	0x20	/* a symbolised frame at 0x9000000000000000+ */
#define KL_DF_PC_BUILTIN 0x40	/* "PC is at sym+0x1/0x2", no [module] */
#define KL_DF_ARM64_LOW	0x80	/* arm64 text below ffff800000000000:
				   the layout before v5.4 */
void	 kl_detect_score(struct kl_detect *, enum kl_arch_id, unsigned);
void	 kl_detect_weak(struct kl_detect *, enum kl_arch_id, unsigned);
void	 kl_detect_family(struct kl_detect *, int);
void	 kl_detect_bits(struct kl_detect *, int, int);
void	 kl_detect_va(struct kl_detect *, int, int);
int	 kl_detect_va_of(enum kl_arch_id);
void	 kl_detect_resolve(struct kl_detect *);
void	 kl_detect_line_all(struct kl_detect *, const uint8_t *, size_t);
enum kl_arch_id kl_detect_arm64_va(uint64_t);
enum kl_arch_id kl_detect_riscv_va(uint64_t);
enum kl_arch_id kl_detect_x86_va(uint64_t);

/* kaslr.c: the evidence and votes, recorded by kaslr-line.c. */
void	 kl_kaslr_keep(struct kl_kaslr *, uint64_t, enum kl_evidence_kind,
	    enum kl_region, uint64_t);
int	 kl_kaslr_vote_as(struct kl_kaslr *, uint64_t, int);
int	 kl_kaslr_vote(struct kl_kaslr *, uint64_t);
int	 kl_kaslr_arm64(enum kl_arch_id);

/* label.c: what the bytes around a token say it is. */
enum kl_ck {
	KL_CK_NONE = 0,
	KL_CK_REG,	/* a general register */
	KL_CK_STACK,	/* a stack pointer */
	KL_CK_PC,	/* a program counter or return address */
	KL_CK_FRAME,	/* a call-trace frame */
	KL_CK_PERCPU,	/* a per-CPU base (x86 GS/FS) */
	KL_CK_PAGE,	/* a struct page pointer */
	KL_CK_FAULT,	/* a faulting address */
	KL_CK_OBJECT,	/* an object address (KASAN, kmemleak) */
	KL_CK_ROW,	/* the address of a hex dump row */
	KL_CK_HASH,	/* a label that says hash, digest or id */
	KL_CK_PHYS,	/* a label that says physical: no context */
	KL_CK_KSYM,	/* the address of a kallsyms or System.map line */
	KL_CK_BANNER,	/* a bound of a "Virtual kernel memory layout" row */
	KL_CK_PTE,	/* a page-table entry or base: physical */
	KL_CK_BAR,	/* a PCI BAR or I/O window: a bus address */
};

/* The context found around one token. */
struct kl_cinfo {
	enum kl_ck	 kind;
	int		 sym;		/* a "sym+0xoff/0xsize" follows */
	int		 module;	/* ... with a "[module]", or BPF */
	int		 valid;		/* the context bytes can be looked at */
	/* a kernel stack range: "Stack: (A to B)", "Task stack: [A..B]" */
	int		 range;
	/* the line says kernel mode: "RIP: 0010:", an arm psr in SVC */
	int		 kmode;
	enum kl_region	 bregion;	/* KL_CK_BANNER: the row's region */
};
void	 kl_label_context(const struct kl_ctx *, struct kl_cinfo *);

/* lookalike.c: a value or a shape that is no kernel address. */
enum kl_suppress kl_lookalike_value(uint64_t, unsigned, int);
enum kl_suppress kl_lookalike_shape(const struct kl_ctx *, enum kl_ck);

/*
 * The bytes around a token, for label.c and lookalike.c: a word byte, a
 * literal, the hex runs next to a position.
 */
#define KL_RUN_MAX	64	/* digits counted in a neighbouring hex run */

/* Is c part of a label word? */
static inline int
kl_iswordch(uint8_t c)
{
	return ((kl_ctype[c] & KL_C_WORD) != 0);
}

/* Does m[i..] hold the literal s (within len)? */
static inline int
kl_lit_at(const uint8_t *m, size_t len, size_t i, const char *s, size_t sl)
{
	return (i <= len && kl_startswith(m + i, len - i, s, sl));
}

/* Length of the hex run starting at m[i] going right, at most KL_RUN_MAX. */
static inline size_t
kl_run_right(const uint8_t *m, size_t len, size_t i)
{
	size_t n = 0;

	while (i + n < len && n < KL_RUN_MAX && kl_isxdigit(m[i + n]))
		n++;
	return (n);
}

/* Length of the hex run ending just before m[i], at most KL_RUN_MAX. */
static inline size_t
kl_run_left(const uint8_t *m, size_t i)
{
	size_t n = 0;

	while (n < i && n < KL_RUN_MAX && kl_isxdigit(m[i - n - 1]))
		n++;
	return (n);
}

#endif /* KLEAK_INT_H */
