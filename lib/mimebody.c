/*
 * mimebody.c - decodes the body lines of a text part: quoted-printable
 * and base64, charsets ISO-8859-* and Windows code pages read into
 * UTF-8 (U+00A0 read as a space), format=flowed lines joined, HTML
 * reduced to its text; each decoded line goes to the caller, and the
 * stored place of every byte to the map (mimemap.c reads it).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "mime-int.h"

static int	dec_byte(struct kl_mime *, uint8_t, const struct loc *);

/* Report damage once per kind per message; non-zero stops. */
int
kl_mime_damage(struct kl_mime *m, unsigned kind, const char *what)
{
	struct kl_error	err;

	if (m->errs & kind)
		return (0);
	m->errs |= kind;
	if (kind != E_NOTE)
		m->st.errors++;
	if (m->ops.error == NULL)
		return (0);
	memset(&err, 0, sizeof(err));
	kl_error_set(&err, kind == E_NOTE ? KL_EOK : KL_EFORMAT, 0, "%s",
	    what);
	err.line = m->line;
	return (m->ops.error(m->ops.arg, &err));
}

/* Send the begin event of the message once its header is read. */
int
kl_mime_begin_now(struct kl_mime *m)
{
	int	rc = 0;

	if (!m->begun && m->ops.begin != NULL)
		rc = m->ops.begin(m->ops.arg, &m->msg);
	m->begun = 1;
	if (rc != 0)
		m->stopped = 1;
	return (rc);
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
	if (m->dlen > 0 && !m->begun && (rc = kl_mime_begin_now(m)) != 0)
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
		if ((v = kl_b64_value(b[i])) == -1) {
			if ((rc = kl_mime_damage(m, E_B64,
			    "invalid base64")) != 0)
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
		if (i + 2 < n && (hi = kl_hex_value(b[i + 1])) >= 0 &&
		    (lo = kl_hex_value(b[i + 2])) >= 0) {
			at(m, i, KL_MIME_QP, &l);
			if ((rc = dec_byte(m, (uint8_t)(hi << 4 | lo),
			    &l)) != 0)
				return (rc);
			i += 2;
			continue;
		}
		if ((rc = kl_mime_damage(m, E_QP,
		    "invalid quoted-printable")) != 0)
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
int
kl_mime_part_end(struct kl_mime *m)
{
	int	rc = 0;

	if (m->state == S_BODY && (m->cur.type == P_TEXT ||
	    m->cur.type == P_HTML)) {
		if (m->cur.cte == T_B64 && m->b64n > 0) {
			if (m->b64n == 1)
				rc = kl_mime_damage(m, E_B64,
				    "truncated base64");
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

/* A body line of the current part. */
int
kl_mime_body_line(struct kl_mime *m, const uint8_t *b, size_t n,
    size_t nl)
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
