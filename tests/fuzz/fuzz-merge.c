/*
 * fuzz-merge.c - libFuzzer harness for the reader of --merge
 * (merge_read(), src/merge-read.c): JSON Lines, the merge state, the
 * rows.
 *
 * The input is read as --merge reads a stream: report after report,
 * until one is bad.  A report that is accepted must be whole (used bytes
 * end with a newline, as many rows as its state says), and its rows must
 * merge in no order: merged into an empty report twice, every row's
 * count doubles and no row is added.  Seeds (corpus/merge/): --report
 * --json --shard outputs of a real syzkaller report (../shared/corpus)
 * (whole, cut short) and a plain --json stream.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Abort unless c holds. */
static void
check(int c)
{
	if (!c)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kl_report	*rep, *twice;
	struct kl_report_row	**a, **b;
	struct mstate		 st;
	char			 msg[256];
	uint64_t		 line;
	size_t			 off = 0, used, i, n;

	while (off < size) {
		rep = kl_report_new();
		twice = kl_report_new();
		check(rep != NULL && twice != NULL);
		msg[0] = '\0';
		if (merge_read(data + off, size - off, &st, rep, &used, &line,
		    msg, sizeof(msg)) == -1) {
			check(msg[0] != '\0');
			mstate_free(&st);
			kl_report_free(rep);
			kl_report_free(twice);
			break;
		}
		check(used > 0 && used <= size - off);
		check(data[off + used - 1] == '\n');
		n = kl_report_count(rep);
		check(n == st.rows);
		check(kl_report_merge_any(twice, rep) == 0);
		check(kl_report_merge_any(twice, rep) == 0);
		check(kl_report_count(twice) == n);
		a = kl_report_rows(rep);
		b = kl_report_rows(twice);
		for (i = 0; i < n; i++)
			check(b[i]->count == 2 * a[i]->count);
		mstate_free(&st);
		kl_report_free(rep);
		kl_report_free(twice);
		off += used;
	}
	return (0);
}
