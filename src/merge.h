/*
 * merge.h - the merge state of a --report --json output (merge-read.c
 * reads it, merge.c writes and combines it).
 */
#ifndef MERGE_H
#define MERGE_H
#include "kleakscan.h"

#define MERGE_FORMAT	1	/* of the merge_state event */

/* The inputs a report covers: a listing, and which shards of it. */
struct mcover {
	uint64_t	 hash;		/* of the listing's paths */
	uint64_t	 inputs;	/* the listing's size */
	unsigned	 n;		/* shards, 0: the whole listing */
	uint8_t		*have;		/* n flags: shard k+1 is in */
};

/* What a report says about the run that made it. */
struct mstate {
	char		*version;
	char		**opts;		/* the options, as given */
	size_t		 nopts;
	struct mcover	*cover;
	size_t		 ncover;
	uint64_t	 errors;	/* errors reported */
	int		 leaked;	/* a leak was found */
	uint64_t	 rows;		/* merge_row events */
	struct totals	 tot;
};

/* merge-read.c */
int	merge_read(const uint8_t *, size_t, struct mstate *,
	    struct kl_report *, size_t *, uint64_t *, char *, size_t);
void	mstate_free(struct mstate *);
#endif
