/*
 * fuzz-symbols.c - libFuzzer harness for the symbol map parser
 * (lib/symbols.c).
 *
 * The input is loaded from memory (a copy of its exact size, so that
 * ASan sees a read past it) and, through a memfd, from a descriptor;
 * both loads must agree on success, counts and the error.  A loaded
 * table is then checked: the counters add up, every symbol's address
 * looks up to a hit that starts at or below it, with an offset and
 * size that fit, formatted text matches its length, and addresses
 * around each hit behave.  A broken invariant aborts.
 *
 * Seeds (corpus/symbols/): the head of the real System.map and
 * kallsyms slices in tests/data, a kallsyms with modules and BPF, an
 * all-zero kallsyms, aliases, malformed lines, and gzip and xz of a
 * small map.
 */
#include "config.h"

#include <sys/mman.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleak.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Abort unless c holds. */
static void
check(int c)
{
	if (!c)
		abort();
}

/* Check one hit at addr. */
static void
check_hit(const struct kl_sym_hit *h, uint64_t addr)
{
	char buf[2048], small[8];
	int n;

	check(h->name != NULL && h->name[0] != '\0');
	check(h->addr <= addr && h->offset == addr - h->addr);
	check(h->size == 0 || h->offset < h->size);
	n = kl_sym_format(h, buf, sizeof(buf));
	check(n > 0 && (size_t)n < sizeof(buf) && strlen(buf) == (size_t)n);
	check(kl_sym_format(h, small, sizeof(small)) == n);
	check(strlen(small) == ((size_t)n < sizeof(small) ? (size_t)n :
	    sizeof(small) - 1));
}

/* Check a loaded table. */
static void
check_table(const struct kl_symtab *t, const uint8_t *d, size_t n)
{
	const struct kl_sym_stats *st = kl_sym_stats(t);
	struct kl_sym_hit h, h2;
	uint64_t a, probe[4];
	size_t i, k;

	check(st->symbols == kl_sym_count(t) && st->symbols > 0);
	check(st->symbols + st->ignored + st->percpu + st->malformed <=
	    st->lines);
	check(st->malformed <= st->symbols + st->ignored + st->percpu);
	check(st->malformed == 0 || (st->first_bad >= 1 &&
	    st->first_bad <= st->lines));
	/* probe addresses from the input's own hex runs */
	for (i = 0; i + 16 <= n && i < 4096; i += 17) {
		a = 0;
		for (k = 0; k < 16; k++)
			a = a << 4 | (d[i + k] & 0xf);
		probe[0] = a;
		probe[1] = a - 1;
		probe[2] = a + 1;
		probe[3] = kl_sym_text(t) + a % 0x10000;
		for (k = 0; k < 4; k++) {
			if (kl_sym_lookup(t, probe[k], &h)) {
				check_hit(&h, probe[k]);
				/* the start of a kernel hit is its own hit */
				if (h.module == NULL) {
					check(kl_sym_lookup(t, h.addr, &h2));
					check(h2.addr == h.addr &&
					    h2.offset == 0 &&
					    strcmp(h2.name, h.name) == 0);
				}
			}
			if (kl_sym_lookup_bt(t, probe[k], &h)) {
				check(h.offset >= 1);
				check(h.addr <= probe[k] - 1);
			}
		}
	}
	if (kl_sym_find(t, "_text", &a))
		check(kl_sym_text(t) == a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kl_symtab *t, *u;
	struct kl_error e1, e2;
	uint8_t *copy;
	int fd;

	copy = malloc(size > 0 ? size : 1);
	check(copy != NULL);
	if (size > 0)
		memcpy(copy, data, size);
	t = kl_sym_load_mem(copy, size, "System.map-fuzz", &e1);
	if (t != NULL) {
		check(strcmp(kl_sym_release(t), "fuzz") == 0);
		check_table(t, copy, size);
	} else
		check(e1.code != KL_EOK && e1.msg[0] != '\0');

	fd = memfd_create("fuzz-symbols", MFD_CLOEXEC);
	check(fd != -1);
	check(size == 0 || write(fd, data, size) == (ssize_t)size);
	check(lseek(fd, 0, SEEK_SET) == 0);
	u = kl_sym_load_fd(fd, "System.map-fuzz", &e2);
	close(fd);
	check((t == NULL) == (u == NULL));
	if (t != NULL) {
		check(kl_sym_count(t) == kl_sym_count(u));
		check(memcmp(kl_sym_stats(t), kl_sym_stats(u),
		    sizeof(struct kl_sym_stats)) == 0);
		check(kl_sym_text(t) == kl_sym_text(u));
	} else
		check(e1.code == e2.code && strcmp(e1.msg, e2.msg) == 0);
	kl_sym_free(t);
	kl_sym_free(u);
	free(copy);
	return (0);
}
