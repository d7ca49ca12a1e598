/*
 * frame.c - record framing: where the kernel message starts in a line.
 *
 * Whatever stored a kernel message put a prefix in front of it: printk's
 * own "[    1.234567]" and caller id, the "<6>" of syslog(2), the
 * "6,1234,5678901,-;" header of /dev/kmsg, the decorations of util-linux
 * dmesg, the headers of syslog files (RFC 3164, RFC 3339, RFC 5424) and
 * the markers of journalctl.  None of it may be scanned as an address: a
 * timestamp is decimal, but a hostname or a sequence number can be all
 * hex digits.  kl_frame_line() finds the message start with hand-written
 * byte tests: it never allocates, never reads past the line and never
 * looks further than FRAME_WIN bytes for a prefix.  When in doubt the
 * line is plain (message at 0): scanning too much is safe, skipping a
 * real message is not.
 */
#include "config.h"

#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

/* clang-format off */
#define FRAME_WIN	128	/* bytes a prefix may span */
#define RFC5424_WIN	256	/* RFC 5424: long fields, SD-ELEMENTs */
/* longest hostname in journal short-monotonic */
#define HOST_MAX	64

/* A name and the number it stands for. */
struct fr_name {
	const char	*s;
	size_t		 len;
	int		 v;
};
#define FR_NAME(s, v) { (s), sizeof(s) - 1, (v) }

/* Syslog level names, util-linux and busybox spellings. */
static const struct fr_name fr_levels[] = {
	FR_NAME("emerg", 0), FR_NAME("panic", 0), FR_NAME("alert", 1),
	FR_NAME("crit", 2), FR_NAME("err", 3), FR_NAME("error", 3),
	FR_NAME("warn", 4), FR_NAME("warning", 4), FR_NAME("notice", 5),
	FR_NAME("info", 6), FR_NAME("debug", 7),
};

/* Syslog facility names (util-linux dmesg -x, busybox syslogd). */
static const struct fr_name fr_facs[] = {
	FR_NAME("kern", 0), FR_NAME("user", 1), FR_NAME("mail", 2),
	FR_NAME("daemon", 3), FR_NAME("auth", 4), FR_NAME("syslog", 5),
	FR_NAME("lpr", 6), FR_NAME("news", 7), FR_NAME("uucp", 8),
	FR_NAME("cron", 9), FR_NAME("authpriv", 10), FR_NAME("ftp", 11),
	FR_NAME("res0", 12), FR_NAME("res1", 13), FR_NAME("res2", 14),
	FR_NAME("res3", 15), FR_NAME("local0", 16), FR_NAME("local1", 17),
	FR_NAME("local2", 18), FR_NAME("local3", 19), FR_NAME("local4", 20),
	FR_NAME("local5", 21), FR_NAME("local6", 22), FR_NAME("local7", 23),
	FR_NAME("security", 4), FR_NAME("mark", 24),
};

static const char fr_months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
static const char fr_wdays[] = "MonTueWedThuFriSatSun";
/* clang-format on */

/* Is c an ASCII decimal digit? */
static inline int
c_digit(uint8_t c)
{
	return ((unsigned)c - '0' < 10);
}

/* Is c an ASCII lower-case letter? */
static inline int
c_lower(uint8_t c)
{
	return ((unsigned)c - 'a' < 26);
}

/* Bytes of a hostname: letters, digits, '-', '.', '_'. */
/* clang-format off */
static const uint8_t fr_hostc[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,
	0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1,
	0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
};
/* clang-format on */

/* Can c be part of a hostname? */
static inline int
c_host(uint8_t c)
{
	return (fr_hostc[c]);
}

/* Match the byte c at b[*ip] and step over it. */
static inline int
fr_ch(const uint8_t *b, size_t n, size_t *ip, uint8_t c)
{
	if (*ip < n && b[*ip] == c) {
		(*ip)++;
		return (1);
	}
	return (0);
}

/* Step over spaces at b[*ip]. */
static inline void
fr_spaces(const uint8_t *b, size_t n, size_t *ip)
{
	while (*ip < n && b[*ip] == ' ')
		(*ip)++;
}

/* Read at most max (<= 19) decimal digits; returns how many. */
static inline size_t
fr_num(const uint8_t *b, size_t n, size_t *ip, size_t max, uint64_t *vp)
{
	size_t i = *ip, e = n - i > max ? i + max : n;
	uint64_t v = 0;

	while (i < e && c_digit(b[i]))
		v = v * 10 + (b[i++] - '0');
	e = i - *ip;
	*ip = i;
	if (vp != NULL)
		*vp = v;
	return (e);
}

/* Read a decimal number of up to 20 digits, saturating at UINT64_MAX. */
static size_t
fr_num64(const uint8_t *b, size_t n, size_t *ip, uint64_t *vp)
{
	size_t i = *ip, k;
	uint64_t v;

	k = fr_num(b, n, &i, 19, &v);
	if (k == 19 && i < n && c_digit(b[i])) {
		v = v <= (UINT64_MAX - (b[i] - '0')) / 10
		    ? v * 10 + (b[i] - '0')
		    : UINT64_MAX;
		i++;
		k++;
	}
	*ip = i;
	*vp = v;
	return (k);
}

/* Match exactly k digits at b[*ip]. */
static inline int
fr_digits(const uint8_t *b, size_t n, size_t *ip, size_t k)
{
	size_t i = *ip, j;

	if (n - i < k)
		return (0);
	for (j = 0; j < k; j++)
		if (!c_digit(b[i + j]))
			return (0);
	*ip = i + k;
	return (1);
}

/* Look a name of k bytes up in a table; returns its value or -1. */
static int
fr_lookup(const struct fr_name *t, size_t nt, const uint8_t *s, size_t k)
{
	size_t j;

	for (j = 0; j < nt; j++)
		if (t[j].len == k && memcmp(t[j].s, s, k) == 0)
			return (t[j].v);
	return (-1);
}

/* Match one of the three-letter names in tab (e.g. a month) at b[*ip]. */
static int
fr_abbr(const uint8_t *b, size_t n, size_t *ip, const char *tab)
{
	size_t i = *ip;

	if (n - i < 3)
		return (0);
	for (; *tab != '\0'; tab += 3) {
		if (b[i] == (uint8_t)tab[0] && b[i + 1] == (uint8_t)tab[1] &&
		    b[i + 2] == (uint8_t)tab[2]) {
			*ip = i + 3;
			return (1);
		}
	}
	return (0);
}

/* Match a clock time "03:04:05" at b[*ip]. */
static int
fr_clock(const uint8_t *b, size_t n, size_t *ip)
{
	size_t i = *ip;

	if (!fr_digits(b, n, &i, 2) || !fr_ch(b, n, &i, ':') ||
	    !fr_digits(b, n, &i, 2) || !fr_ch(b, n, &i, ':') ||
	    !fr_digits(b, n, &i, 2))
		return (0);
	*ip = i;
	return (1);
}

/* Match a day of the month, " 2", "02" or "12", at b[*ip]. */
static int
fr_mday(const uint8_t *b, size_t n, size_t *ip)
{
	size_t i = *ip;

	if (fr_ch(b, n, &i, ' ')) {
		if (!fr_digits(b, n, &i, 1))
			return (0);
	} else if (fr_num(b, n, &i, 2, NULL) == 0)
		return (0);
	*ip = i;
	return (1);
}

/* The 8 bytes at p as a number, p[0] in the low byte, on any host. */
static inline uint64_t
fr_load8(const uint8_t *p)
{
	uint64_t x = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&x, p, 8);
#else
	int i;

	for (i = 7; i >= 0; i--)
		x = x << 8 | p[i];
#endif
	return (x);
}

/* How many of the low bytes of x are zero (8 if all). */
static inline size_t
fr_zero_bytes(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return (x == 0 ? 8 : (size_t)__builtin_ctzll(x) / 8);
#else
	size_t k;

	for (k = 0; k < 8 && (x & 0xff) == 0; k++)
		x >>= 8;
	return (k);
#endif
}

/* Are the bytes of x that m selects (0xff each) all ASCII digits? */
static inline int
fr_swar_digits(uint64_t x, uint64_t m)
{
	uint64_t hi = UINT64_C(0xf0f0f0f0f0f0f0f0) & m;
	uint64_t th = UINT64_C(0x3030303030303030) & m;

	/* 0x30-0x3f, then no carry: + 6 keeps 0x30-0x39 below 0x40. */
	return ((x & hi) == th &&
	    ((x + (UINT64_C(0x0606060606060606) & m)) & hi) == th);
}

/*
 * The value of eight decimal digits, x's low byte the most significant;
 * only the low nibble of each byte counts (a zero byte or a space is 0).
 */
static inline uint64_t
fr_swar_dec8(uint64_t x)
{
	x = ((x & UINT64_C(0x0f0f0f0f0f0f0f0f)) * 2561) >> 8;
	x = ((x & UINT64_C(0x00ff00ff00ff00ff)) * 6553601) >> 16;
	return (((x & UINT64_C(0x0000ffff0000ffff)) *
	    UINT64_C(42949672960001)) >> 32);
}

/*
 * The common printk time "[%5lu.%06lu]" with at most five digits of
 * seconds, eight bytes at a time: the same result as the general loops
 * of fr_brtime() for that shape, which takes everything else.
 */
static inline int
fr_brtime_fast(const uint8_t *b, size_t n, size_t *ip, int *hasp,
    uint64_t *usp)
{
	const uint8_t *p = b + *ip;
	uint64_t lo, hi;
	size_t j;

	if (n - *ip < 14 || p[0] != '[' || p[6] != '.' || p[13] != ']')
		return (0);
	lo = fr_load8(p);	/* "[sssss.u": digits from p[j] to p[5] */
	hi = fr_load8(p + 6);	/* ".uuuuuu]" */
	j = 1 + fr_zero_bytes((lo ^ UINT64_C(0x2020202020202020)) >> 8);
	if (j >= 6)
		return (0);
	if (!fr_swar_digits(lo, (~UINT64_C(0) << (8 * j)) &
	    UINT64_C(0x0000ffffffffffff)) ||
	    !fr_swar_digits(hi, UINT64_C(0x00ffffffffffff00)))
		return (0);
	/* Shifted so that the last digit is the top byte, the rest zeroed. */
	*hasp = 1;
	*usp = fr_swar_dec8((lo << 16) & UINT64_C(0xffffffffff000000)) *
	    1000000 + fr_swar_dec8((hi << 8) & UINT64_C(0xffffffffffff0000));
	*ip += 14;
	return (1);
}

/*
 * Match a printk time "[%5lu.%06lu]" at b[*ip].  Also takes the dmesg
 * forms "[    1.234567 <    0.000123>]" (-d) and "[  +0.000123]"
 * (reltime, delta), which are not a kernel clock: they leave *hasp alone.
 */
static int
fr_brtime(const uint8_t *b, size_t n, size_t *ip, int *hasp, uint64_t *usp)
{
	size_t i = *ip, k;
	uint64_t s, us;
	int rel;

	if (fr_brtime_fast(b, n, ip, hasp, usp))
		return (1);
	if (!fr_ch(b, n, &i, '['))
		return (0);
	fr_spaces(b, n, &i);
	rel = fr_ch(b, n, &i, '+');
	if (fr_num(b, n, &i, 12, &s) == 0 || !fr_ch(b, n, &i, '.'))
		return (0);
	if ((k = fr_num(b, n, &i, 9, &us)) == 0)
		return (0);
	for (; k < 6; k++)
		us *= 10;
	for (; k > 6; k--)
		us /= 10;
	/* A CPU after the time: Amlogic "@0", Qualcomm ",0". */
	if (i + 1 < n && (b[i] == '@' || b[i] == ',') && c_digit(b[i + 1])) {
		i++;
		fr_num(b, n, &i, 4, NULL);
	}
	if (i + 1 < n && b[i] == ' ' && b[i + 1] == '<') {
		i += 2;
		fr_spaces(b, n, &i);
		if (fr_num(b, n, &i, 12, NULL) == 0 || !fr_ch(b, n, &i, '.') ||
		    fr_num(b, n, &i, 9, NULL) == 0 || !fr_ch(b, n, &i, '>'))
			return (0);
	}
	if (!fr_ch(b, n, &i, ']'))
		return (0);
	if (!rel) {
		*hasp = 1;
		*usp = s * 1000000 + us;
	}
	*ip = i;
	return (1);
}

/* Match a dmesg -T time "[Mon Jan  2 03:04:05 2024]" at b[*ip]. */
static int
fr_brctime(const uint8_t *b, size_t n, size_t *ip)
{
	size_t i = *ip;

	if (!fr_ch(b, n, &i, '[') || !fr_abbr(b, n, &i, fr_wdays) ||
	    !fr_ch(b, n, &i, ' ') || !fr_abbr(b, n, &i, fr_months) ||
	    !fr_ch(b, n, &i, ' ') || !fr_mday(b, n, &i) ||
	    !fr_ch(b, n, &i, ' ') || !fr_clock(b, n, &i) ||
	    !fr_ch(b, n, &i, ' ') || !fr_digits(b, n, &i, 4) ||
	    !fr_ch(b, n, &i, ']'))
		return (0);
	*ip = i;
	return (1);
}

/* Match a caller id "T123" or "C0" at b[*ip]. */
static int
fr_callid(const uint8_t *b, size_t n, size_t *ip)
{
	size_t i = *ip;

	if (i >= n || (b[i] != 'T' && b[i] != 'C'))
		return (0);
	i++;
	if (fr_num(b, n, &i, 10, NULL) == 0)
		return (0);
	*ip = i;
	return (1);
}

/*
 * Match a printk caller id "[  T123]", "[    C0]" at b[*ip]; vendor
 * trees also print "[T123@C0]" and "[T123:C0]".
 */
static int
fr_brcaller(const uint8_t *b, size_t n, size_t *ip)
{
	size_t i = *ip, j;

	if (!fr_ch(b, n, &i, '['))
		return (0);
	fr_spaces(b, n, &i);
	if (!fr_callid(b, n, &i))
		return (0);
	if (i < n && (b[i] == '@' || b[i] == ':')) {
		j = i + 1;
		if (!fr_callid(b, n, &j))
			return (0);
		i = j;
	}
	if (!fr_ch(b, n, &i, ']'))
		return (0);
	*ip = i;
	return (1);
}

/*
 * The rest of a printk prefix from b[i], after a time (t: 1 a printk
 * time, 2 a dmesg -T one, 0 none): a caller id, then one space.
 * Sets *ip past it; *plainp as fr_dmesg().
 */
static int
fr_dmesg_tail(const uint8_t *b, size_t n, size_t i, int t, size_t *ip,
    const struct kl_frame *f, int *plainp)
{
	int c;

	c = fr_brcaller(b, n, &i);
	if (!t && !c)
		return (0);
	if (plainp != NULL)
		*plainp = t == 1 && !c && f->has_ts && i < n && b[i] == ' ';
	fr_ch(b, n, &i, ' ');
	*ip = i;
	return (1);
}

/*
 * Match the printk prefix at b[*ip]: a time, a caller id or both, then
 * one space.  *plainp says it was a bare "[sec.usec] " (no caller, no
 * util-linux decoration), the only shape journalctl writes.
 */
static int
fr_dmesg(
    const uint8_t *b, size_t n, size_t *ip, struct kl_frame *f, int *plainp)
{
	size_t i = *ip;
	int t;

	/*
	 * What may follow the '[' of each: fr_brtime() spaces, '+' or a
	 * digit, fr_brctime() a weekday, fr_brcaller() spaces, 'T' or 'C'.
	 * Most brackets in a message ("[drm]", "[mem ", "[<") are none.
	 */
	if (n - i < 2 || b[i] != '[' || !(c_digit(b[i + 1]) ||
	    b[i + 1] == ' ' || b[i + 1] == '+' || b[i + 1] == 'T' ||
	    b[i + 1] == 'C' || b[i + 1] == 'M' || b[i + 1] == 'W' ||
	    b[i + 1] == 'F' || b[i + 1] == 'S'))
		return (0);
	t = fr_brtime(b, n, &i, &f->has_ts, &f->ts_us);
	if (!t)
		t = fr_brctime(b, n, &i) ? 2 : 0;
	return (fr_dmesg_tail(b, n, i, t, ip, f, plainp));
}

/*
 * journalctl -o short-monotonic writes "[    1.234567] host kernel: msg".
 * Step over "host kernel: " or "host ident[pid]: " at b[i]: shapes a
 * kernel message does not start with ("usb 1-1: ", "systemd[1]: ").
 */
static size_t
fr_jmono(const uint8_t *b, size_t n, size_t i)
{
	size_t h = i, j;

	while (i < n && c_host(b[i]))
		i++;
	if (i == h || i - h > HOST_MAX || !fr_ch(b, n, &i, ' '))
		return (h);
	if (kl_startswith(b + i, n - i, KL_LIT("kernel:")))
		i += sizeof("kernel:") - 1;
	else {
		j = i;
		while (i < n && b[i] != '[' && b[i] != ' ' && b[i] != ':')
			i++;
		if (i == j || !fr_ch(b, n, &i, '[') ||
		    fr_num(b, n, &i, 10, NULL) == 0 || !fr_ch(b, n, &i, ']') ||
		    !fr_ch(b, n, &i, ':'))
			return (h);
	}
	if (!fr_ch(b, n, &i, ' '))
		return (h);
	return (i);
}

/* Match an RFC 3164 time "Jan  2 03:04:05" (or "Jan 02", ".123456"). */
static int
fr_ts3164(const uint8_t *b, size_t n, size_t *ip)
{
	size_t i = *ip;

	if (!fr_abbr(b, n, &i, fr_months) || !fr_ch(b, n, &i, ' ') ||
	    !fr_mday(b, n, &i) || !fr_ch(b, n, &i, ' ') || !fr_clock(b, n, &i))
		return (0);
	if (i + 1 < n && b[i] == '.' && c_digit(b[i + 1])) {
		i++;
		fr_num(b, n, &i, 9, NULL);
	}
	*ip = i;
	return (1);
}

/*
 * Match an ISO 8601 time "2024-01-02T03:04:05" with an optional fraction
 * (',' sets *commap: util-linux writes it, rsyslog writes '.') and an
 * optional zone "Z", "+00:00" or "+0000".
 */
static int
fr_tsiso(const uint8_t *b, size_t n, size_t *ip, int *commap)
{
	size_t i = *ip, j;

	if (!fr_digits(b, n, &i, 4) || !fr_ch(b, n, &i, '-') ||
	    !fr_digits(b, n, &i, 2) || !fr_ch(b, n, &i, '-') ||
	    !fr_digits(b, n, &i, 2) || !fr_ch(b, n, &i, 'T') ||
	    !fr_clock(b, n, &i))
		return (0);
	*commap = 0;
	if (i + 1 < n && (b[i] == '.' || b[i] == ',') && c_digit(b[i + 1])) {
		*commap = b[i] == ',';
		i++;
		fr_num(b, n, &i, 9, NULL);
	}
	if (!fr_ch(b, n, &i, 'Z') && i < n && (b[i] == '+' || b[i] == '-')) {
		j = i + 1;
		if (!fr_digits(b, n, &j, 2))
			return (0);
		fr_ch(b, n, &j, ':');
		if (!fr_digits(b, n, &j, 2))
			return (0);
		i = j;
	}
	*ip = i;
	return (1);
}

/*
 * Step over a printk time (and caller id) that a syslog daemon kept at
 * the start of the message, as rsyslog's imklog does: "kernel: [ 1.2] ".
 */
static void
fr_kernts(const uint8_t *b, size_t n, struct kl_frame *f)
{
	size_t i = f->msg;

	if (i < n && b[i] == '[' && fr_dmesg(b, n, &i, f, NULL))
		f->msg = i;
}

/*
 * A per-CPU tag of a vendor printk at b[*ip]: "c1 " or "[c1] " (Android
 * kernels, with an optional pid column: "c3   1234 "), MediaTek's
 * "(1)[123:comm]", Samsung's "[0:      swapper:    0] ".  Steps over it
 * and the blanks after it.
 */
static int
fr_cputag(const uint8_t *b, size_t n, size_t *ip)
{
	size_t i = *ip, j;
	int br = 0;

	if (i < n && b[i] == '(') {
		/* "(1)[123:kworker/1:2]" */
		i++;
		if (fr_num(b, n, &i, 3, NULL) == 0 || !fr_ch(b, n, &i, ')') ||
		    !fr_ch(b, n, &i, '['))
			return (0);
		if (fr_num(b, n, &i, 7, NULL) == 0 || !fr_ch(b, n, &i, ':'))
			return (0);
		for (j = i; i < n && i - j < 64 && b[i] != ']'; i++)
			;
		if (!fr_ch(b, n, &i, ']'))
			return (0);
	} else {
		br = fr_ch(b, n, &i, '[');
		if (br && c_digit(b[i < n ? i : 0]) && i < n) {
			/* "[0:      swapper:    0]" */
			if (fr_num(b, n, &i, 3, NULL) == 0 ||
			    !fr_ch(b, n, &i, ':'))
				return (0);
			for (j = i; i < n && i - j < 64 && b[i] != ']'; i++)
				;
			if (!fr_ch(b, n, &i, ']'))
				return (0);
		} else {
			if (!fr_ch(b, n, &i, 'c') ||
			    fr_num(b, n, &i, 3, NULL) == 0)
				return (0);
			if (br && !fr_ch(b, n, &i, ']'))
				return (0);
			if (i >= n || b[i] != ' ')
				return (0);
			/* an optional pid column */
			j = i;
			fr_spaces(b, n, &j);
			if (j < n && c_digit(b[j])) {
				size_t k = j;

				fr_num(b, n, &k, 7, NULL);
				if (k < n && b[k] == ' ')
					i = k;
			}
		}
	}
	fr_spaces(b, n, &i);
	*ip = i;
	return (1);
}

/*
 * What stands between a framed prefix and the message in vendor logs
 * and pastes: a second printk time (a log shipped twice, dmesg -T on top
 * of a raw time), a caller id, a per-CPU tag (fr_cputag()).  At most a
 * few, each stepped over with its blanks; the first time stays the line's.
 */
static void
fr_tags(const uint8_t *b, size_t n, struct kl_frame *f)
{
	struct kl_frame dummy;
	size_t i = f->msg, j;
	int k;

	for (k = 0; k < 3 && i < n; k++) {
		/* Most messages start with none of these bytes. */
		if (b[i] != '[' && b[i] != '(' &&
		    (b[i] != 'c' || i + 1 >= n || !c_digit(b[i + 1])))
			break;
		j = i;
		dummy.has_ts = 0;
		if (b[j] == '[' && fr_dmesg(b, n, &j, &dummy, NULL) && j > i) {
			fr_spaces(b, n, &j);
			i = j;
		} else if (fr_cputag(b, n, &j))
			i = j;
		else
			break;
	}
	f->msg = i;
}

/*
 * How far a paste's decorations reach into b[0..n): indentation (a
 * Markdown code block), a line number ("  123 | ", "123: ", "123\t"),
 * inline backticks.  0 when there are none.
 */
static size_t
fr_paste(const uint8_t *b, size_t n, int *numbered)
{
	size_t i = 0, j;

	*numbered = 0;
	while (i < n && i < 16 && (b[i] == ' ' || b[i] == '\t'))
		i++;
	j = i;
	if (fr_num(b, n, &j, 7, NULL) > 0) {
		if (j < n && b[j] == '\t') {
			i = j + 1;
			*numbered = 1;
		} else {
			fr_spaces(b, n, &j);
			if (j + 1 < n && (b[j] == '|' || b[j] == ':') &&
			    b[j + 1] == ' ') {
				i = j + 2;
				*numbered = 1;
			}
		}
	}
	while (i < n && i < 24 && (b[i] == ' ' || b[i] == '`'))
		i++;
	return (i < n ? i : 0);
}

/*
 * Frame the rest of a syslog line from b[i], after its time:
 * "host tag[pid]: msg".  The message starts after the tag; with no tag,
 * after the host, so that a hostname is never scanned.  A busybox
 * "kern.info" priority between the host and the tag gives the level.
 * len is the whole line: a header cut by the window n scans from the
 * field that was cut.
 */
static void
fr_syslog(const uint8_t *b, size_t n, size_t len, size_t i, struct kl_frame *f)
{
	size_t h = i, t, d;
	int lv;

	f->kind = KL_LINE_SYSLOG;
	while (i < n && b[i] != ' ')
		i++;
	if (i == n) {
		f->msg = n == len ? n : h;
		return;
	}
	if (i > h && b[i - 1] == ':') {
		/* No hostname: "Jan  2 03:04:05 kernel: msg". */
		f->msg = i + 1;
		fr_kernts(b, n, f);
		return;
	}
	t = ++i;
	/* busybox syslogd: "host kern.info kernel: msg". */
	while (i < n && (c_lower(b[i]) || c_digit(b[i])))
		i++;
	if (i > t && i < n && b[i] == '.' &&
	    fr_lookup(fr_facs, sizeof(fr_facs) / sizeof(fr_facs[0]), b + t,
		i - t) >= 0) {
		d = ++i;
		while (i < n && c_lower(b[i]))
			i++;
		lv = fr_lookup(fr_levels,
		    sizeof(fr_levels) / sizeof(fr_levels[0]), b + d, i - d);
		if (lv >= 0 && i < n && b[i] == ' ') {
			f->level = lv;
			t = ++i;
		}
	}
	i = t;
	while (i < n && b[i] != ' ')
		i++;
	if (i > t && b[i - 1] == ':' && (i < n || n == len)) {
		f->msg = i;
		fr_ch(b, n, &f->msg, ' ');
		fr_kernts(b, n, f);
	} else
		f->msg = t;
}

/*
 * Frame an RFC 5424 line from b[i], just after "<PRI>1 ":
 * "TIMESTAMP HOSTNAME APP-NAME PROCID MSGID SD [BOM]MSG".  Returns 0
 * when the time is not one, so the line is something else.  Past the
 * time, a field that does not parse (or is cut by the window) is where
 * scanning starts.
 */
static int
fr_rfc5424(const uint8_t *b, size_t n, size_t len, size_t i, struct kl_frame *f)
{
	size_t k, sd;
	int comma, q;

	if (!fr_ch(b, n, &i, '-') && !fr_tsiso(b, n, &i, &comma))
		return (0);
	if (!fr_ch(b, n, &i, ' '))
		return (0);
	f->kind = KL_LINE_RFC5424;
	/* HOSTNAME, APP-NAME, PROCID, MSGID: PRINTUSASCII runs. */
	for (k = 0; k < 4; k++) {
		sd = i;
		while (i < n && b[i] > ' ' && b[i] < 0x7f)
			i++;
		if (i == sd || !fr_ch(b, n, &i, ' ')) {
			f->msg = sd;
			return (1);
		}
	}
	sd = i;
	if (!fr_ch(b, n, &i, '-')) {
		if (i >= n || b[i] != '[') {
			f->msg = sd;
			return (1);
		}
		/* SD-ELEMENTs: '"', '\' and ']' are escaped in values. */
		while (i < n && b[i] == '[') {
			for (q = 0, i++; i < n; i++) {
				if (q && b[i] == '\\')
					i++;
				else if (b[i] == '"')
					q = !q;
				else if (!q && b[i] == ']')
					break;
			}
			if (i >= n) {
				f->msg = sd;
				return (1);
			}
			i++;
		}
	}
	if (i == n) {
		f->msg = n == len ? n : sd;
		return (1);
	}
	if (!fr_ch(b, n, &i, ' ')) {
		f->msg = sd;
		return (1);
	}
	if (n - i >= 3 && b[i] == 0xef && b[i + 1] == 0xbb && b[i + 2] == 0xbf)
		i += 3;
	f->msg = i;
	fr_kernts(b, n, f);
	return (1);
}

/*
 * Frame a line that starts with "<N>": dmesg -r, the RFC 3164 wire form,
 * RFC 5424, or a bare syslog(2) level.  The level is N & 7.
 */
static void
fr_pri(const uint8_t *b, size_t n, size_t len, struct kl_frame *f)
{
	size_t i = 1, j;
	uint64_t pri;
	int comma;

	if (fr_num(b, n, &i, 3, &pri) == 0 || !fr_ch(b, n, &i, '>'))
		return;
	f->level = (int)(pri & 7);
	j = i;
	if (i + 1 < n && b[i] == '1' && b[i + 1] == ' ' &&
	    fr_rfc5424(b, len < RFC5424_WIN ? len : RFC5424_WIN, len, i + 2, f))
		return;
	if ((fr_ts3164(b, n, &j) || fr_tsiso(b, n, &j, &comma)) &&
	    fr_ch(b, n, &j, ' ')) {
		fr_syslog(b, n, len, j, f);
		return;
	}
	f->kind = KL_LINE_DMESG_RAW;
	f->msg = i;
	if (i < n && b[i] == '[')
		fr_kernts(b, n, f);
}

/*
 * Frame a /dev/kmsg record "prio,seq,usec,flags[,caller=T1][,...];msg".
 * Fields after the flags are ignored, as the ABI asks.
 */
static int
fr_kmsg(const uint8_t *b, size_t n, struct kl_frame *f)
{
	size_t i = 0, j;
	uint64_t pri, seq, us;

	if (fr_num(b, n, &i, 4, &pri) == 0 || !fr_ch(b, n, &i, ',') ||
	    fr_num64(b, n, &i, &seq) == 0 || !fr_ch(b, n, &i, ',') ||
	    fr_num64(b, n, &i, &us) == 0 || !fr_ch(b, n, &i, ','))
		return (0);
	for (j = i; i < n && b[i] != ';'; i++)
		continue;
	if (i == j || i >= n)
		return (0);
	f->kind = KL_LINE_KMSG;
	f->msg = i + 1;
	f->level = (int)(pri & 7);
	f->has_ts = 1;
	f->ts_us = us;
	return (1);
}

/* Frame a dmesg -x line "kern  :info  : [    1.234567] msg". */
static int
fr_dmesgx(const uint8_t *b, size_t n, struct kl_frame *f)
{
	size_t i = 0, j;
	int lv;

	while (i < n && (c_lower(b[i]) || c_digit(b[i])))
		i++;
	if (fr_lookup(fr_facs, sizeof(fr_facs) / sizeof(fr_facs[0]), b, i) < 0)
		return (0);
	fr_spaces(b, n, &i);
	if (!fr_ch(b, n, &i, ':'))
		return (0);
	j = i;
	while (i < n && c_lower(b[i]))
		i++;
	lv = fr_lookup(
	    fr_levels, sizeof(fr_levels) / sizeof(fr_levels[0]), b + j, i - j);
	if (lv < 0)
		return (0);
	fr_spaces(b, n, &i);
	if (!fr_ch(b, n, &i, ':') || !fr_ch(b, n, &i, ' '))
		return (0);
	f->kind = KL_LINE_DMESG;
	f->level = lv;
	f->msg = i;
	fr_kernts(b, n, f);
	return (1);
}

/*
 * Frame a journalctl marker: "-- Boot 0123abcd... --", "-- Reboot --",
 * "-- Logs begin at ... --".  Nothing in it is scanned: a boot id is 32
 * hex digits.
 */
static int
fr_mark(const uint8_t *b, size_t len, struct kl_frame *f)
{
	if (len < 7 || len > FRAME_WIN || b[1] != '-' || b[2] != ' ' ||
	    b[len - 3] != ' ' || b[len - 2] != '-' || b[len - 1] != '-')
		return (0);
	f->kind = KL_LINE_JOURNAL_MARK;
	f->msg = len;
	f->boot = kl_startswith(b, len, KL_LIT("-- Boot ")) ||
	    (len == sizeof("-- Reboot --") - 1 &&
		kl_startswith(b, len, KL_LIT("-- Reboot --")));
	return (1);
}

/* Frame a line starting with a digit: kmsg, dmesg iso, RFC 3339 syslog. */
static void
fr_digit(const uint8_t *b, size_t n, size_t len, struct kl_frame *f)
{
	size_t i = 0;
	int comma;

	if (fr_kmsg(b, n, f))
		return;
	if (!fr_tsiso(b, n, &i, &comma) || !fr_ch(b, n, &i, ' '))
		return;
	if (comma) {
		/* dmesg --time-format iso: the message follows. */
		f->kind = KL_LINE_DMESG;
		f->msg = i;
	} else
		fr_syslog(b, n, len, i, f);
}

/*
 * A plain line may hold a banner behind junk the framing does not take
 * (console escapes, a mail quote): "...\e[2J[    0.000000] Linux version".
 */
static int
fr_banner(const uint8_t *b, size_t n)
{
	const uint8_t *p = b, *e = b + n;

	while ((p = memchr(p, ']', (size_t)(e - p))) != NULL) {
		p++;
		if (kl_startswith(
			p, (size_t)(e - p), KL_LIT(" Linux version ")))
			return (1);
	}
	return (0);
}

/* Frame b[0..len), len > 0, by the shape its first bytes have. */
static void
fr_kind(const uint8_t *b, size_t len, enum kl_line_kind prev,
    enum kl_format format, struct kl_frame *f)
{
	size_t n = len < FRAME_WIN ? len : FRAME_WIN, i;
	int plain, ok;

	if (b[0] == ' ' &&
	    (prev == KL_LINE_KMSG || prev == KL_LINE_KMSG_CONT)) {
		f->kind = KL_LINE_KMSG_CONT;
		f->msg = 1;
		return;
	}
	if (format == KL_FORMAT_KMSG) {
		fr_kmsg(b, n, f);
		return;
	}
	if (b[0] == '[') {
		/*
		 * Most lines: "[    1.234567] msg", as fr_dmesg() takes it,
		 * or a caller id after such a time.
		 */
		i = 0;
		if (!fr_brtime_fast(b, n, &i, &f->has_ts, &f->ts_us))
			ok = fr_dmesg(b, n, &f->msg, f, &plain);
		else if (i < n && b[i] == ' ') {
			f->msg = i + 1;
			ok = plain = 1;
		} else
			ok = fr_dmesg_tail(b, n, i, 1, &f->msg, f, &plain);
		if (ok) {
			f->kind = KL_LINE_DMESG;
			if (plain)
				f->msg = fr_jmono(b, n, f->msg);
		}
	} else if (b[0] == '<')
		fr_pri(b, n, len, f);
	else if (c_digit(b[0]))
		fr_digit(b, n, len, f);
	else if (b[0] >= 'A' && b[0] <= 'Z') {
		if (fr_ts3164(b, n, &f->msg) && fr_ch(b, n, &f->msg, ' '))
			fr_syslog(b, n, len, f->msg, f);
	} else if (c_lower(b[0]))
		fr_dmesgx(b, n, f);
	else if (b[0] == '-')
		fr_mark(b, len, f);
}

/*
 * Does kl_frame_line() read every line the same after a line of kind a
 * as after one of kind b?  It reads prev only to take a line that starts
 * with a space as a kmsg continuation.
 */
int
kl_frame_prev_same(enum kl_line_kind a, enum kl_line_kind b)
{
	return ((a == KL_LINE_KMSG || a == KL_LINE_KMSG_CONT) ==
	    (b == KL_LINE_KMSG || b == KL_LINE_KMSG_CONT));
}

/*
 * printk's own prefix, "[%5lu.%06lu] " alone or with the caller id
 * "[%6s] " of CONFIG_PRINTK_CALLER: the prefix of most lines.  What
 * fr_kind()'s '[' case and kl_frame_line() make of such a line, without
 * the tests for the other prefixes; 0 for any other line, which the
 * general path frames (test-frame's t_printk_same checks both agree).
 */
static inline int
fr_printk(const uint8_t *b, size_t len, struct kl_frame *f)
{
	size_t n = len < FRAME_WIN ? len : FRAME_WIN, i = 0;
	int plain;

	if (n < 15 || b[0] != '[' || (b[14] != ' ' && b[14] != '[') ||
	    !fr_brtime_fast(b, n, &i, &f->has_ts, &f->ts_us))
		return (0);
	if (b[14] == ' ') {
		f->msg = 15;
		plain = 1;
	} else
		(void)fr_dmesg_tail(b, n, 14, 1, &f->msg, f, &plain);
	f->kind = KL_LINE_DMESG;
	if (plain)
		f->msg = fr_jmono(b, n, f->msg);
	fr_tags(b, n, f);
	if (kl_startswith(b + f->msg, len - f->msg, KL_LIT("Linux version ")))
		f->boot = 1;
	return (1);
}

/* kl_frame_line(); fast: printk's prefix first (fr_printk()). */
static void
frame(const uint8_t *line, size_t len, enum kl_line_kind prev,
    enum kl_format format, struct kl_frame *f, int fast)
{
	const uint8_t *b = line;
	size_t o = 0, p;
	int num;

	f->kind = KL_LINE_PLAIN;
	f->msg = 0;
	f->level = -1;
	f->has_ts = 0;
	f->ts_us = 0;
	f->boot = 0;
	if (line == NULL || len == 0)
		return;
	if (b[len - 1] == '\r')
		len--;
	if (fast && format != KL_FORMAT_KMSG && fr_printk(b, len, f))
		return;
	/* A UTF-8 BOM at the start of a file. */
	if (len >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf) {
		o = 3;
		b += o;
		len -= o;
	}
	if (len > 0)
		fr_kind(b, len, prev, format, f);
	/*
	 * A paste's decorations before a prefix: frame what follows.  A
	 * numbered line that frames as nothing else starts after its number.
	 */
	num = 0;
	if (f->kind == KL_LINE_PLAIN && format != KL_FORMAT_KMSG &&
	    (p = fr_paste(b, len, &num)) > 0) {
		fr_kind(b + p, len - p, prev, format, f);
		if (f->kind != KL_LINE_PLAIN || num) {
			o += p;
			b += p;
			len -= p;
		}
	}
	if (f->kind == KL_LINE_PLAIN) {
		/* Whatever a failed match left there. */
		f->msg = num ? o : 0;
		f->level = -1;
		f->has_ts = 0;
		f->ts_us = 0;
		f->boot = kl_startswith(b, len, KL_LIT("Linux version ")) ||
		    fr_banner(b, len < FRAME_WIN ? len : FRAME_WIN);
		return;
	}
	if (f->kind != KL_LINE_JOURNAL_MARK && f->kind != KL_LINE_KMSG &&
	    f->kind != KL_LINE_KMSG_CONT)
		fr_tags(b, len < FRAME_WIN ? len : FRAME_WIN, f);
	if (f->kind != KL_LINE_JOURNAL_MARK &&
	    kl_startswith(b + f->msg, len - f->msg, KL_LIT("Linux version ")))
		f->boot = 1;
	f->msg += o;
}

/*
 * Frame one line (without its '\n'): fill f with the line kind, the
 * offset of the message, the level, the kernel time and the boot mark.
 * prev is the kind of the line before (for kmsg continuation lines).
 */
void
kl_frame_line(const uint8_t *line, size_t len, enum kl_line_kind prev,
    enum kl_format format, struct kl_frame *f)
{
	frame(line, len, prev, format, f, 1);
}

/* kl_frame_line() without fr_printk(): what it must equal, for tests. */
void
kl_frame_line_all(const uint8_t *line, size_t len, enum kl_line_kind prev,
    enum kl_format format, struct kl_frame *f)
{
	frame(line, len, prev, format, f, 0);
}
