/*
 * mime.c - mail containers and MIME bodies, read as a stream.
 *
 * A container is an mbox (messages after "From " lines, mboxo or
 * mboxrd: ">From " lines lose one '>') or one message (an .eml, a
 * maildir file).  Each message is given to the caller as a unit of its
 * own: begin, the decoded text of its text parts, end.  Headers are
 * read, not scanned.  Bodies: multipart (nested, by boundary), nested
 * message/rfc822, quoted-printable and base64 decoded, charsets
 * ISO-8859-* and Windows code pages read into UTF-8 (U+00A0 read as a
 * space), format=flowed lines joined, HTML reduced to its text.  Parts
 * that are not text are counted and skipped.
 *
 * Every decoded byte keeps where it is stored (a map of segments, per
 * message, trimmed by the caller as its scanner settles), so findings
 * point at the file as stored and a rewriter can write a token back in
 * its own encoding, in place and of the same size (kl_mime_put).
 *
 * Memory is bounded: one stored line (KL_MIME_LINE_MAX, longer lines
 * are read in pieces), one decoded line, one header field, and the map
 * of what the caller has not settled.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

#define HDR_MAX		(8u << 10)	/* bytes of one header field kept */
#define BOUND_MAX	72		/* RFC 2046: 70, and slack */
#define ENT_MAX		10		/* bytes of an HTML entity */
#define TAG_MAX		8		/* bytes of an HTML tag name kept */

/* Error kinds reported once per message. */
#define E_QP		0x01
#define E_B64		0x02
#define E_BOUND		0x04
#define E_NOBOUND	0x08
#define E_DEPTH		0x10
#define E_TRUNC		0x40

/* What a part's body is. */
enum ptype {
	P_TEXT = 0,
	P_HTML,
	P_MULTI,		/* preamble or epilogue: skipped */
	P_BIN,			/* counted, skipped */
};

/* Its transfer encoding. */
enum cte {
	T_PLAIN = 0,
	T_QP,
	T_B64,
};

/* Its charset. */
enum cset {
	CS_UTF8 = 0,
	CS_LATIN1,
	CS_1252,
};

/* Where the reader is. */
enum state {
	S_START = 0,		/* before the first message */
	S_HEAD,			/* header fields of a message or part */
	S_BODY,
};

/* A run of decoded bytes and where they are stored. */
struct seg {
	uint64_t	 dec;		/* decoded offset in the message */
	uint64_t	 sto;		/* stored offset of the first */
	uint64_t	 line;		/* its stored line */
	uint64_t	 col;		/* its 1-based stored column */
	uint32_t	 len;
	uint8_t		 kind;		/* enum kl_mime_kind */
	uint8_t		 sub;		/* B64: index of the first in its quad */
};

/* A stored location, for one decoded byte. */
struct loc {
	uint64_t	 sto;
	uint64_t	 line;
	uint64_t	 col;
	uint8_t		 kind;
	uint8_t		 sub;
};

/* The header of a part as it is read. */
struct part {
	enum ptype	 type;
	enum cte	 cte;
	enum cset	 cs;
	int		 flowed;
	int		 delsp;
	int		 multi;		/* multipart/... */
	int		 rfc822;	/* message/rfc822 */
	int		 media;		/* image/, audio/, video/, font/ */
	int		 logname;	/* its file name says log or text */
	char		 bound[BOUND_MAX + 1];
	size_t		 blen;
};

struct kl_mime {
	enum kl_mime_box	 box;
	struct kl_mime_ops	 ops;
	enum state		 state;
	struct kl_mime_stats	 st;
	/* the stored stream */
	uint8_t			*lbuf;		/* a stored line */
	size_t			 llen;
	uint64_t		 off;		/* stored offset of lbuf[0] */
	uint64_t		 line;		/* its stored line, 1-based */
	uint64_t		 col;		/* its column (a cut line: > 1) */
	int			 prev_blank;	/* the last line was empty */
	int			 stopped;
	/* the message */
	int			 inmsg;
	struct kl_mime_msg	 msg;
	char			 id[KL_MIME_ID_MAX + 1];
	int			 top;		/* reading its own header */
	int			 begun;		/* its begin event was sent */
	unsigned		 errs;		/* E_* said for this message */
	/* the part */
	struct part		 cur;
	char			 bounds[KL_MIME_DEPTH][BOUND_MAX + 1];
	size_t			 blens[KL_MIME_DEPTH];
	size_t			 depth;
	char			*hdr;		/* a header field, unfolded */
	size_t			 hlen;
	/* decoding */
	uint32_t		 b64;		/* bits held */
	unsigned		 b64n;		/* sextets held */
	struct loc		 b64at;		/* where the quad started */
	uint64_t		 b64last;	/* stored offset of the last */
	int			 intag;		/* HTML: inside <...> */
	int			 inskip;	/* HTML: inside script/style */
	char			 tag[TAG_MAX + 1];
	size_t			 taglen;
	int			 tagend;	/* the tag is </...> */
	uint8_t			 ent[ENT_MAX];	/* HTML: an entity read */
	struct loc		 entl[ENT_MAX];	/* ... where each byte is */
	struct loc		 entat;
	size_t			 entlen;
	int			 join;		/* flowed: continue this line */
	int			 joinq;		/* ... its quote marks next */
	/* the decoded line, and the map */
	uint8_t			*dbuf;
	size_t			 dlen;
	uint64_t		 dec;		/* decoded offset of dbuf[0]+dlen */
	struct seg		*segs;
	size_t			 nseg;
	size_t			 seg0;		/* first kept */
	size_t			 segcap;
};

static int	dec_byte(struct kl_mime *, uint8_t, const struct loc *);
static int	begin_now(struct kl_mime *);

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

/* Report damage once per kind per message; non-zero stops. */
static int
damage(struct kl_mime *m, unsigned kind, const char *what)
{
	struct kl_error	err;

	if (m->errs & kind)
		return (0);
	m->errs |= kind;
	m->st.errors++;
	if (m->ops.error == NULL)
		return (0);
	memset(&err, 0, sizeof(err));
	kl_error_set(&err, KL_EFORMAT, 0, "%s", what);
	err.line = m->line;
	return (m->ops.error(m->ops.arg, &err));
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

/* Add one decoded byte at l to the map; -1 when out of memory. */
static int
map_add(struct kl_mime *m, const struct loc *l)
{
	struct seg	*s, *ns;
	size_t		 nc;

	if (m->nseg > m->seg0) {
		s = &m->segs[m->nseg - 1];
		if (s->kind == l->kind && s->line == l->line &&
		    s->len < UINT32_MAX && s->dec + s->len == m->dec) {
			if (l->kind == KL_MIME_LIT &&
			    l->sto == s->sto + s->len) {
				s->len++;
				return (0);
			}
			if (l->kind == KL_MIME_B64 && l->sto == s->sto +
			    (uint64_t)((s->sub + s->len) / 3) * 4 &&
			    l->sub == (s->sub + s->len) % 3) {
				s->len++;
				return (0);
			}
		}
	}
	if (m->seg0 > 0 && m->seg0 >= m->nseg / 2) {
		memmove(m->segs, m->segs + m->seg0,
		    (m->nseg - m->seg0) * sizeof(*m->segs));
		m->nseg -= m->seg0;
		m->seg0 = 0;
	}
	if (m->nseg == m->segcap) {
		nc = m->segcap == 0 ? 256 : m->segcap;
		if (kl_mul(nc, 2, &nc) == -1 ||
		    nc > SIZE_MAX / sizeof(*ns) ||
		    (ns = realloc(m->segs, nc * sizeof(*ns))) == NULL)
			return (-1);
		m->segs = ns;
		m->segcap = nc;
	}
	s = &m->segs[m->nseg++];
	s->dec = m->dec;
	s->sto = l->sto;
	s->line = l->line;
	s->col = l->col;
	s->len = 1;
	s->kind = l->kind;
	s->sub = l->sub;
	return (0);
}

/* Give the decoded line to the caller; non-zero stops. */
static int
line_out(struct kl_mime *m)
{
	int	rc = 0;

	/* Text before the header ended (a damaged one): begin first. */
	if (m->dlen > 0 && !m->begun && (rc = begin_now(m)) != 0)
		return (rc);
	if (m->dlen > 0 && m->ops.text != NULL)
		rc = m->ops.text(m->ops.arg, m->dbuf, m->dlen);
	m->dlen = 0;
	if (rc != 0)
		m->stopped = 1;
	return (rc);
}

/* Append a decoded byte to the line; -1 out of memory, 1 stop. */
static int
line_add(struct kl_mime *m, uint8_t c, const struct loc *l)
{
	if (map_add(m, l) == -1)
		return (-1);
	m->dbuf[m->dlen++] = c;
	m->dec++;
	if (m->dlen >= KL_MIME_LINE_MAX)
		return (line_out(m));
	return (0);
}

/* Is the decoded line a flowed line that the next one continues? */
static int
flowed_soft(const struct kl_mime *m)
{
	const uint8_t	*b = m->dbuf;
	size_t		 n = m->dlen, q = 0;

	if (n == 0 || b[n - 1] != ' ')
		return (0);
	while (q < n && b[q] == '>')
		q++;
	/* The signature separator "-- " is hard. */
	if (n - q == 3 && memcmp(b + q, "-- ", 3) == 0)
		return (0);
	return (1);
}

/*
 * The last stage: a decoded text byte.  Carriage returns go; flowed
 * lines join (the quote marks and the stuffed space of the line that
 * continues are dropped).
 */
static int
text_byte(struct kl_mime *m, uint8_t c, const struct loc *l)
{
	if (c == '\r')
		return (0);
	if (m->cur.flowed && m->join) {
		if (m->joinq && c == '>')
			return (0);
		m->joinq = 0;
		m->join = 0;
		if (c == ' ')
			return (0);
	}
	if (c == '\n') {
		if (m->cur.flowed && flowed_soft(m)) {
			if (m->cur.delsp) {
				m->dlen--;
				m->dec--;
				if (m->nseg > m->seg0 &&
				    --m->segs[m->nseg - 1].len == 0)
					m->nseg--;
			}
			m->join = m->joinq = 1;
			return (0);
		}
		if (line_add(m, c, l) != 0)
			return (m->stopped ? 1 : -1);
		return (line_out(m));
	}
	return (line_add(m, c, l));
}

/* An HTML tag ended: a line break for those that make one. */
static int
tag_done(struct kl_mime *m, const struct loc *l)
{
	static const char *const brk[] = {
		"br", "p", "div", "tr", "li", "pre", "h1", "h2", "h3",
	};
	size_t	i;

	m->tag[m->taglen] = '\0';
	if (strcmp(m->tag, "script") == 0 || strcmp(m->tag, "style") == 0)
		m->inskip = !m->tagend;
	for (i = 0; i < sizeof(brk) / sizeof(brk[0]); i++)
		if (strcmp(m->tag, brk[i]) == 0 &&
		    (m->tagend || strcmp(m->tag, "br") == 0))
			return (text_byte(m, '\n', l));
	return (0);
}

/* The byte an HTML entity names, or 0. */
static int
entity(const uint8_t *e, size_t n)
{
	static const struct {
		const char	*name;
		uint8_t		 c;
	} ents[] = {
		{ "nbsp", ' ' }, { "lt", '<' }, { "gt", '>' },
		{ "amp", '&' }, { "quot", '"' }, { "apos", '\'' },
	};
	size_t		i;
	unsigned	v = 0;

	if (n >= 2 && e[0] == '#') {
		for (i = 1; i < n && i < 6; i++) {
			if (e[i] < '0' || e[i] > '9')
				return (0);
			v = v * 10 + (unsigned)(e[i] - '0');
		}
		if (v == 160)
			return (' ');
		return (v > 0 && v < 128 ? (int)v : 0);
	}
	for (i = 0; i < sizeof(ents) / sizeof(ents[0]); i++)
		if (strlen(ents[i].name) == n &&
		    memcmp(ents[i].name, e, n) == 0)
			return (ents[i].c);
	return (0);
}

/* Give the bytes of an entity that was not one as they are. */
static int
entity_flush(struct kl_mime *m)
{
	size_t		i, n = m->entlen;
	int		rc;

	m->entlen = 0;
	for (i = 0; i < n; i++)
		if ((rc = text_byte(m, m->ent[i], &m->entl[i])) != 0)
			return (rc);
	return (0);
}

/* HTML: reduce to text (tags dropped, entities read). */
static int
html_byte(struct kl_mime *m, uint8_t c, const struct loc *l)
{
	struct loc	el;
	int		v, rc;

	if (m->intag) {
		if (c == '>') {
			m->intag = 0;
			return (tag_done(m, l));
		}
		if (c == '/' && m->taglen == 0)
			m->tagend = 1;
		else if (m->taglen < TAG_MAX && ((c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z') || (c >= '1' && c <= '6')))
			m->tag[m->taglen++] = (char)(c | 0x20);
		else if (m->taglen < TAG_MAX)
			m->taglen = TAG_MAX;	/* name ended */
		return (0);
	}
	if (m->entlen > 0) {
		if (c == ';') {
			if ((v = entity(m->ent + 1, m->entlen - 1)) != 0) {
				el = m->entat;
				el.kind = KL_MIME_EXP;
				m->entlen = 0;
				return (text_byte(m, (uint8_t)v, &el));
			}
		} else if (m->entlen < ENT_MAX && c != '&' && c != '<' &&
		    c > ' ') {
			m->entl[m->entlen] = *l;
			m->ent[m->entlen++] = c;
			return (0);
		}
		if ((rc = entity_flush(m)) != 0)
			return (rc);
	}
	if (c == '<') {
		m->intag = 1;
		m->taglen = 0;
		m->tagend = 0;
		return (0);
	}
	if (m->inskip)
		return (0);
	if (c == '&') {
		m->ent[0] = c;
		m->entl[0] = *l;
		m->entlen = 1;
		m->entat = *l;
		return (0);
	}
	return (text_byte(m, c, l));
}

/* Windows-1252 0x80..0x9f as Unicode (0 where it has none). */
static const uint16_t cp1252[32] = {
	0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
	0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
	0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
	0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
};

/* A decoded byte of a text part: charset, then HTML, then lines. */
static int
dec_byte(struct kl_mime *m, uint8_t c, const struct loc *l)
{
	struct loc	el;
	uint8_t		u[3];
	unsigned	cp, i, n;
	int		rc;

	if (c < 0x80 || m->cur.cs == CS_UTF8)
		return (m->cur.type == P_HTML ? html_byte(m, c, l) :
		    text_byte(m, c, l));
	/* A single-byte charset: U+00A0 is read as a space. */
	cp = c;
	if (m->cur.cs == CS_1252 && c < 0xa0)
		cp = cp1252[c - 0x80] != 0 ? cp1252[c - 0x80] : '?';
	el = *l;
	el.kind = KL_MIME_EXP;
	if (cp == 0xa0) {
		u[0] = ' ';
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (uint8_t)(0xc0 | (cp >> 6));
		u[1] = (uint8_t)(0x80 | (cp & 0x3f));
		n = 2;
	} else {
		u[0] = (uint8_t)(0xe0 | (cp >> 12));
		u[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (uint8_t)(0x80 | (cp & 0x3f));
		n = 3;
	}
	for (i = 0; i < n; i++) {
		rc = m->cur.type == P_HTML ? html_byte(m, u[i], &el) :
		    text_byte(m, u[i], &el);
		if (rc != 0)
			return (rc);
	}
	return (0);
}

/* The value of a hex digit, or -1. */
static int
hexv(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'A' && c <= 'F')
		return (c - 'A' + 10);
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	return (-1);
}

/* The value of a base64 character, -1 (not one) or -2 ('='). */
static int
b64v(uint8_t c)
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

/* The location of stored byte i of the current line. */
static void
at(const struct kl_mime *m, size_t i, uint8_t kind, struct loc *l)
{
	l->sto = m->off + i;
	l->line = m->line;
	l->col = m->col + i;
	l->kind = kind;
	l->sub = 0;
}

/* Give out the bytes of a complete base64 quad (or a padded one). */
static int
b64_quad(struct kl_mime *m, int one_line)
{
	struct loc	l = m->b64at;
	uint8_t		o[3];
	unsigned	n, i;
	int		rc;

	n = m->b64n == 4 ? 3 : m->b64n == 3 ? 2 : m->b64n == 2 ? 1 : 0;
	m->b64 <<= 6 * (4 - m->b64n);
	o[0] = (uint8_t)(m->b64 >> 16);
	o[1] = (uint8_t)(m->b64 >> 8);
	o[2] = (uint8_t)m->b64;
	m->b64 = 0;
	m->b64n = 0;
	l.kind = one_line ? KL_MIME_B64 : KL_MIME_EXP;
	for (i = 0; i < n; i++) {
		l.sub = (uint8_t)i;
		if ((rc = dec_byte(m, o[i], &l)) != 0)
			return (rc);
	}
	return (0);
}

/* A stored line of a base64 text part. */
static int
body_b64(struct kl_mime *m, const uint8_t *b, size_t n)
{
	size_t	i;
	int	v, rc;

	for (i = 0; i < n; i++) {
		if (b[i] == ' ' || b[i] == '\t' || b[i] == '\r')
			continue;
		if ((v = b64v(b[i])) == -1) {
			if ((rc = damage(m, E_B64, "invalid base64")) != 0)
				return (rc);
			continue;
		}
		if (v == -2) {
			/* Padding ends the quad. */
			if (m->b64n >= 2 && (rc = b64_quad(m, m->off + i -
			    m->b64at.sto < 4)) != 0)
				return (rc);
			m->b64n = 0;
			m->b64 = 0;
			continue;
		}
		if (m->b64n == 0)
			at(m, i, KL_MIME_B64, &m->b64at);
		m->b64 = (m->b64 << 6) | (uint32_t)v;
		if (++m->b64n == 4 && (rc = b64_quad(m, m->off + i ==
		    m->b64at.sto + 3)) != 0)
			return (rc);
	}
	return (0);
}

/* A stored line of a quoted-printable text part (nl: it had one). */
static int
body_qp(struct kl_mime *m, const uint8_t *b, size_t n, size_t nl)
{
	struct loc	l;
	size_t		i;
	int		hi, lo, rc;

	while (n > 0 && (b[n - 1] == ' ' || b[n - 1] == '\t' ||
	    b[n - 1] == '\r'))
		n--;
	for (i = 0; i < n; i++) {
		if (b[i] != '=') {
			at(m, i, KL_MIME_LIT, &l);
			if ((rc = dec_byte(m, b[i], &l)) != 0)
				return (rc);
			continue;
		}
		if (i + 1 == n)
			return (0);		/* a soft line break */
		if (i + 2 < n && (hi = hexv(b[i + 1])) >= 0 &&
		    (lo = hexv(b[i + 2])) >= 0) {
			at(m, i, KL_MIME_QP, &l);
			if ((rc = dec_byte(m, (uint8_t)(hi << 4 | lo),
			    &l)) != 0)
				return (rc);
			i += 2;
			continue;
		}
		if ((rc = damage(m, E_QP, "invalid quoted-printable")) != 0)
			return (rc);
		at(m, i, KL_MIME_LIT, &l);
		if ((rc = dec_byte(m, b[i], &l)) != 0)
			return (rc);
	}
	if (nl == 0)
		return (0);
	at(m, n, KL_MIME_LIT, &l);
	return (dec_byte(m, '\n', &l));
}

/* A stored line of a text part in 7bit, 8bit or binary. */
static int
body_plain(struct kl_mime *m, const uint8_t *b, size_t n, size_t nl)
{
	struct loc	l;
	size_t		i;
	int		rc;

	for (i = 0; i < n + (nl > 0); i++) {
		at(m, i, KL_MIME_LIT, &l);
		if ((rc = dec_byte(m, i < n ? b[i] : '\n', &l)) != 0)
			return (rc);
	}
	return (0);
}

/* A leaf part ends: flush what its decoders hold. */
static int
part_end(struct kl_mime *m)
{
	int	rc = 0;

	if (m->state == S_BODY && (m->cur.type == P_TEXT ||
	    m->cur.type == P_HTML)) {
		if (m->cur.cte == T_B64 && m->b64n > 0) {
			if (m->b64n == 1)
				rc = damage(m, E_B64, "truncated base64");
			else
				rc = b64_quad(m, 0);
			if (rc != 0)
				return (rc);
		}
		if (m->entlen > 0 && (rc = entity_flush(m)) != 0)
			return (rc);
		if (m->dlen > 0) {
			/* A last line without its newline ends here. */
			if (m->dbuf[m->dlen - 1] != '\n') {
				struct loc	l;

				at(m, 0, KL_MIME_EXP, &l);
				if ((rc = line_add(m, '\n', &l)) != 0)
					return (rc);
			}
			if ((rc = line_out(m)) != 0)
				return (rc);
		}
	}
	m->b64 = 0;
	m->b64n = 0;
	m->intag = m->inskip = 0;
	m->entlen = 0;
	m->join = m->joinq = 0;
	return (0);
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
		if (param(v, n, "charset", val, sizeof(val))) {
			if (has_prefix((uint8_t *)val, strlen(val),
			    "iso-8859-") || has_prefix((uint8_t *)val,
			    strlen(val), "latin"))
				p->cs = CS_LATIN1;
			else if (has_prefix((uint8_t *)val, strlen(val),
			    "windows-") || has_prefix((uint8_t *)val,
			    strlen(val), "cp12"))
				p->cs = CS_1252;
			else
				p->cs = CS_UTF8;
		}
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
			if ((rc = damage(m, E_NOBOUND, "multipart without a "
			    "boundary: read as text")) != 0)
				return (rc);
			p->type = P_TEXT;
			p->multi = 0;
		} else if (m->depth == KL_MIME_DEPTH) {
			if ((rc = damage(m, E_DEPTH, "multiparts nested too "
			    "deep: the inner ones are skipped")) != 0)
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

/* Send the begin event of the message once its header is read. */
static int
begin_now(struct kl_mime *m)
{
	int	rc = 0;

	if (!m->begun && m->ops.begin != NULL)
		rc = m->ops.begin(m->ops.arg, &m->msg);
	m->begun = 1;
	if (rc != 0)
		m->stopped = 1;
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
		if ((rc = begin_now(m)) != 0)
			return (rc);
	}
	if ((rc = part_end(m)) != 0)
		return (rc);
	if (m->depth > 0 && (rc = damage(m, E_BOUND,
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

/* A body line of the current part. */
static int
body_line(struct kl_mime *m, const uint8_t *b, size_t n, size_t nl)
{
	switch (m->cur.type) {
	case P_TEXT:
	case P_HTML:
		if (m->cur.cte == T_B64)
			return (body_b64(m, b, n));
		if (m->cur.cte == T_QP)
			return (body_qp(m, b, n, nl));
		return (body_plain(m, b, n, nl));
	default:
		return (0);
	}
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
		if (!m->begun && (rc = begin_now(m)) != 0)
			return (rc);
		if ((rc = part_end(m)) != 0)
			return (rc);
		if (lvl + 1 < m->depth && (rc = damage(m, E_BOUND,
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
			rc = body_line(m, b + 1, n - 1, nl);
			m->off--;
			m->col--;
			return (rc);
		}
	}
	if (m->state == S_HEAD) {
		if (blank) {
			rc = head_done(m);
			if (rc == 0 && !m->begun && m->state == S_BODY)
				rc = begin_now(m);
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
				return (body_line(m, b, n, nl));
			}
		}
		if (len > HDR_MAX - m->hlen)
			len = HDR_MAX - m->hlen;
		memcpy(m->hdr + m->hlen, b, len);
		m->hlen += len;
		return (0);
	}
	return (body_line(m, b, n, nl));
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
		rc = damage(m, E_TRUNC, "message ends in its header");
	if (rc == 0)
		rc = msg_end(m);
	if (rc == -1)
		kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
	m->stopped = 1;
	return (rc);
}

/* The kept segment holding decoded offset dec, or NULL. */
static const struct seg *
seg_find(const struct kl_mime *m, uint64_t dec)
{
	size_t	lo = m->seg0, hi = m->nseg, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->segs[mid].dec + m->segs[mid].len <= dec)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == m->nseg || m->segs[lo].dec > dec)
		return (NULL);
	return (&m->segs[lo]);
}

/*
 * Where the decoded byte at offset dec of the current message is
 * stored: 0, or -1 when the map no longer holds it.
 */
int
kl_mime_place(const struct kl_mime *m, uint64_t dec, struct kl_mime_pos *pos)
{
	const struct seg	*s;
	uint64_t		 k, d;

	if ((s = seg_find(m, dec)) == NULL)
		return (-1);
	k = dec - s->dec;
	d = k;
	if (s->kind == KL_MIME_B64)
		d = (uint64_t)((s->sub + k) / 3) * 4;
	else if (s->kind != KL_MIME_LIT)
		d = 0;
	pos->offset = s->sto + d;
	pos->line = s->line;
	pos->column = s->col + d;
	pos->kind = (enum kl_mime_kind)s->kind;
	if (s->kind == KL_MIME_B64)
		pos->kind = KL_MIME_B64;
	return (0);
}

/*
 * The stored offset below which every byte is settled when the caller's
 * scanner has settled the decoded bytes below dec.
 */
uint64_t
kl_mime_settled(const struct kl_mime *m, uint64_t dec)
{
	struct kl_mime_pos	pos;

	if (kl_mime_place(m, dec, &pos) == 0)
		return (pos.offset);
	if (m->nseg > m->seg0 && dec < m->segs[m->seg0].dec)
		return (m->segs[m->seg0].sto);
	/* All given out and settled: up to the line being read. */
	if (m->dlen == 0 && m->b64n == 0 && m->entlen == 0)
		return (m->off);
	return (m->nseg > m->seg0 ? m->segs[m->nseg - 1].sto : m->off);
}

/* Forget the map below decoded offset dec (the caller settled it). */
void
kl_mime_trim(struct kl_mime *m, uint64_t dec)
{
	while (m->seg0 < m->nseg &&
	    m->segs[m->seg0].dec + m->segs[m->seg0].len <= dec)
		m->seg0++;
}

/* The base64 character of v. */
static uint8_t
b64c(unsigned v)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";

	return ((uint8_t)tab[v & 63]);
}

/*
 * Write the decoded byte at dec as c, in its stored encoding, into the
 * held stored bytes buf[0..len) (buf[0] at offset base): in place and
 * of the same size.  0, or -1 when it cannot be.
 */
int
kl_mime_put(const struct kl_mime *m, uint64_t dec, uint8_t c, uint8_t *buf,
    uint64_t base, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	struct kl_mime_pos	 pos;
	const struct seg	*s;
	uint8_t			*q, o[3];
	uint32_t		 v;
	size_t			 at, i, np;
	int			 x;

	if (kl_mime_place(m, dec, &pos) == -1 || pos.offset < base ||
	    pos.offset - base >= len)
		return (-1);
	at = (size_t)(pos.offset - base);
	q = buf + at;
	switch (pos.kind) {
	case KL_MIME_LIT:
		*q = c;
		return (0);
	case KL_MIME_QP:
		if (len - at < 3)
			return (-1);
		q[1] = (uint8_t)hex[c >> 4];
		q[2] = (uint8_t)hex[c & 15];
		return (0);
	case KL_MIME_B64:
		if (len - at < 4)
			return (-1);
		s = seg_find(m, dec);
		v = 0;
		np = 0;
		for (i = 0; i < 4; i++) {
			x = b64v(q[i]);
			if (x == -1)
				return (-1);
			if (x == -2) {
				np++;
				x = 0;
			} else if (np > 0)
				return (-1);
			v = v << 6 | (uint32_t)x;
		}
		o[0] = (uint8_t)(v >> 16);
		o[1] = (uint8_t)(v >> 8);
		o[2] = (uint8_t)v;
		i = (size_t)((s->sub + (dec - s->dec)) % 3);
		if (i >= 3 - np)
			return (-1);
		o[i] = c;
		v = (uint32_t)o[0] << 16 | (uint32_t)o[1] << 8 | o[2];
		for (i = 0; i < 4 - np; i++)
			q[i] = b64c(v >> (18 - 6 * i));
		return (0);
	default:
		return (-1);
	}
}
