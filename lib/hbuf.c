/*
 * hbuf.c - big buffers the kernel may back with huge pages.
 *
 * The first touch of each 4 KiB page of fresh memory is a page fault,
 * and on a virtual machine one costs about 10 microseconds: here, 64 MiB
 * touched took 165 ms in 4 KiB pages and 5.5 ms in 2 MiB ones
 * (BENCHMARKS.md, stop 41).  The chunked scan's slot buffers (4 MiB of
 * text each, four of them) and the decompression pipeline's ring (8 MiB)
 * are fresh on every run and filled whole.  Mapped here, 2 MiB aligned
 * and advised MADV_HUGEPAGE (the transparent huge pages of "madvise"
 * mode, Debian's default), they fault once per 2 MiB.  Where the kernel
 * has no huge pages to give, they are ordinary anonymous memory, as
 * malloc() would map for these sizes.  Buffers filled only in part stay
 * on the heap, where a last huge page would be resident for nothing: of
 * the lists of events a chunk records, only the first 2 MiB take a huge
 * page, and only under a line filter, where that holds what a chunk of
 * real logs records (chunk.c, list_grow()).
 * Under AddressSanitizer (KL_HB_HEAP) they are heap blocks, which it
 * watches for reads and writes out of bounds.
 */
#include "config.h"

#include <sys/mman.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

#define HB_ALIGN	((size_t)2 << 20)	/* a huge page on x86 */

/*
 * At least n bytes (n > 0) of zeroed anonymous memory, HB_ALIGN aligned,
 * *cap bytes in all (n rounded up to HB_ALIGN); NULL when there is none.
 * Free it with kl_hb_free(p, *cap).
 */
void *
kl_hb_alloc(size_t n, size_t *cap)
{
	uint8_t *a;
	size_t len;

	if (n == 0 || n > SIZE_MAX - 2 * HB_ALIGN)
		return (NULL);
	len = (n + HB_ALIGN - 1) & ~(HB_ALIGN - 1);
#ifdef KL_HB_HEAP
	if ((a = aligned_alloc(HB_ALIGN, len)) == NULL)
		return (NULL);
	memset(a, 0, len);
#else
	{
		uint8_t *m;
		size_t head;

		m = mmap(NULL, len + HB_ALIGN, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return (NULL);
		/* Keep the aligned len bytes of the mapping. */
		head = (size_t)(-(uintptr_t)m & (HB_ALIGN - 1));
		a = m + head;
		if (head > 0)
			(void)munmap(m, head);
		(void)munmap(a + len, HB_ALIGN - head);
	}
#ifdef MADV_HUGEPAGE
	(void)madvise(a, len, MADV_HUGEPAGE);
#endif
#endif /* KL_HB_HEAP */
	*cap = len;
	return (a);
}

/* Free what kl_hb_alloc() gave (p may be NULL). */
void
kl_hb_free(void *p, size_t cap)
{
#ifdef KL_HB_HEAP
	(void)cap;
	free(p);
#else
	if (p != NULL && cap > 0)
		(void)munmap(p, cap);
#endif
}

/*
 * Make *p (*cap bytes from kl_hb_alloc(), or NULL and 0) hold at least
 * need bytes, its first used bytes kept: at least twice as big when it
 * moves.  0, or -1 (nothing changed) when there is no memory.
 */
int
kl_hb_grow(void **p, size_t *cap, size_t used, size_t need)
{
	void *np;
	size_t nc;

	if (need <= *cap)
		return (0);
	if (*cap <= SIZE_MAX / 2 && need < *cap * 2)
		need = *cap * 2;
	if ((np = kl_hb_alloc(need, &nc)) == NULL)
		return (-1);
	if (used > 0)
		memcpy(np, *p, used < *cap ? used : *cap);
	kl_hb_free(*p, *cap);
	*p = np;
	*cap = nc;
	return (0);
}
