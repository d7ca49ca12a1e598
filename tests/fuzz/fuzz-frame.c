/*
 * fuzz-frame.c - libFuzzer harness for record framing and escaping.
 *
 * The input is split into lines; each line is copied into a buffer of
 * its exact size (so that reading past it is caught by ASan) and framed
 * twice, as text and as /dev/kmsg, each chain carrying the kind of the
 * line before, and again without fr_printk() (printk's prefix first),
 * which must agree.  Every line, and every message span, is then escaped
 * for a terminal and for JSON and encoded in base64, and fed to --arch
 * auto's detection with and without detect_may(), which must agree.  A
 * broken invariant aborts.
 *
 * Seeds (corpus/frame/, one file per format): dmesg, dmesg-raw,
 * dmesg-caller, syslog and console hold lines of ../shared/corpus
 * (qemu/x86_64-6.1.0-57-amd64-boot1/dmesg.log and console.log,
 * boot/tf201log__dmesg.txt, syzkaller/report/472 and 694,
 * loghub/loghub__Linux_Linux_2k.log), mail-quoted of
 * mail/linux-s390/70be25cdbe6f3e13c17cc571389e27bd29301b5c.eml; kmsg,
 * rfc5424, dmesg-x, dmesg-time, journal and syslog-hex follow the
 * examples of the documents that define those formats.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

#define MSG_MAX	(256 + 3)	/* RFC 5424 window, after a BOM */

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Abort unless c holds. */
static void
check(int c)
{
	if (!c)
		abort();
}

/* Are two frames the same? */
static int
same(const struct kl_frame *f, const struct kl_frame *g)
{
	return (f->kind == g->kind && f->msg == g->msg &&
	    f->level == g->level && f->has_ts == g->has_ts &&
	    f->ts_us == g->ts_us && f->boot == g->boot);
}

/* Frame one line and check the frame. */
static void
frame(const uint8_t *b, size_t n, enum kl_line_kind *prev,
    enum kl_format format)
{
	struct kl_frame f, g;
	uint8_t *cr;

	kl_frame_line(b, n, *prev, format, &f);
	check(f.kind >= KL_LINE_PLAIN && f.kind <= KL_LINE_JOURNAL_MARK);
	check(f.msg <= n);
	check(f.msg <= MSG_MAX);
	check(f.level >= -1 && f.level <= 7);
	check(f.has_ts == 0 || f.has_ts == 1);
	check(f.has_ts || f.ts_us == 0);
	check(f.boot == 0 || f.boot == 1);
	/*
	 * A plain line starts at 0, or after a paste's line number
	 * ("51: ", "  7\t"): blanks, a BOM, 7 digits and a mark, at most.
	 */
	if (f.kind == KL_LINE_PLAIN)
		check(f.msg <= 3 + 24 && f.level == -1 && !f.has_ts);
	if (f.kind == KL_LINE_KMSG_CONT)
		check(f.msg == 1);
	if (format == KL_FORMAT_KMSG)
		check(f.kind == KL_LINE_PLAIN || f.kind == KL_LINE_KMSG ||
		    f.kind == KL_LINE_KMSG_CONT);
	/* framing is a function of its arguments */
	kl_frame_line(b, n, *prev, format, &g);
	check(same(&f, &g));
	/* fr_printk(), printk's prefix first, frames as the general path */
	kl_frame_line_all(b, n, *prev, format, &g);
	check(same(&f, &g));
	/* a trailing CR changes nothing */
	if (n == 0 || b[n - 1] != '\r') {
		cr = malloc(n + 1);
		check(cr != NULL);
		memcpy(cr, b, n);
		cr[n] = '\r';
		kl_frame_line(cr, n + 1, *prev, format, &g);
		check(same(&f, &g));
		free(cr);
	}
	*prev = f.kind;
}

/* Are two guesses the same, lines counted and all? */
static int
same_guess(const struct kl_detect *a, const struct kl_detect *b)
{
	return (a->arch == b->arch && a->certain == b->certain &&
	    a->family == b->family && a->bits == b->bits &&
	    a->va_bits == b->va_bits && a->kver == b->kver &&
	    memcmp(a->score, b->score, sizeof(a->score)) == 0 &&
	    a->lines == b->lines && a->flags == b->flags &&
	    a->page_offset == b->page_offset);
}

/*
 * Detection skips a message only when reading it in full would learn
 * nothing (detect_may()): two guesses, one fed through the filter and one
 * not, stay the same line after line.  Both start again once certain.
 */
static void
detect_both(struct kl_detect *a, struct kl_detect *b, const uint8_t *m,
    size_t n)
{
	kl_detect_line(a, m, n);
	kl_detect_line_all(b, m, n);
	check(same_guess(a, b));
	if (a->certain) {
		kl_detect_init(a);
		kl_detect_init(b);
	}
}

/* Is out[0..n) the body of a JSON string? */
static int
json_ok(const char *out, size_t n)
{
	size_t i, j;
	const char *hex = "0123456789abcdef";

	for (i = 0; i < n; i++) {
		if (out[i] == '"')
			return (0);
		if (out[i] != '\\')
			continue;
		if (++i >= n)
			return (0);
		if (strchr("\"\\/bfnrt", out[i]) != NULL && out[i] != '\0')
			continue;
		if (out[i] != 'u' || n - i < 5)
			return (0);
		for (j = 1; j <= 4; j++)
			if (strchr(hex, out[i + j]) == NULL || out[i + j] == '\0')
				return (0);
		i += 4;
	}
	return (1);
}

/* Does the base64 text out[0..n) decode to src[0..len)? */
static int
b64_ok(const char *out, size_t n, const uint8_t *src, size_t len)
{
	size_t i, k = 0;
	uint32_t v;
	int j, d, pad;

	if (n != (len + 2) / 3 * 4)
		return (0);
	for (i = 0; i < n; i += 4) {
		v = 0;
		pad = 0;
		for (j = 0; j < 4; j++) {
			if (out[i + j] == '=' && i + 4 == n && j >= 2) {
				pad++;
				d = 0;
			} else if (pad > 0 ||
			    (d = kl_b64_value((uint8_t)out[i + j])) < 0)
				return (0);
			v = v << 6 | (uint32_t)d;
		}
		for (j = 0; j < 3 - pad; j++, k++)
			if (k >= len || src[k] != (uint8_t)(v >> (16 - 8 * j)))
				return (0);
	}
	return (k == len);
}

/* No C0 control or DEL in out[0..n) (UTF-8 bytes may be there). */
static int
no_controls(const char *out, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((uint8_t)out[i] < 0x20 || (uint8_t)out[i] == 0x7f)
			return (0);
	return (1);
}

/*
 * Run one escaping function on src[0..len): the length asked with no
 * buffer must be what a big enough buffer gets, the output must be one C
 * string of that length, and a short buffer must hold a NUL-terminated
 * prefix of the whole output.
 */
static char *
escape(size_t (*fn)(char *, size_t, const uint8_t *, size_t),
    const uint8_t *src, size_t len, size_t cut, size_t *np)
{
	char *out, *part;
	size_t n, m, sz;

	n = fn(NULL, 0, src, len);
	out = malloc(n + 1);
	check(out != NULL);
	memset(out, 'Z', n + 1);
	check(fn(out, n + 1, src, len) == n);
	check(out[n] == '\0' && strlen(out) == n);
	/* a short buffer: a prefix, cut between whole units */
	sz = n > 0 ? cut % (n + 1) : 0;
	part = malloc(sz + 1);
	check(part != NULL);
	memset(part, 'Z', sz + 1);
	check(fn(part, sz, src, len) == n);
	check(part[sz] == 'Z');
	if (sz > 0) {
		m = strlen(part);
		check(m < sz && memcmp(part, out, m) == 0);
		check(kl_utf8_valid((const uint8_t *)part, m));
	}
	free(part);
	*np = n;
	return (out);
}

/* Escape src[0..len) every way and check each output. */
static void
escapes(const uint8_t *src, size_t len, size_t cut)
{
	char *out;
	size_t n, i;
	int plain = 1;

	out = escape(kl_esc_text, src, len, cut, &n);
	check(no_controls(out, n));
	check(kl_utf8_valid((const uint8_t *)out, n));
	for (i = 0; i < len; i++)
		if (src[i] < 0x20 || src[i] >= 0x7f)
			plain = 0;
	if (plain)
		check(n == len && memcmp(out, src, len) == 0);
	free(out);

	out = escape(kl_esc_json, src, len, cut, &n);
	check(no_controls(out, n));
	check(kl_utf8_valid((const uint8_t *)out, n));
	check(json_ok(out, n));
	free(out);

	out = escape(kl_base64, src, len, cut, &n);
	check(b64_ok(out, n, src, len));
	free(out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum kl_line_kind pt = KL_LINE_PLAIN, pk = KL_LINE_PLAIN;
	const uint8_t *p = data, *e = data + size, *nl;
	struct kl_detect da[2], db[2];
	struct kl_frame f;
	uint8_t *line;
	size_t n;

	kl_detect_init(&da[0]);
	kl_detect_init(&db[0]);
	kl_detect_init(&da[1]);
	kl_detect_init(&db[1]);

	while (p <= e) {
		nl = memchr(p, '\n', (size_t)(e - p));
		n = nl != NULL ? (size_t)(nl - p) : (size_t)(e - p);
		line = malloc(n > 0 ? n : 1);
		check(line != NULL);
		if (n > 0)
			memcpy(line, p, n);
		frame(line, n, &pt, KL_FORMAT_AUTO);
		frame(line, n, &pk, KL_FORMAT_KMSG);
		escapes(line, n, n * 7 + 3);
		kl_frame_line(line, n, pt, KL_FORMAT_TEXT, &f);
		escapes(line + f.msg, n - f.msg, n);
		detect_both(&da[0], &db[0], line + f.msg, n - f.msg);
		detect_both(&da[1], &db[1], line, n);
		free(line);
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	return (0);
}
