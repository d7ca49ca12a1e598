/*
 * input-int.h - the state of one kl_input_fd() call, shared by the files
 * of the input layer only (input.c, sniff.c, source.c, gzip-isal.c,
 * xz-mt.c, archive.c, pipe.c): their limits, levels and prototypes.
 */
#ifndef INPUT_INT_H
#define INPUT_INT_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include "kleak.h"

struct archive;

/* clang-format off */
#define PEEK_MAX	(64u << 10)	/* prefix read ahead of a stream */
#define PEEK_TEXT	4096u		/* ...or this much without a NUL */
#define CHUNK		(256u << 10)	/* data callback size */
#define RBUF		(128u << 10)	/* a reader's read buffer */
#define NAME_BUF	1024		/* a derived member name */
#define LVL_MAX		(2 * KL_INPUT_DEPTH_MAX + 2)
#define RATIO_FLOOR	(UINT64_C(64) << 20)
#define RETRY_MAX	4096		/* failed headers in a row */
#define AHEAD_MAX	(UINT64_C(64) << 20) /* read ahead by a reader */
#define OBUF		(256u << 10)	/* an ISA-L inflater's output */

/* What a prefix starts. */
enum cont {
	C_NONE = 0,			/* a unit */
	C_FILTER,			/* a compressed stream */
	C_ARCHIVE,			/* an archive */
};

/* Why the input stops early. */
enum stop {
	ST_NONE = 0,
	ST_LIMIT,			/* max_total or max_ratio */
	ST_IO,				/* read(2) failed */
	ST_CB,				/* a callback asked to */
};

/* Where an ISA-L gzip inflater is in its stream. */
enum zstate {
	Z_MEMBER = 0,			/* inside a gzip member */
	Z_AFTER,			/* after a member */
	Z_PAD,				/* in zeros after the last member */
};

/* How a stream was delivered. */
enum sres {
	S_UNIT = 0,			/* as a unit, or an error unit */
	S_NESTED,			/* through a reader that finished */
};

struct ictx;
struct pipeline;

/* One libarchive reader, and the stream it reads. */
struct lvl {
	struct ictx	*c;
	struct archive	*a;
	struct lvl	*up;		/* reader it pulls from; NULL: fd */
	int		 filter;	/* a compression, not an archive */
	int		 code;		/* ARCHIVE_FILTER_* or _FORMAT_* */
	const char	*name;		/* "gzip", "tar" */
	const uint8_t	*pre;		/* the stream's prefix */
	size_t		 prelen;
	uint8_t		*rbuf;
	uint64_t	 pos;		/* bytes handed to libarchive */
	uint64_t	 out;		/* bytes libarchive handed out */
	uint64_t	 over;		/* consumed - out, counted */
	int		 eof;		/* output (of this entry) ended */
	int		 hurt;		/* reading the output failed */
	int		 seek;		/* 7z on a regular file */
	uint64_t	 fdpos;		/* fd offset, relative to base */
	int		 gz;		/* check the gzip trailer */
	int		 srceof;	/* the source said end of data */
	uint32_t	 crc;
	uint8_t		 tail[8];	/* last bytes of the source */
	size_t		 ntail;
	const uint8_t	*blk;		/* rest of the entry's data block */
	size_t		 blklen;
	uint64_t	 hole;		/* zeros due before blk (sparse) */
	uint64_t	 opos;		/* entry offset handed out */
	int		 warned;	/* the block came with a warning */
	const uint8_t	*lastp;		/* last block given to libarchive */
	size_t		 lastn;
	uint64_t	 gzsig;		/* gzip headers seen past byte 0 */
	uint8_t		 hist[2];	/* last two bytes given */
	int		 isal;		/* gzip inflated by ISA-L, no reader */
	void		*ist;		/* its struct inflate_state */
	uint8_t		*obuf;		/* its output buffer (OBUF) */
	const uint8_t	*in;		/* source bytes not inflated yet */
	size_t		 inlen;
	uint8_t		 carry[8];	/* bytes inflate gave back */
	const uint8_t	*savin;		/* the input to go on with after */
	size_t		 savinlen;
	enum zstate	 zs;
	uint64_t	 members;	/* gzip members begun */
	uint64_t	 mout;		/* output of the current member */
	char		 zerr[96];	/* damage due after the output */
	ssize_t		(*znext)(struct ictx *, struct lvl *,
			    const uint8_t **, size_t); /* ISA-L: its reader */
	int		 xz;		/* xz decoded by liblzma, no reader */
	int		 zenomem;	/* zerr is a lack of memory */
	int		 srcfail;	/* the source broke (xz) */
};

/* The state of one kl_input_fd() call. */
struct ictx {
	int				 fd;
	const char			*path;
	const struct kl_input_ops	*ops;
	unsigned			 max_depth;
	uint64_t			 max_member;	/* UINT64_MAX: none */
	uint64_t			 max_total;
	uint64_t			 max_ratio;
	/* st_size, 0: unknown */
	uint64_t			 disk;
	int				 seekable;
	int64_t				 base;		/* fd offset at start */
	uint64_t			 raw;		/* bytes read(2) */
	int				 fdeof;
	int				 fdfail;
	uint64_t			 expanded;
	enum stop			 stop;
	struct kl_error			 cause;		/* not reported yet */
	/* cause has no offset */
	int				 whole;
	const char			*chain[LVL_MAX + 1];
	size_t				 nchain;
	uint8_t				*chunk;
	uint8_t				*pre[LVL_MAX + 1];
	uint8_t				*rbuf[LVL_MAX];
	uint8_t				*obuf[LVL_MAX];
	void				*ist[LVL_MAX];
	void				*xst[LVL_MAX];	/* lzma_stream */
	char				*dname[LVL_MAX];
	struct lvl			 lvl[LVL_MAX];
	int				 crcok;
	int				 noisal;	/* zlib for gzip */
	int				 nolzmamt;	/* libarchive for xz */
	unsigned			 xzthreads;	/* 0: online CPUs */
	struct pipeline			*pl;		/* producer side */
	uint32_t			 crctab[8][256];
};
/* clang-format on */

/* Little-endian 32-bit value at p. */
static inline uint32_t
kl_le32(const uint8_t *p)
{
	return ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24);
}

/* Little-endian 64-bit value at p. */
static inline uint64_t
kl_le64(const uint8_t *p)
{
	return ((uint64_t)kl_le32(p) | (uint64_t)kl_le32(p + 4) << 32);
}

/* sniff.c */
enum cont	 kl_sniff_container(const uint8_t *, size_t, int *);

/* source.c */
void		 kl_src_crc_init(uint32_t [8][256]);
void		 kl_src_cause_set(struct ictx *, enum kl_errcode, int,
		    const char *, ...) KL_PRINTFLIKE(4, 5);
void		 kl_src_cause_whole(struct ictx *, const char *, ...)
		    KL_PRINTFLIKE(2, 3);
void		 kl_src_cause_clear(struct ictx *);
void		 kl_src_cause_ar(struct ictx *, struct lvl *);
const char	*kl_src_inner_name(const struct ictx *);
void		 kl_src_take_cause(struct ictx *, uint64_t, struct kl_error *);
uint64_t	 kl_src_room(const struct ictx *, int *);
void		 kl_src_trip(struct ictx *, int);
int		 kl_src_grow(struct ictx *, uint64_t);
int		 kl_src_over_update(struct ictx *, struct lvl *);
int		 kl_src_all_zero(const uint8_t *, size_t);
ssize_t		 kl_src_next(struct ictx *, struct lvl *, const uint8_t **,
		    uint8_t *, size_t, size_t);
void		 kl_src_tail_keep(struct lvl *, const uint8_t *, size_t);
int		 kl_src_input(struct ictx *, struct lvl *);

/* gzip-isal.c */
#ifdef HAVE_ISAL
struct lvl	*kl_isal_open(struct ictx *, struct lvl *, size_t);
#endif

/* xz-mt.c */
#ifdef HAVE_LZMA_MT
struct lvl	*kl_xz_open(struct ictx *, struct lvl *, size_t, unsigned);
void		 kl_xz_close(struct lvl *);
#endif

/* archive.c */
int		 kl_arc_fill(struct ictx *, struct lvl *, size_t, size_t *);
void		 kl_arc_err_unit(struct ictx *, const char *, const char *,
		    uint64_t);
enum sres	 kl_arc_stream_pre(struct ictx *, struct lvl *, size_t, size_t,
		    unsigned, const char *, const char *);
void		 kl_arc_close(struct lvl *);

/* pipe.c */
int		 kl_pipe_run(struct ictx *, size_t,
		    enum sres (*)(struct ictx *, struct lvl *, size_t, size_t,
			unsigned, const char *, const char *));
int		 kl_pipe_stopped(struct ictx *);
void		 kl_pipe_flush(struct ictx *);

#endif /* INPUT_INT_H */
