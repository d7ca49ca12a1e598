/*
 * scan-int.h - the scanner's state at a cut between two chunks of one
 * unit, for the chunked scan (chunk.c).  Not for the program.
 */
#ifndef KLEAK_SCAN_INT_H
#define KLEAK_SCAN_INT_H

#include <stdint.h>

#include "kleak.h"

/*
 * What the lines after a cut depend on, besides their own bytes: a chunk
 * scanned from a speculated kl_spec makes the events of the serial scan
 * when the real state at the cut has the same kl_spec (kl_scan_spec_ok()
 * lists why each field is here, and what is not).
 */
struct kl_spec {
	enum kl_line_kind	 prev_kind;	/* framing of the next line */
	int			 seg_banner;	/* a banner starts a boot */
	unsigned		 seg_flags;	/* KL_F_UNHASHED on findings */
	int			 decided;
	enum kl_arch_id		 arch;
	unsigned		 widths;
	enum kl_arch_id		 prior;
	enum kl_arch_id		 st_arch;	/* kl_stats.arch */
	struct kl_detect	 det;
	struct kl_layout	 layout;
	struct kl_anchors	 anchors;
};

/* Where the real scan stands: the bases a chunk's events are moved by. */
struct kl_scan_pos {
	uint64_t		 lineno;	/* lines before the cut */
	unsigned		 boot;		/* the open boot segment */
	uint64_t		 seg_first;	/* ... its first line */
	uint64_t		 seg_off;	/* ... its first byte */
};

int	kl_scan_clean(const struct kl_scan *);
void	kl_scan_spec_get(const struct kl_scan *, struct kl_spec *);
void	kl_scan_spec_begin(struct kl_scan *, const struct kl_spec *,
	    uint64_t);
int	kl_scan_spec_ok(const struct kl_scan *, const struct kl_spec *,
	    const struct kl_scan *);
uint64_t kl_scan_resync_off(const struct kl_scan *);
uint64_t kl_scan_resync_line(const struct kl_scan *, unsigned *);
int	kl_scan_resync(struct kl_scan *, const struct kl_scan *);
int	kl_scan_adopt(struct kl_scan *, const struct kl_scan *, uint64_t,
	    uint64_t, unsigned, int);
void	kl_scan_pos(const struct kl_scan *, struct kl_scan_pos *);
const struct kl_sink *kl_scan_sink(const struct kl_scan *);
const struct kl_engine *kl_scan_engine(const struct kl_scan *);
void	kl_scan_stop(struct kl_scan *);
void	kl_scan_set_chunk(struct kl_scan *, const uint64_t *,
	    void (*)(void *));

#endif
