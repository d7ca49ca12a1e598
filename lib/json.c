/*
 * json.c - journalctl -o json, json-seq and json-pretty: the streaming
 * JSON parser of journal entries (objects of strings, null, byte arrays
 * and arrays of those), and the patcher that finds decoded bytes of a
 * JSON value again in its raw text for the rewriter.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "journal-int.h"

/* Byte classes of JSON strings: bytes that end a plain run. */
static const uint8_t jstop[256] = {
	['"'] = 1, ['\\'] = 1, ['\n'] = 1, [RS] = 1,
};

/* JSON: damage at offset o: report, cut, resynchronise. */
static int KL_PRINTFLIKE(3, 4)
jfail(struct kl_journal *j, int bol, const char *fmt, ...)
{
	char body[256];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	rc = kl_jent_report(j, "%s", body);
	if (rc == 0)
		rc = kl_jent_cut(j);
	if (rc == 0)
		rc = kl_jent_resync(j, bol);
	return (rc);
}

/* JSON: an unexpected byte c at p. */
static int
junexpected(struct kl_journal *j, const uint8_t *p, const char *what)
{
	char cb[16];

	if (*p == RS) {
		/* json-seq: a new record starts; this one was cut */
		int rc = kl_jent_report(j, "record separator at offset %" PRIu64
		    " inside an entry: entry truncated", kl_jent_off_at(j, p));
		if (rc == 0)
			rc = kl_jent_cut(j);
		j->st = J_TOP;
		return (rc);
	}
	return (jfail(j, 0, "expected %s at offset %" PRIu64 ", found %s",
	    what, kl_jent_off_at(j, p), kl_jent_byte_esc(*p, cb, sizeof(cb))));
}

/* Is c JSON white space?  Counts lines. */
static int
jws(struct kl_journal *j, uint8_t c)
{
	if (c == '\n') {
		j->line++;
		return (1);
	}
	return (c == ' ' || c == '\t' || c == '\r');
}

/* JSON: append decoded bytes to the name or the value. */
static int
jput(struct kl_journal *j, const void *b, size_t n)
{
	size_t k;

	if (!j->key)
		return (kl_jent_put(j, b, n));
	for (k = 0; k < n; k++) {
		if (j->klen < KBUF)
			j->kbuf[j->klen] = ((const uint8_t *)b)[k];
		if (j->klen < SIZE_MAX)
			j->klen++;
	}
	return (0);
}

/* JSON: append the UTF-8 form of code point cp. */
static int
jput_cp(struct kl_journal *j, uint32_t cp)
{
	uint8_t b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (uint8_t)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (uint8_t)(0xc0 | cp >> 6);
		b[1] = (uint8_t)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (uint8_t)(0xe0 | cp >> 12);
		b[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (uint8_t)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (uint8_t)(0xf0 | cp >> 18);
		b[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (uint8_t)(0x80 | (cp & 0x3f));
		n = 4;
	}
	return (jput(j, b, n));
}

/* JSON: the state after a value at the current depth. */
static int
jafter(const struct kl_journal *j)
{
	return (j->depth == 0 ? J_MNEXT : J_ANEXT);
}

/* JSON: a member name is complete. */
static int
jkey_done(struct kl_journal *j)
{
	char nb[KBUF * 4 + 8];

	j->key = 0;
	j->st = J_COLON;
	j->mdrop = 0;
	j->named = 0;
	if (!kl_jent_name_valid(j)) {
		j->mdrop = 1;
		j->partial = 1;
		return (kl_jent_report(j,
		    "invalid field name \"%s\" at offset %" PRIu64
		    "; member dropped", kl_jent_name_esc(j, nb, sizeof(nb)),
		    j->koff));
	}
	return (kl_jent_commit_name(j));
}

/* JSON: a string starts at p (the quote). */
static int
jstr_start(struct kl_journal *j, const uint8_t *p)
{
	int rc = 0;

	j->esc = 0;
	j->uhi = 0;
	j->st = J_STR;
	if (j->key) {
		j->klen = 0;
		j->koff = kl_jent_off_at(j, p) + 1;
		return (0);
	}
	if (j->depth == 1) {
		if (j->akind == A_BYTES)
			return (jfail(j, 0, "string at offset %" PRIu64
			    " in a byte array", kl_jent_off_at(j, p)));
		j->akind = A_REP;
	} else if (j->depth == 2)
		return (jfail(j, 0, "string at offset %" PRIu64
		    " in a byte array", kl_jent_off_at(j, p)));
	rc = kl_jent_start_field(j, kl_jent_off_at(j, p) + 1, 1);
	return (rc);
}

/* JSON: a string ended. */
static int
jstr_done(struct kl_journal *j)
{
	if (j->key)
		return (jkey_done(j));
	if (j->esc)
		j->cur.exact = 0;
	j->st = jafter(j);
	return (kl_jent_end_field(j));
}

/* Is lit[0..nlit) a JSON number? */
static int
lit_number(const struct kl_journal *j)
{
	const char *s = j->lit, *e = j->lit + j->nlit;
	int d;

	if (s < e && *s == '-')
		s++;
	for (d = 0; s < e && *s >= '0' && *s <= '9'; s++)
		d++;
	if (d == 0)
		return (0);
	if (s < e && *s == '.') {
		for (s++, d = 0; s < e && *s >= '0' && *s <= '9'; s++)
			d++;
		if (d == 0)
			return (0);
	}
	if (s < e && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < e && (*s == '+' || *s == '-'))
			s++;
		for (d = 0; s < e && *s >= '0' && *s <= '9'; s++)
			d++;
		if (d == 0)
			return (0);
	}
	return (s == e);
}

/* The byte value of lit, or -1 when it is not an integer 0-255. */
static int
lit_byte(const struct kl_journal *j)
{
	unsigned v = 0, i;

	if (j->nlit == 0)
		return (-1);
	for (i = 0; i < j->nlit; i++) {
		if (j->lit[i] < '0' || j->lit[i] > '9')
			return (-1);
		v = v * 10 + (unsigned)(j->lit[i] - '0');
		if (v > 255)
			return (-1);
	}
	return ((int)v);
}

/* Is lit the keyword s? */
static int
lit_is(const struct kl_journal *j, const char *s)
{
	return (strlen(s) == j->nlit && memcmp(j->lit, s, j->nlit) == 0);
}

/* JSON: a literal ended (the byte after it is not consumed). */
static int
jlit_done(struct kl_journal *j)
{
	uint8_t b;
	int v, rc;

	j->st = jafter(j);
	if (lit_is(j, "null"))
		j->stats.nulls++;
	if (j->depth == 0) {
		if (lit_is(j, "null"))
			return (0);
		if (!lit_is(j, "true") && !lit_is(j, "false") &&
		    !lit_number(j))
			goto bad;
		if ((rc = kl_jent_start_field(j, j->litoff, 1)) != 0)
			return (rc);
		if ((rc = kl_jent_put(j, j->lit, j->nlit)) != 0)
			return (rc);
		return (kl_jent_end_field(j));
	}
	if (j->depth == 1 && j->akind == A_NONE) {
		if (lit_is(j, "null")) {
			j->akind = A_REP;
			return (0);
		}
		if (lit_byte(j) < 0)
			goto bad;
		j->akind = A_BYTES;
		if ((rc = kl_jent_start_field(j, j->aoff, 0)) != 0)
			return (rc);
	} else if (j->depth == 1 && j->akind == A_REP) {
		if (lit_is(j, "null"))
			return (0);
		return (jfail(j, 0, "%.*s at offset %" PRIu64 " in a repeated "
		    "field: expected a string, null or a byte array",
		    (int)j->nlit, j->lit, j->litoff));
	}
	if ((v = lit_byte(j)) < 0)
		goto bad;
	b = (uint8_t)v;
	return (kl_jent_put(j, &b, 1));
bad:
	return (jfail(j, 0, "invalid value %.*s at offset %" PRIu64,
	    (int)j->nlit, j->lit, j->litoff));
}

/* JSON: a value (member value or array element) starts at p. */
static int
jvalue(struct kl_journal *j, const uint8_t *p, int *used)
{
	uint8_t c = *p;

	*used = 1;
	if (c == '"') {
		j->key = 0;
		return (jstr_start(j, p));
	}
	if (c == '[') {
		if (j->depth == 2 || (j->depth == 1 && j->akind == A_BYTES))
			return (jfail(j, 0, "array at offset %" PRIu64
			    " inside a byte array", kl_jent_off_at(j, p)));
		j->st = J_ARR0;
		if (j->depth == 0) {
			j->depth = 1;
			j->akind = A_NONE;
			j->aoff = kl_jent_off_at(j, p);
			return (0);
		}
		j->akind = A_REP;
		j->depth = 2;
		return (kl_jent_start_field(j, kl_jent_off_at(j, p), 0));
	}
	if (c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' ||
	    c == 'n') {
		j->nlit = 0;
		j->litoff = kl_jent_off_at(j, p);
		j->st = J_LIT;
		*used = 0;
		return (0);
	}
	*used = 0;
	return (junexpected(j, p, "a value"));
}

/* JSON: ']' closes the innermost array. */
static int
jarr_close(struct kl_journal *j)
{
	int rc = 0;

	if (j->depth == 2) {
		rc = kl_jent_end_field(j);
		j->depth = 1;
		j->st = J_ANEXT;
		return (rc);
	}
	if (j->akind == A_BYTES)
		rc = kl_jent_end_field(j);
	j->depth = 0;
	j->st = J_MNEXT;
	return (rc);
}

/* JSON: the escape character c after a backslash. */
static int
jesc(struct kl_journal *j, const uint8_t *p)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *s;
	char cb[16];

	if (*p == 'u') {
		j->st = J_HEX;
		j->u = 0;
		j->nu = 0;
		return (0);
	}
	if (*p == '\0' || (s = strchr(from, *p)) == NULL)
		return (jfail(j, *p == '\n', "invalid escape at offset %"
		    PRIu64 ": %s after a backslash", kl_jent_off_at(j, p) - 1,
		    kl_jent_byte_esc(*p, cb, sizeof(cb))));
	j->st = J_STR;
	return (jput(j, &to[s - from], 1));
}

/* JSON: four hex digits of \u are in. */
static int
jhex_done(struct kl_journal *j)
{
	uint32_t cp = j->u;
	int rc;

	j->st = J_STR;
	if (j->uhi != 0) {
		if (cp >= 0xdc00 && cp <= 0xdfff) {
			cp = 0x10000 + ((j->uhi - 0xd800) << 10) +
			    (cp - 0xdc00);
			j->uhi = 0;
			return (jput_cp(j, cp));
		}
		j->uhi = 0;
		if ((rc = jput_cp(j, 0xfffd)) != 0)
			return (rc);
	}
	if (cp >= 0xd800 && cp <= 0xdbff) {
		j->uhi = cp;
		j->st = J_LOW_BS;
		return (0);
	}
	if (cp >= 0xdc00 && cp <= 0xdfff)
		cp = 0xfffd;
	return (jput_cp(j, cp));
}

/* JSON: parse b[0..n). */
int
kl_json_feed(struct kl_journal *j, const uint8_t *p, const uint8_t *e)
{
	const uint8_t *q;
	char cb[16];
	uint8_t c;
	int rc = 0, used, h;

	while (p < e && rc == 0) {
		c = *p;
		switch (j->st) {
		case J_TOP:
			if (jws(j, c) || c == RS) {
				p++;
				break;
			}
			if (c != '{') {
				rc = jfail(j, 0, "expected '{' at offset %"
				    PRIu64 ", found %s", kl_jent_off_at(j, p),
				    kl_jent_byte_esc(c, cb, sizeof(cb)));
				p++;
				break;
			}
			j->koff = kl_jent_off_at(j, p);
			kl_jent_open_entry(j, j->koff);
			j->depth = 0;
			j->st = J_KEY0;
			p++;
			break;
		case J_KEY0:
		case J_KEY:
			if (jws(j, c)) {
				p++;
				break;
			}
			if (c == '}' && j->st == J_KEY0) {
				p++;
				j->st = J_TOP;
				rc = kl_jent_finish(j);
				break;
			}
			if (c != '"') {
				rc = junexpected(j, p, "a field name");
				p++;
				break;
			}
			j->key = 1;
			rc = jstr_start(j, p);
			p++;
			break;
		case J_STR:
			q = p;
			while (q < e && !jstop[*q])
				q++;
			if (q > p) {
				rc = jput(j, p, (size_t)(q - p));
				p = q;
				break;
			}
			p++;
			if (c == '"')
				rc = jstr_done(j);
			else if (c == '\\') {
				j->esc = 1;
				j->st = J_ESC;
			} else if (c == '\n') {
				rc = jfail(j, 1, "unterminated string at "
				    "offset %" PRIu64 " (newline)",
				    kl_jent_off_at(j, p) - 1);
				j->line++;
			} else
				rc = junexpected(j, p - 1, "a string");
			break;
		case J_ESC:
			if (c == RS) {
				rc = junexpected(j, p, "an escape");
				p++;
				break;
			}
			rc = jesc(j, p);
			if (c == '\n')
				j->line++;
			p++;
			break;
		case J_HEX:
			if (c >= '0' && c <= '9')
				h = c - '0';
			else if (c >= 'a' && c <= 'f')
				h = c - 'a' + 10;
			else if (c >= 'A' && c <= 'F')
				h = c - 'A' + 10;
			else {
				rc = c == RS ? junexpected(j, p, "") :
				    jfail(j, c == '\n', "invalid \\u escape at "
				    "offset %" PRIu64, kl_jent_off_at(j, p));
				if (c == '\n')
					j->line++;
				p++;
				break;
			}
			j->u = j->u << 4 | (uint32_t)h;
			p++;
			if (++j->nu == 4)
				rc = jhex_done(j);
			break;
		case J_LOW_BS:
		case J_LOW_U:
			if (c == (j->st == J_LOW_BS ? '\\' : 'u')) {
				p++;
				if (j->st == J_LOW_BS)
					j->st = J_LOW_U;
				else {
					j->st = J_HEX;
					j->u = 0;
					j->nu = 0;
				}
				break;
			}
			/* a lone high surrogate; c is read again */
			j->uhi = 0;
			j->st = j->st == J_LOW_BS ? J_STR : J_ESC;
			rc = jput_cp(j, 0xfffd);
			break;
		case J_COLON:
			if (jws(j, c)) {
				p++;
				break;
			}
			if (c != ':') {
				rc = junexpected(j, p, "':'");
				p++;
				break;
			}
			j->st = J_VALUE;
			p++;
			break;
		case J_VALUE:
		case J_ELEM:
		case J_ARR0:
			if (jws(j, c)) {
				p++;
				break;
			}
			if (c == ']' && j->st == J_ARR0) {
				p++;
				rc = jarr_close(j);
				break;
			}
			rc = jvalue(j, p, &used);
			if (used || j->st == J_SKIP || j->st == J_TOP)
				p++;
			break;
		case J_LIT:
			if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			    (c >= 'A' && c <= 'Z') || c == '.' || c == '+' ||
			    c == '-') {
				if (j->nlit == LIT_MAX) {
					rc = jfail(j, 0, "literal at offset %"
					    PRIu64 " too long", j->litoff);
					break;
				}
				j->lit[j->nlit++] = (char)c;
				p++;
				break;
			}
			rc = jlit_done(j);
			break;
		case J_ANEXT:
		case J_MNEXT:
			if (jws(j, c)) {
				p++;
				break;
			}
			if (c == ',') {
				p++;
				j->st = j->st == J_ANEXT ? J_ELEM : J_KEY;
				break;
			}
			if (c == ']' && j->st == J_ANEXT) {
				p++;
				rc = jarr_close(j);
				break;
			}
			if (c == '}' && j->st == J_MNEXT) {
				p++;
				j->st = J_TOP;
				rc = kl_jent_finish(j);
				break;
			}
			rc = junexpected(j, p, j->st == J_ANEXT ? "',' or ']'" :
			    "',' or '}'");
			p++;
			break;
		case J_SKIP:
			if (c == RS) {
				p++;
				j->stats.skipped++;
				j->st = J_TOP;
				break;
			}
			if (j->bol) {
				if (c == '{') {
					j->st = J_TOP;
					break;
				}
				if (c == ' ' || c == '\t' || c == '\r' ||
				    c == '\n') {
					if (c == '\n')
						j->line++;
					p++;
					j->stats.skipped++;
					break;
				}
				j->bol = 0;
			}
			q = p;
			while (q < e && *q != '\n' && *q != RS)
				q++;
			j->stats.skipped += (uint64_t)(q - p);
			p = q;
			if (q < e && *q == '\n') {
				p++;
				j->line++;
				j->stats.skipped++;
				j->bol = 1;
			}
			break;
		}
	}
	return (rc);
}

/* JSON: the stream ended. */
int
kl_json_end(struct kl_journal *j)
{
	int rc = 0;

	if (!j->open || j->st == J_TOP || j->st == J_SKIP)
		return (0);
	rc = kl_jent_report(j,
	    "the stream ends inside the entry (truncated object)");
	/* what was read of a value being read is delivered */
	if (rc == 0 && !j->key && (j->st == J_STR || j->st == J_ESC ||
	    j->st == J_HEX || j->st == J_LOW_BS || j->st == J_LOW_U ||
	    j->depth > 0)) {
		if (j->esc)
			j->cur.exact = 0;
		rc = kl_jent_end_field(j);
	}
	if (rc == 0)
		rc = kl_jent_cut(j);
	return (rc);
}

/* The value of 4 hex digits at p, or -1. */
static long
hex4(const uint8_t *p)
{
	long v = 0;
	int i, h;

	for (i = 0; i < 4; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			h = p[i] - '0';
		else if (p[i] >= 'a' && p[i] <= 'f')
			h = p[i] - 'a' + 10;
		else if (p[i] >= 'A' && p[i] <= 'F')
			h = p[i] - 'A' + 10;
		else
			return (-1);
		v = v << 4 | h;
	}
	return (v);
}

/* The length of the UTF-8 form of code point cp. */
static size_t
utf8_len(long cp)
{
	if (cp < 0x80)
		return (1);
	if (cp < 0x800)
		return (2);
	return (cp < 0x10000 ? 3 : 4);
}

/*
 * JSON string: the raw index of decoded byte d of the string starting
 * at raw[0] (after its quote), when decoded bytes [d, d+n) are raw bytes
 * (no escape makes them).  Decodes as kl_json_feed() does: \uXXXX to UTF-8,
 * a surrogate pair to 4 bytes, a lone surrogate to U+FFFD.  Returns the
 * index, -1 when an escape makes a byte of the span, -2 when raw[0..len)
 * ends before the span does.
 */
static long long
jstr_map(const uint8_t *raw, size_t len, size_t d, size_t n)
{
	size_t i = 0, dc = 0, k;
	long cp, lo;

	while (i < len) {
		if (raw[i] == '"')
			return (-1);
		if (raw[i] != '\\') {
			if (dc == d) {
				for (k = 0; k < n; k++)
					if (i + k >= len)
						return (-2);
					else if (raw[i + k] == '\\' ||
					    raw[i + k] == '"')
						return (-1);
				return ((long long)i);
			}
			dc++;
			i++;
			continue;
		}
		if (i + 1 >= len)
			return (-2);
		if (raw[i + 1] != 'u') {
			k = 1;
			i += 2;
		} else {
			if (i + 6 > len)
				return (-2);
			if ((cp = hex4(raw + i + 2)) < 0)
				return (-1);
			i += 6;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				/* A low surrogate must follow. */
				if (i < len && raw[i] == '\\' && i + 1 >= len)
					return (-2);
				if (i < len && raw[i] == '\\' &&
				    raw[i + 1] == 'u') {
					if (i + 6 > len)
						return (-2);
					lo = hex4(raw + i + 2);
					if (lo >= 0xdc00 && lo <= 0xdfff) {
						cp = 0x10000;
						i += 6;
					} else
						cp = 0xfffd;
				} else if (i >= len)
					return (-2);
				else
					cp = 0xfffd;
			} else if (cp >= 0xdc00 && cp <= 0xdfff)
				cp = 0xfffd;
			k = utf8_len(cp);
		}
		/* k decoded bytes from an escape: none may be in the span. */
		if (dc + k > d)
			return (-1);
		dc += k;
	}
	return (-2);
}

/* Is c JSON white space? */
static int
ws_byte(uint8_t c)
{
	return (c == ' ' || c == '\t' || c == '\r' || c == '\n');
}

/*
 * JSON byte array starting at raw[0] ('['): rewrite the numbers of
 * elements [d, d+n) as the bytes repl[0..n), in the raw width of those
 * numbers and what lies between them: the new numbers joined by ',',
 * then spaces.  Letters a-f (97-102) go up to A-F (65-70) when the
 * lower case does not fit.  Returns the raw index of the first number,
 * -1 when the array or the span is not such, -2 when raw[0..len) ends
 * before the span does.
 */
static long long
jarr_patch(uint8_t *raw, size_t len, size_t d, const uint8_t *repl,
    size_t n)
{
	char text[4 * 64];
	size_t i = 1, k = 0, s = 0, e = 0, w, need, m;
	int upper, c;

	if (n == 0 || n > 64)
		return (-1);
	for (;;) {
		while (i < len && ws_byte(raw[i]))
			i++;
		if (i >= len)
			return (-2);
		if (raw[i] < '0' || raw[i] > '9')
			return (-1);
		if (k == d)
			s = i;
		while (i < len && raw[i] >= '0' && raw[i] <= '9')
			i++;
		if (i >= len)
			return (-2);
		if (k == d + n - 1) {
			e = i;
			break;
		}
		k++;
		while (i < len && ws_byte(raw[i]))
			i++;
		if (i >= len)
			return (-2);
		if (raw[i] != ',')
			return (-1);
		i++;
	}
	w = e - s;
	for (upper = 0; upper < 2; upper++) {
		for (k = 0, need = 0; k < n; k++) {
			c = repl[k];
			if (upper && c >= 'a' && c <= 'f')
				c = c - 'a' + 'A';
			m = (size_t)snprintf(text + need, sizeof(text) - need,
			    k > 0 ? ",%d" : "%d", c);
			need += m;
		}
		if (need <= w)
			break;
	}
	if (need > w)
		return (-1);
	memcpy(raw + s, text, need);
	memset(raw + s + need, ' ', w - need);
	return ((long long)s);
}

/*
 * Write the bytes repl[0..n) over decoded bytes [d, d+n) of the JSON
 * value whose raw text starts at raw[at] (the byte after a string's
 * quote, or a byte array's '[': raw[at - 1] tells which), in place and
 * in the same raw width, so that the rest of the stream keeps its
 * bytes.  raw[0..len) is what is held of the stream.  The raw offset of
 * the first byte changed goes to *where.  Returns 0, or -1 (err).
 */
int
kl_journal_json_patch(uint8_t *raw, size_t len, size_t at, size_t d,
    const uint8_t *repl, size_t n, size_t *where, struct kl_error *err)
{
	long long r;

	if (at == 0 || at >= len) {
		kl_error_set(err, KL_EINVAL, 0, "JSON value outside the held "
		    "bytes");
		return (-1);
	}
	if (raw[at - 1] == '"') {
		r = jstr_map(raw + at, len - at, d, n);
		if (r >= 0)
			memcpy(raw + at + r, repl, n);
	} else if (raw[at] == '[')
		r = jarr_patch(raw + at, len - at, d, repl, n);
	else
		r = -1;
	if (r == -2) {
		kl_error_set(err, KL_EINVAL, 0, "JSON value runs past the held "
		    "bytes");
		return (-1);
	}
	if (r < 0) {
		kl_error_set(err, KL_EFORMAT, 0, "cannot rewrite a value made "
		    "by JSON escapes");
		return (-1);
	}
	*where = at + (size_t)r;
	return (0);
}
