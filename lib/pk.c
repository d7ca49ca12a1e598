/*
 * pk.c - %pK and the hashed %p, printed as the kernel prints them.
 *
 * kl_pk_format() models restricted_pointer() in the kernel's
 * lib/vsprintf.c and what it calls (default_pointer(), ptr_to_id(),
 * pointer_string(), error_string(), string_nocheck(), widen_string(),
 * number()) for one value, one printf_spec, and one kernel: its word
 * size and version, the kptr_restrict sysctl, the no_hash_pointers boot
 * option, the pointer key, and the task that runs the vsprintf().
 *
 * The hash is SipHash-2-4 as lib/siphash.c computes it.  The 16 key
 * bytes are read as two little-endian words, as in the SipHash reference
 * code and the kernel's siphash self-test.
 *
 * Kernel history modelled (ctx->kver; 0 is current mainline):
 *   < 4.15  %pK at kptr_restrict 0 prints the value as it is.
 *   4.15    ad67b74d2469: %p is hashed, %pK at 0 prints what %p does;
 *           "(ptrval)" until the key is filled.
 *   4.17    64-bit kernels print "(____ptrval____)" instead (the exact
 *           release is not verified).
 *   5.7     7bd57fbc4a4d: NULL and error pointers are not hashed (also
 *           in 5.6.15; other stable series are not modelled).
 *   5.12    5ead723a20e0: no_hash_pointers, for %p but not yet for %pK.
 *   5.18    %pK at kptr_restrict 0 follows no_hash_pointers too.
 * Not modelled: debug_boot_weak_hash, and early 3.x kernels whose
 * kptr_restrict 1 did not yet compare euid/uid and egid/gid.
 */
#include "config.h"

#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

/* clang-format off */
#define PK_V_HASH	 0x040f00	/* %p hashed, %pK at 0 too */
#define PK_V_PTRVAL16	 0x041100	/* "(____ptrval____)" on 64-bit */
#define PK_V_ERRNULL	 0x050700	/* NULL, ERR_PTR printed raw */
#define PK_V_ERRNULL_5_6 0x05060f	/* ... and from 5.6.15 */
#define PK_V_PK_NOHASH	 0x051200	/* %pK at 0 honours no_hash_pointers */
#define PK_MAX_ERRNO	 4095
/* clang-format on */

#define PK_FLAGS (KL_PK_LEFT | KL_PK_ZEROPAD | KL_PK_SPECIAL)

/* clang-format off */
/* Output with snprintf counting: n is what the whole output needs. */
struct pk_out {
	char	*buf;
	size_t	 size;
	size_t	 n;
};

/* The kernel's struct printf_spec, passed by value like it. */
struct pk_spec {
	int	 width;
	int	 prec;
	unsigned flags;
};
/* clang-format on */

static const char pk_hex[] = "0123456789abcdef";

/* Append c, count times. */
static void
pk_putc(struct pk_out *o, char c, int count)
{
	for (; count > 0; count--) {
		if (o->n < o->size)
			o->buf[o->n] = c;
		o->n++;
	}
}

/* Append len bytes of s. */
static void
pk_puts(struct pk_out *o, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		pk_putc(o, s[i], 1);
}

/* Is ctx's kernel version v or later? */
static int
pk_since(const struct kl_pk_ctx *ctx, int v)
{
	return (ctx->kver == 0 || ctx->kver >= v);
}

/*
 * number() for an unsigned value in lower-case hex: space padding, the
 * 0x of SPECIAL, zero padding, precision zeros, digits, and the spaces
 * of LEFT, in that order.
 */
static void
pk_number(struct pk_out *o, uint64_t num, struct pk_spec spec)
{
	char tmp[16];
	int i = 0, fw = spec.width, prec = spec.prec;

	if (spec.flags & KL_PK_LEFT)
		spec.flags &= ~KL_PK_ZEROPAD;
	if (spec.flags & KL_PK_SPECIAL)
		fw -= 2;
	do {
		tmp[i++] = pk_hex[num & 0xf];
		num >>= 4;
	} while (num != 0);
	if (i > prec)
		prec = i;
	fw -= prec;
	if (!(spec.flags & (KL_PK_ZEROPAD | KL_PK_LEFT))) {
		pk_putc(o, ' ', fw);
		fw = 0;
	}
	if (spec.flags & KL_PK_SPECIAL)
		pk_puts(o, "0x", 2);
	if (!(spec.flags & KL_PK_LEFT))
		pk_putc(o, spec.flags & KL_PK_ZEROPAD ? '0' : ' ', fw);
	pk_putc(o, '0', prec - i);
	while (--i >= 0)
		pk_putc(o, tmp[i], 1);
	if (spec.flags & KL_PK_LEFT)
		pk_putc(o, ' ', fw);
}

/*
 * string_nocheck() and widen_string(): at most prec bytes of s (all of
 * it when prec is -1), space-padded to the width, on the left unless
 * LEFT.  ZEROPAD does not apply to strings.
 */
static void
pk_string(struct pk_out *o, const char *s, struct pk_spec spec)
{
	size_t len = strlen(s);
	int pad;

	if (spec.prec >= 0 && len > (size_t)spec.prec)
		len = (size_t)spec.prec;
	pad = spec.width > (int)len ? spec.width - (int)len : 0;
	if (!(spec.flags & KL_PK_LEFT))
		pk_putc(o, ' ', pad);
	pk_puts(o, s, len);
	if (spec.flags & KL_PK_LEFT)
		pk_putc(o, ' ', pad);
}

/*
 * error_string(): a string whose precision, when none was given, is
 * 2 * sizeof(void *).  (Kernels before 5.2 used string(), without the
 * cap; no string printed here is longer, so the output is the same.)
 */
static void
pk_error_string(struct pk_out *o, const char *s, struct pk_spec spec,
    const struct kl_pk_ctx *ctx)
{
	if (spec.prec == -1)
		spec.prec = ctx->ptr_bits / 4;
	pk_string(o, s, spec);
}

/* pointer_string(): hex, 2 * sizeof(void *) zero-padded by default. */
static void
pk_pointer_string(struct pk_out *o, uint64_t v, struct pk_spec spec,
    const struct kl_pk_ctx *ctx)
{
	if (spec.width == -1) {
		spec.width = ctx->ptr_bits / 4;
		spec.flags |= KL_PK_ZEROPAD;
	}
	pk_number(o, v, spec);
}

/* IS_ERR_OR_NULL() for a pointer of ctx's width. */
static int
pk_err_or_null(uint64_t v, const struct kl_pk_ctx *ctx)
{
	uint64_t top = ctx->ptr_bits == 64 ? UINT64_MAX : UINT32_MAX;

	return (v == 0 || v >= top - (PK_MAX_ERRNO - 1));
}

/*
 * ptr_to_id(): NULL and error pointers as they are (5.7 on), the
 * "(ptrval)" string in the pointer's width while the key is not filled,
 * else siphash_1u64() masked to 32 bits (64-bit) or siphash_1u32().
 */
static void
pk_ptr_to_id(struct pk_out *o, uint64_t v, struct pk_spec spec,
    const struct kl_pk_ctx *ctx)
{
	const char *str = "(ptrval)";
	uint64_t h;

	if (pk_err_or_null(v, ctx) &&
	    (pk_since(ctx, PK_V_ERRNULL) ||
		(ctx->kver >= PK_V_ERRNULL_5_6 && ctx->kver < PK_V_ERRNULL))) {
		pk_pointer_string(o, v, spec, ctx);
		return;
	}
	if (ctx->key == NULL) {
		if (ctx->ptr_bits == 64 && pk_since(ctx, PK_V_PTRVAL16))
			str = "(____ptrval____)";
		spec.width = ctx->ptr_bits / 4;
		pk_error_string(o, str, spec, ctx);
		return;
	}
	if (ctx->ptr_bits == 64)
		h = kl_pk_siphash_u64(v, ctx->key);
	else
		h = kl_pk_siphash_u32((uint32_t)v, ctx->key);
	pk_pointer_string(o, h & 0xffffffff, spec, ctx);
}

/*
 * restricted_pointer(): at kptr_restrict 0 what %p prints (raw before
 * 4.15, raw with no_hash_pointers from 5.18); at 1 "pK-error" in
 * interrupt context, the value for a CAP_SYSLOG reader whose ids match,
 * else zeros; at 2 zeros.
 */
static void
pk_restricted(struct pk_out *o, uint64_t v, struct pk_spec spec,
    const struct kl_pk_ctx *ctx)
{
	switch (ctx->kptr_restrict) {
	case 0:
		if (!pk_since(ctx, PK_V_HASH) ||
		    (ctx->no_hash_pointers && pk_since(ctx, PK_V_PK_NOHASH)))
			break;
		pk_ptr_to_id(o, v, spec, ctx);
		return;
	case 1:
		if (ctx->in_irq) {
			if (spec.width == -1)
				spec.width = ctx->ptr_bits / 4;
			pk_error_string(o, "pK-error", spec, ctx);
			return;
		}
		if (!ctx->cap_syslog || !ctx->creds_match)
			v = 0;
		break;
	default:
		v = 0;
		break;
	}
	pk_pointer_string(o, v, spec, ctx);
}

/* Check the arguments of kl_pk_format(); -1 and err when one is bad. */
static int
pk_check(uint64_t v, const struct kl_pk_spec *spec, const struct kl_pk_ctx *ctx,
    struct kl_error *err)
{
	if (ctx == NULL) {
		kl_error_set(err, KL_EINVAL, 0, "no %%pK context");
		return (-1);
	}
	if (ctx->kptr_restrict < 0 || ctx->kptr_restrict > 2) {
		kl_error_set(err, KL_EINVAL, 0,
		    "kptr_restrict %d is outside the sysctl's range 0..2",
		    ctx->kptr_restrict);
		return (-1);
	}
	if (ctx->ptr_bits != 32 && ctx->ptr_bits != 64) {
		kl_error_set(err, KL_EINVAL, 0,
		    "pointers of %d bits: 32 or 64 expected", ctx->ptr_bits);
		return (-1);
	}
	if (ctx->ptr_bits == 32 && v > UINT32_MAX) {
		kl_error_set(err, KL_EINVAL, 0,
		    "0x%llx is not a 32-bit pointer", (unsigned long long)v);
		return (-1);
	}
	if (ctx->kver < 0 || ctx->kver > 0xffffff) {
		kl_error_set(err, KL_EINVAL, 0, "bad kernel version 0x%x",
		    (unsigned)ctx->kver);
		return (-1);
	}
	if (spec != NULL &&
	    (spec->field_width < -1 || spec->field_width > KL_PK_WIDTH_MAX ||
		spec->precision < -1 || spec->precision > KL_PK_PREC_MAX ||
		(spec->flags & ~PK_FLAGS) != 0)) {
		kl_error_set(err, KL_EINVAL, 0,
		    "bad printf_spec: width %d, precision %d, flags 0x%x",
		    spec->field_width, spec->precision, spec->flags);
		return (-1);
	}
	return (0);
}

/*
 * Write to buf what the kernel ctx prints for %pK of v with spec (NULL:
 * plain %pK), NUL-terminated.  Returns the length, or -1 and err when
 * an argument is out of range or buf has not room for it all.
 */
int
kl_pk_format(uint64_t v, const struct kl_pk_spec *spec,
    const struct kl_pk_ctx *ctx, char *buf, size_t size, struct kl_error *err)
{
	struct pk_out o;
	struct pk_spec s = {-1, -1, 0};

	if (pk_check(v, spec, ctx, err) == -1)
		return (-1);
	if (spec != NULL) {
		s.width = spec->field_width;
		s.prec = spec->precision;
		s.flags = spec->flags;
	}
	o.buf = buf;
	o.size = buf != NULL ? size : 0;
	o.n = 0;
	pk_restricted(&o, v, s, ctx);
	if (o.n >= o.size) {
		if (o.size > 0)
			buf[0] = '\0';
		kl_error_set(err, KL_ELIMIT, 0,
		    "%%pK output needs %zu bytes, the buffer has %zu", o.n + 1,
		    o.size);
		return (-1);
	}
	buf[o.n] = '\0';
	return ((int)o.n);
}

/* Rotate x left by b bits. */
static inline uint64_t
pk_rol64(uint64_t x, int b)
{
	return ((x << b) | (x >> (64 - b)));
}

/* A little-endian 64-bit word at p. */
static uint64_t
pk_le64(const uint8_t *p)
{
	uint64_t x = 0;
	int i;

	for (i = 7; i >= 0; i--)
		x = (x << 8) | p[i];
	return (x);
}

/* One SipRound over v[0..3]. */
static void
pk_sipround(uint64_t v[4])
{
	v[0] += v[1];
	v[1] = pk_rol64(v[1], 13);
	v[1] ^= v[0];
	v[0] = pk_rol64(v[0], 32);
	v[2] += v[3];
	v[3] = pk_rol64(v[3], 16);
	v[3] ^= v[2];
	v[0] += v[3];
	v[3] = pk_rol64(v[3], 21);
	v[3] ^= v[0];
	v[2] += v[1];
	v[1] = pk_rol64(v[1], 17);
	v[1] ^= v[2];
	v[2] = pk_rol64(v[2], 32);
}

/* Absorb one message word m: two compression rounds. */
static void
pk_sipword(uint64_t v[4], uint64_t m)
{
	v[3] ^= m;
	pk_sipround(v);
	pk_sipround(v);
	v[0] ^= m;
}

/* SipHash-2-4 of msg[0..len) under the 16-byte key. */
uint64_t
kl_pk_siphash(const void *msg, size_t len, const uint8_t *key)
{
	const uint8_t *p = msg;
	uint64_t k0 = pk_le64(key), k1 = pk_le64(key + 8), b, v[4];
	size_t i, left = len % 8;

	v[0] = k0 ^ 0x736f6d6570736575ULL;
	v[1] = k1 ^ 0x646f72616e646f6dULL;
	v[2] = k0 ^ 0x6c7967656e657261ULL;
	v[3] = k1 ^ 0x7465646279746573ULL;
	for (i = 0; i + 8 <= len; i += 8)
		pk_sipword(v, pk_le64(p + i));
	b = (uint64_t)len << 56;
	for (; left > 0; left--)
		b |= (uint64_t)p[i + left - 1] << (8 * (left - 1));
	pk_sipword(v, b);
	v[2] ^= 0xff;
	for (i = 0; i < 4; i++)
		pk_sipround(v);
	return (v[0] ^ v[1] ^ v[2] ^ v[3]);
}

/* The kernel's siphash_1u64(): SipHash-2-4 of v's 8 little-endian bytes. */
uint64_t
kl_pk_siphash_u64(uint64_t v, const uint8_t *key)
{
	uint8_t m[8];
	int i;

	for (i = 0; i < 8; i++)
		m[i] = (uint8_t)(v >> (8 * i));
	return (kl_pk_siphash(m, sizeof(m), key));
}

/* The kernel's siphash_1u32(): SipHash-2-4 of v's 4 little-endian bytes. */
uint64_t
kl_pk_siphash_u32(uint32_t v, const uint8_t *key)
{
	uint8_t m[4];
	int i;

	for (i = 0; i < 4; i++)
		m[i] = (uint8_t)(v >> (8 * i));
	return (kl_pk_siphash(m, sizeof(m), key));
}

/*
 * Write to out (17 bytes) the token current kernels print for %p of v
 * under key: 16 digits on 64-bit ("00000000" and 8 of hash), 8 on
 * 32-bit; NULL and error pointers as they are.  Returns the number of
 * digits, -1 for a bad word size, value or key.
 */
int
kl_pk_hash_digits(uint64_t v, const uint8_t *key, int ptr_bits, char *out)
{
	struct kl_pk_ctx ctx;

	if (key == NULL)
		return (-1);
	memset(&ctx, 0, sizeof(ctx));
	ctx.ptr_bits = ptr_bits;
	ctx.key = key;
	return (kl_pk_format(v, NULL, &ctx, out, 17, NULL));
}

/*
 * Turn the printed token tok[0..len), hex digits after an optional 0x
 * or 0X, into what %pK prints at kptr_restrict 2 in the same width: the
 * same number of zeros, the prefix kept.  Returns the number of digits;
 * -1, tok untouched, if it is not such a token.
 */
int
kl_pk_zero_token(char *tok, size_t len)
{
	size_t i, start = 0;

	if (tok == NULL)
		return (-1);
	if (len >= 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X'))
		start = 2;
	if (len == start || len - start > 16)
		return (-1);
	for (i = start; i < len; i++)
		if (!kl_isxdigit((uint8_t)tok[i]))
			return (-1);
	memset(tok + start, '0', len - start);
	return ((int)(len - start));
}
