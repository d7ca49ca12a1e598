/*
 * mime.c - mail containers read as a stream: messages and their parts.
 *
 *
 * A container is an mbox (messages after "From " lines, mboxo or
 * mboxrd: ">From " lines lose one '>') or one message (an .eml, a
 * maildir file).  Each message is given to the caller as a unit of its
 * own: begin, the decoded text of its text parts, end.  Headers are
 * read, not scanned.  Multipart bodies are split by boundary (nested),
 * nested message/rfc822 parts read as messages; the body lines of each
 * text part go to mimebody.c to be decoded.  Parts that are not text
 * are counted and skipped.
 *
 * Memory is bounded: one stored line (KL_MIME_LINE_MAX, longer lines
 * are read in pieces), one decoded line, one header field, and the map
 * of what the caller has not settled.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "mime-int.h"

/* Is c a character of a header field name? */
static int
is_fname(uint8_t c)
{
	return (c > 32 && c < 127 && c != ':');
}

/* Do b[0..n) start with the string s, ignoring case? */
static int
has_prefix(const uint8_t *b, size_t n, const char *s)
{
	size_t	i, k = strlen(s);

	if (n < k)
		return (0);
	for (i = 0; i < k; i++) {
		uint8_t c = b[i];

		if (c >= 'A' && c <= 'Z')
			c = (uint8_t)(c - 'A' + 'a');
		if (c != (uint8_t)s[i])
			return (0);
	}
	return (1);
}

/* The length of the header field name at the start of b, or 0. */
static size_t
field_name(const uint8_t *b, size_t n)
{
	size_t	i = 0;

	while (i < n && is_fname(b[i]))
		i++;
	if (i == 0 || i >= n || b[i] != ':')
		return (0);
	return (i);
}

/* Is the field named b[0..k) one a message starts with? */
static int
mail_field(const uint8_t *b, size_t k)
{
	static const char *const names[] = {
		"return-path:", "received:", "from:", "to:", "cc:",
		"subject:", "date:", "message-id:", "mime-version:",
		"delivered-to:", "content-type:", "in-reply-to:",
		"references:", "reply-to:", "sender:", "x-",
		"content-transfer-encoding:", "user-agent:", "list-id:",
		"dkim-signature:", "arc-seal:", "authentication-results:",
	};
	size_t	i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (has_prefix(b, k + 1, names[i]))
			return (1);
	return (0);
}

/*
 * What b[0..n), the first bytes of a unit, is: an mbox (a "From " line
 * then header fields), one message (header fields, at least two of
 * those a message has, up to the empty line or the end of b), or not
 * mail.
 */
enum kl_mime_box
kl_mime_sniff(const uint8_t *b, size_t n)
{
	enum kl_mime_box box = KL_MIME_MESSAGE;
	const uint8_t	*e, *p = b;
	size_t		 k, len, known = 0, lines = 0;

	if (b == NULL || n == 0)
		return (KL_MIME_NONE);
	if (n >= 5 && memcmp(b, "From ", 5) == 0) {
		if ((e = memchr(b, '\n', n)) == NULL)
			return (KL_MIME_NONE);
		box = KL_MIME_MBOX;
		p = e + 1;
	}
	while (p < b + n) {
		e = memchr(p, '\n', (size_t)(b + n - p));
		len = e == NULL ? (size_t)(b + n - p) : (size_t)(e - p);
		if (len > 0 && p[len - 1] == '\r')
			len--;
		if (len == 0)
			break;		/* the end of the header */
		if (p[0] == ' ' || p[0] == '\t') {
			if (lines == 0)
				return (KL_MIME_NONE);
		} else if ((k = field_name(p, len)) == 0) {
			if (e == NULL && lines > 0)
				break;	/* cut in the sniffed bytes */
			return (KL_MIME_NONE);
		} else if (mail_field(p, k))
			known++;
		lines++;
		if (e == NULL)
			break;
		p = e + 1;
	}
	if (known < 2 && !(box == KL_MIME_MBOX && known >= 1))
		return (KL_MIME_NONE);
	return (box);
}

/* A new reader of a container of the kind kl_mime_sniff() gave. */
struct kl_mime *
kl_mime_new(enum kl_mime_box box, const struct kl_mime_ops *ops,
    struct kl_error *err)
{
	struct kl_mime	*m;

	if ((m = calloc(1, sizeof(*m))) == NULL ||
	    (m->lbuf = malloc(KL_MIME_LINE_MAX)) == NULL ||
	    (m->dbuf = malloc(KL_MIME_LINE_MAX + 16)) == NULL ||
	    (m->hdr = malloc(HDR_MAX)) == NULL) {
		kl_mime_free(m);
		kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
		return (NULL);
	}
	m->box = box == KL_MIME_MBOX ? KL_MIME_MBOX : KL_MIME_MESSAGE;
	m->ops = *ops;
	m->line = 1;
	m->col = 1;
	return (m);
}

/* Free a reader. */
void
kl_mime_free(struct kl_mime *m)
{
	if (m == NULL)
		return;
	free(m->lbuf);
	free(m->dbuf);
	free(m->hdr);
	free(m->segs);
	free(m);
}

/* The counters of a reader. */
const struct kl_mime_stats *
kl_mime_stats(const struct kl_mime *m)
{
	return (&m->st);
}

/* The defaults of a part's header. */
static void
part_init(struct part *p)
{
	memset(p, 0, sizeof(*p));
	p->type = P_TEXT;
}

/* The value of parameter name (lower case) in v[0..n), into out. */
static int
param(const uint8_t *v, size_t n, const char *name, char *out, size_t size)
{
	size_t	i, k = strlen(name), o = 0;
	int	q;

	for (i = 0; i + k < n; i++) {
		if (v[i] != ';')
			continue;
		i++;
		while (i < n && (v[i] == ' ' || v[i] == '\t'))
			i++;
		if (!has_prefix(v + i, n - i, name) || i + k >= n ||
		    v[i + k] != '=')
			continue;
		i += k + 1;
		q = i < n && v[i] == '"';
		if (q)
			i++;
		while (i < n && o + 1 < size && (q ? v[i] != '"' :
		    (v[i] != ';' && v[i] != ' ' && v[i] != '\t')))
			out[o++] = (char)v[i++];
		out[o] = '\0';
		return (o > 0);
	}
	return (0);
}

/* Does a file name say that it holds text (a log, a dmesg)? */
static int
log_name(const char *name)
{
	static const char *const ext[] = {
		".txt", ".log", ".dmesg", ".out", ".text", ".diff", ".patch",
		".config",
	};
	size_t	i, n = strlen(name), k;

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		k = strlen(ext[i]);
		if (n >= k && has_prefix((const uint8_t *)name + n - k, k,
		    ext[i]))
			return (1);
	}
	for (i = 0; i + 5 <= n; i++)
		if (has_prefix((const uint8_t *)name + i, n - i, "dmesg") ||
		    has_prefix((const uint8_t *)name + i, n - i, "oops") ||
		    has_prefix((const uint8_t *)name + i, n - i, "console"))
			return (1);
	return (0);
}

/*
 * Charsets whose bytes below 0x80 are ASCII, read as UTF-8 unless
 * charset() knows better: the hex digits of an address are the same.
 */
static const char *const ascii_sets[] = {
	"utf-8", "utf8", "us-ascii", "ascii", "ansi_x3.4", "iso-8859-",
	"iso8859-", "iso_8859-", "latin", "windows-", "cp", "koi8-", "gb",
	"big5", "euc-", "shift_jis", "shift-jis", "sjis", "iso-2022-",
	"tis-620", "viscii", "macintosh", "x-mac-", "iso-ir-", "ibm",
};

/* Charsets whose text is not ASCII bytes: it is not read. */
static const char *const wide_sets[] = {
	"utf-16", "utf16", "utf-32", "utf32", "ucs-2", "ucs2", "ucs-4",
	"ucs4", "utf-7", "utf7",
};

/* Take the charset parameter name of a part; note one it cannot read. */
static void
charset(struct part *p, const char *name)
{
	size_t	i, n = strlen(name);

	p->cs = CS_UTF8;
	p->badcs = 0;
	if (has_prefix((const uint8_t *)name, n, "iso-8859-") ||
	    has_prefix((const uint8_t *)name, n, "latin"))
		p->cs = CS_LATIN1;
	else if (has_prefix((const uint8_t *)name, n, "windows-") ||
	    has_prefix((const uint8_t *)name, n, "cp12"))
		p->cs = CS_1252;
	for (i = 0; i < sizeof(wide_sets) / sizeof(wide_sets[0]); i++)
		if (has_prefix((const uint8_t *)name, n, wide_sets[i]))
			p->badcs = 2;
	if (p->badcs == 0) {
		p->badcs = 1;
		for (i = 0; i < sizeof(ascii_sets) / sizeof(ascii_sets[0]);
		    i++)
			if (has_prefix((const uint8_t *)name, n,
			    ascii_sets[i]))
				p->badcs = 0;
	}
	/* The name goes into an error message: printable words only. */
	for (i = 0; i < n && i < CSNAME_MAX; i++) {
		if (!kl_isalnum((uint8_t)name[i]) &&
		    strchr("-_.:+", name[i]) == NULL)
			break;
		p->csname[i] = name[i];
	}
	p->csname[i < n ? 0 : i] = '\0';
}

/* Say once per message that a text part's charset is read as UTF-8. */
static int
charset_check(struct kl_mime *m)
{
	const struct part	*p = &m->cur;
	char			 what[CSNAME_MAX + 128];

	if (p->badcs == 0 || (p->type != P_TEXT && p->type != P_HTML))
		return (0);
	if (p->badcs == 2)
		snprintf(what, sizeof(what), "charset %s%s%s is not "
		    "ASCII: its text is read as UTF-8, addresses may be "
		    "missed", p->csname[0] != '\0' ? "\"" : "", p->csname,
		    p->csname[0] != '\0' ? "\"" : "");
	else {
		/*
		 * A label it does not know ("charset=yes", a typo): the
		 * bytes are read whole as UTF-8, nothing is lost.  A note.
		 */
		snprintf(what, sizeof(what), "unknown charset%s%s%s: read "
		    "as UTF-8", p->csname[0] != '\0' ? " \"" : "",
		    p->csname, p->csname[0] != '\0' ? "\"" : "");
		return (kl_mime_damage(m, E_NOTE, what));
	}
	return (kl_mime_damage(m, E_CHARSET, what));
}

/* Read a complete header field of the current part. */
static void
field_done(struct kl_mime *m)
{
	const uint8_t	*h = (const uint8_t *)m->hdr, *v, *e;
	struct part	*p = &m->cur;
	char		 val[BOUND_MAX + 1];
	size_t		 n = m->hlen, k;

	m->hlen = 0;
	if ((k = field_name(h, n)) == 0)
		return;
	v = h + k + 1;
	while (v < h + n && (*v == ' ' || *v == '\t'))
		v++;
	n = (size_t)(h + n - v);
	if (has_prefix(h, k + 1, "content-type:")) {
		p->multi = has_prefix(v, n, "multipart/");
		p->rfc822 = has_prefix(v, n, "message/rfc822");
		if (has_prefix(v, n, "text/html"))
			p->type = P_HTML;
		else if (has_prefix(v, n, "text/") ||
		    has_prefix(v, n, "message/delivery-status"))
			p->type = P_TEXT;
		else
			p->type = P_BIN;
		p->media = has_prefix(v, n, "image/") ||
		    has_prefix(v, n, "audio/") || has_prefix(v, n, "video/") ||
		    has_prefix(v, n, "font/");
		if (param(v, n, "name", val, sizeof(val)))
			p->logname |= log_name(val);
		if (param(v, n, "boundary", val, sizeof(val))) {
			memcpy(p->bound, val, strlen(val) + 1);
			p->blen = strlen(val);
		}
		if (param(v, n, "charset", val, sizeof(val)))
			charset(p, val);
		if (param(v, n, "format", val, sizeof(val)))
			p->flowed = has_prefix((uint8_t *)val, strlen(val),
			    "flowed");
		if (param(v, n, "delsp", val, sizeof(val)))
			p->delsp = has_prefix((uint8_t *)val, strlen(val),
			    "yes");
	} else if (has_prefix(h, k + 1, "content-disposition:")) {
		if (param(v, n, "filename", val, sizeof(val)))
			p->logname |= log_name(val);
	} else if (has_prefix(h, k + 1, "content-transfer-encoding:")) {
		if (has_prefix(v, n, "quoted-printable"))
			p->cte = T_QP;
		else if (has_prefix(v, n, "base64"))
			p->cte = T_B64;
		else
			p->cte = T_PLAIN;
	} else if (m->top == 1 && has_prefix(h, k + 1, "message-id:") &&
	    m->id[0] == '\0') {
		if ((e = memchr(v, '<', n)) != NULL) {
			n -= (size_t)(e + 1 - v);
			v = e + 1;
			if ((e = memchr(v, '>', n)) != NULL)
				n = (size_t)(e - v);
		}
		while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t'))
			n--;
		if (n > KL_MIME_ID_MAX)
			n = KL_MIME_ID_MAX;
		memcpy(m->id, v, n);
		m->id[n] = '\0';
		/* A name holds no NUL: cut there. */
		if (m->id[0] != '\0')
			m->msg.id = m->id;
	}
}

/* The header of a part ended: how its body is read. */
static int
head_done(struct kl_mime *m)
{
	struct part	*p = &m->cur;
	int		 rc;

	if (m->hlen > 0)
		field_done(m);
	m->top = 0;
	if (p->rfc822 && p->cte == T_PLAIN) {
		/* A message in a message: its header follows. */
		part_init(p);
		m->state = S_HEAD;
		return (0);
	}
	m->state = S_BODY;
	if (p->multi) {
		if (p->blen == 0) {
			if ((rc = kl_mime_damage(m, E_NOBOUND, "multipart "
			    "without a boundary: read as text")) != 0)
				return (rc);
			p->type = P_TEXT;
			p->multi = 0;
		} else if (m->depth == KL_MIME_DEPTH) {
			if ((rc = kl_mime_damage(m, E_DEPTH, "multiparts "
			    "nested too deep: the inner ones are "
			    "skipped")) != 0)
				return (rc);
			p->type = P_BIN;
			p->multi = 0;
		} else {
			memcpy(m->bounds[m->depth], p->bound, p->blen + 1);
			m->blens[m->depth++] = p->blen;
			p->type = P_MULTI;
			return (0);
		}
	}
	/*
	 * An attachment of another type is read as text when it cannot be
	 * binary (7bit, 8bit, quoted-printable) or its name says it is a
	 * log: mail clients send kernel-boot.log as octet-stream.
	 */
	if (p->type == P_BIN && !p->media && !p->multi &&
	    (p->cte != T_B64 || p->logname))
		p->type = P_TEXT;
	m->st.parts++;
	if (p->type == P_BIN)
		m->st.binary++;
	else
		m->st.text++;
	return (0);
}

/*
 * Is b[0..n) a boundary line of an open multipart?  Its level in
 * *lvl, and *close for a closing one ("--bound--").
 */
static int
boundary(const struct kl_mime *m, const uint8_t *b, size_t n, size_t *lvl,
    int *close)
{
	size_t	i, k, j;

	if (m->depth == 0 || n < 3 || b[0] != '-' || b[1] != '-')
		return (0);
	while (n > 2 && (b[n - 1] == ' ' || b[n - 1] == '\t' ||
	    b[n - 1] == '\r'))
		n--;
	for (i = m->depth; i-- > 0;) {
		k = m->blens[i];
		if (n < 2 + k || memcmp(b + 2, m->bounds[i], k) != 0)
			continue;
		j = n - 2 - k;
		if (j == 0 || (j == 2 && b[2 + k] == '-' &&
		    b[3 + k] == '-')) {
			*lvl = i;
			*close = j == 2;
			return (1);
		}
	}
	return (0);
}

/* A message starts here. */
static int
msg_begin(struct kl_mime *m)
{
	int	rc = 0;

	memset(&m->msg, 0, sizeof(m->msg));
	m->msg.index = m->st.messages++;
	m->msg.offset = m->off;
	m->msg.line = m->line;
	m->id[0] = '\0';
	m->inmsg = 1;
	m->top = 1;
	m->begun = 0;
	m->errs = 0;
	m->depth = 0;
	m->hlen = 0;
	part_init(&m->cur);
	m->state = S_HEAD;
	m->dec = 0;
	m->dlen = 0;
	m->nseg = m->seg0 = 0;
	/* The begin event waits for the Message-ID: see begin_now(). */
	return (rc);
}

/* The message ends here (the next one starts, or the input ends). */
static int
msg_end(struct kl_mime *m)
{
	int	rc;

	if (!m->inmsg)
		return (0);
	if (!m->begun) {
		if (m->hlen > 0 && m->state == S_HEAD)
			field_done(m);
		if ((rc = kl_mime_begin_now(m)) != 0)
			return (rc);
	}
	if ((rc = kl_mime_part_end(m)) != 0)
		return (rc);
	if (m->depth > 0 && (rc = kl_mime_damage(m, E_BOUND,
	    "missing closing MIME boundary")) != 0)
		return (rc);
	m->inmsg = 0;
	m->depth = 0;
	if (m->ops.end != NULL && (rc = m->ops.end(m->ops.arg, &m->msg)) != 0)
		m->stopped = 1;
	/* The map stays until the next message begins. */
	return (rc);
}

/* Is b[0..n) an mbox "From " line? */
static int
from_line(const struct kl_mime *m, const uint8_t *b, size_t n)
{
	return (m->box == KL_MIME_MBOX && n >= 5 &&
	    memcmp(b, "From ", 5) == 0 &&
	    (m->prev_blank || !m->inmsg));
}

/*
 * One stored line b[0..n) (nl: the bytes of its newline, 0 when it has
 * none: the end of the input, or a piece of a longer line; cont: this
 * continues such a piece).
 */
static int
stored_line(struct kl_mime *m, const uint8_t *b, size_t n, size_t nl,
    int cont)
{
	size_t	lvl, len = n;
	int	close, rc = 0, blank;

	while (len > 0 && b[len - 1] == '\r')
		len--;
	blank = len == 0 && !cont;
	if (!cont && from_line(m, b, n)) {
		if ((rc = msg_end(m)) != 0)
			return (rc);
		return (msg_begin(m));
	}
	if (!m->inmsg) {
		if (m->st.messages > 0 && m->box == KL_MIME_MESSAGE) {
			/* Past the end of a single message: nothing. */
			return (0);
		}
		if ((rc = msg_begin(m)) != 0)
			return (rc);
	}
	if (!cont && boundary(m, b, n, &lvl, &close)) {
		if (!m->begun && (rc = kl_mime_begin_now(m)) != 0)
			return (rc);
		if ((rc = kl_mime_part_end(m)) != 0)
			return (rc);
		if (lvl + 1 < m->depth && (rc = kl_mime_damage(m, E_BOUND,
		    "missing closing MIME boundary")) != 0)
			return (rc);
		m->depth = lvl + 1;
		part_init(&m->cur);
		if (close) {
			m->depth = lvl;
			m->cur.type = P_MULTI;	/* the epilogue */
			m->state = S_BODY;
		} else {
			m->state = S_HEAD;
			m->hlen = 0;
		}
		return (0);
	}
	/* mboxrd and mboxo: a ">From " line lost one '>' when stored. */
	if (!cont && m->box == KL_MIME_MBOX && m->state == S_BODY &&
	    n > 5 && b[0] == '>') {
		size_t	i = 0;

		while (i < n && b[i] == '>')
			i++;
		if (n - i >= 5 && memcmp(b + i, "From ", 5) == 0) {
			m->off++;
			m->col++;
			rc = kl_mime_body_line(m, b + 1, n - 1, nl);
			m->off--;
			m->col--;
			return (rc);
		}
	}
	if (m->state == S_HEAD) {
		if (blank) {
			rc = head_done(m);
			if (rc == 0 && !m->begun && m->state == S_BODY)
				rc = kl_mime_begin_now(m);
			if (rc == 0 && m->state == S_BODY)
				rc = charset_check(m);
			return (rc);
		}
		if (!cont && (b[0] == ' ' || b[0] == '\t') && m->hlen > 0) {
			/* A folded field: unfold. */
		} else if (!cont) {
			if (m->hlen > 0)
				field_done(m);
			if (field_name(b, len) == 0 && !m->top) {
				/* Part bodies without a header. */
				m->state = S_BODY;
				if ((rc = head_done(m)) != 0)
					return (rc);
				return (kl_mime_body_line(m, b, n, nl));
			}
		}
		if (len > HDR_MAX - m->hlen)
			len = HDR_MAX - m->hlen;
		memcpy(m->hdr + m->hlen, b, len);
		m->hlen += len;
		return (0);
	}
	return (kl_mime_body_line(m, b, n, nl));
}

/* Feed stored bytes; 0, 1 when a callback stopped, -1 on error. */
int
kl_mime_feed(struct kl_mime *m, const void *p, size_t n,
    struct kl_error *err)
{
	const uint8_t	*b = p, *e;
	size_t		 k, take;
	int		 rc;

	if (m->stopped)
		return (1);
	while (n > 0) {
		e = memchr(b, '\n', n);
		k = e == NULL ? n : (size_t)(e - b);
		take = k;
		if (take > KL_MIME_LINE_MAX - m->llen)
			take = KL_MIME_LINE_MAX - m->llen;
		memcpy(m->lbuf + m->llen, b, take);
		m->llen += take;
		b += take;
		n -= take;
		if (m->llen == KL_MIME_LINE_MAX) {
			/* A long line: read in pieces. */
			rc = stored_line(m, m->lbuf, m->llen, 0, m->col > 1);
			m->off += m->llen;
			m->col += m->llen;
			m->llen = 0;
			if (rc != 0)
				goto out;
			continue;
		}
		if (e == NULL || take < k)
			break;
		rc = stored_line(m, m->lbuf, m->llen, 1, m->col > 1);
		m->prev_blank = m->llen == 0 ||
		    (m->llen == 1 && m->lbuf[0] == '\r');
		if (m->col > 1)
			m->prev_blank = 0;
		m->off += m->llen + 1;
		m->line++;
		m->col = 1;
		m->llen = 0;
		b++;
		n--;
		if (rc != 0)
			goto out;
	}
	return (0);
out:
	if (rc == -1) {
		kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
		if (err != NULL)
			err->line = m->line;
	}
	m->stopped = 1;
	return (rc);
}

/* The input ended: the last line and the last message. */
int
kl_mime_end(struct kl_mime *m, struct kl_error *err)
{
	int	rc = 0;

	if (m->stopped)
		return (1);
	if (m->llen > 0) {
		rc = stored_line(m, m->lbuf, m->llen, 0, m->col > 1);
		m->off += m->llen;
		m->col += m->llen;
		m->llen = 0;
	}
	if (rc == 0 && m->inmsg && m->state == S_HEAD && !m->begun &&
	    m->st.messages > 0)
		rc = kl_mime_damage(m, E_TRUNC, "message ends in its header");
	if (rc == 0)
		rc = msg_end(m);
	if (rc == -1)
		kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
	m->stopped = 1;
	return (rc);
}
