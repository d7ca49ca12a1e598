/*
 * mime-int.h - the state of a mail reader, shared by the files that
 * frame messages (mime.c), decode their bodies (mimebody.c) and map
 * decoded bytes back to stored ones (mimemap.c).
 */
#ifndef MIME_INT_H
#define MIME_INT_H

#include <stddef.h>
#include <stdint.h>

#include "kleak.h"

#define HDR_MAX		(8u << 10)	/* bytes of one header field kept */
#define BOUND_MAX	72		/* RFC 2046: 70, and slack */
#define ENT_MAX		10		/* bytes of an HTML entity */
#define TAG_MAX		8		/* bytes of an HTML tag name kept */
#define CSNAME_MAX	40		/* bytes of a charset name kept */

/* Error kinds reported once per message. */
#define E_QP		0x01
#define E_B64		0x02
#define E_BOUND		0x04
#define E_NOBOUND	0x08
#define E_DEPTH		0x10
#define E_TRUNC		0x40
#define E_CHARSET	0x80
#define E_NOTE		0x100	/* a label it does not know: not damage */

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
	/* B64: index of the first in its quad */
	uint8_t		 sub;
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
	/* its charset is read as UTF-8 though unknown (1) or not ASCII (2) */
	int		 badcs;
	char		 csname[CSNAME_MAX + 1];
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
	/* its column (a cut line: > 1) */
	uint64_t		 col;
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
	/* decoded offset of dbuf[0]+dlen */
	uint64_t		 dec;
	struct seg		*segs;
	size_t			 nseg;
	size_t			 seg0;		/* first kept */
	size_t			 segcap;
};

#endif /* MIME_INT_H */
