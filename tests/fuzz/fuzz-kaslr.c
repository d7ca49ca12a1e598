/*
 * fuzz-kaslr.c - libFuzzer harness for the KASLR evidence of a boot
 * segment (lib/kaslr.c): Kernel Offset and relocation lines, the KASLR
 * state words, kallsyms lines, frames and register dumps.
 *
 * Every line of the input (each an exact-size copy, so that ASan sees a
 * read past it) goes to kl_kaslr_line() for three architectures, with a
 * small map whose symbols the seeds name.  Invariants: the return value
 * is 0..3 and agrees with kl_kaslr_state() for state lines; the words
 * kl_kaslr_state() points at lie in the line; the evidence kept never
 * exceeds KL_EVIDENCE_MAX and each has a name; a slide is a valid one
 * for the architecture (a multiple of its step); the verdict's disclosed
 * regions have bases.  A broken invariant aborts.
 *
 * Seeds (corpus/kaslr/), lines of ../shared/corpus: arm-pc-lr is
 * syzkaller/report/551:14-20, riscv-epc-ra report/607:8-12 (prefixes
 * cut), x86-rip guilty/15:9 (google/syzkaller pkg/report/testdata at
 * 1e72964b, Apache-2.0); layout-dump is boot/tf201log__dmesg.txt:38-50
 * (androidzaurus/tf201log dmesg.txt at 52ffadbd, prefixes cut);
 * state-lines are the Kernel Offset, KASLR state,
 * relocation, MSR and kallsyms lines of the unit tests.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char map[] =
    "80008000 T _text\n"
    "8054b718 T jffs2_parse_param\n"
    "ffffffdfffe00000 T _stext\n"
    "ffffffdfffe8c6f0 T schedule_tail\n"
    "ffffffff81000000 T startup_64\n"
    "ffffffff8107c6f0 T native_read_msr\n"
    "ffffffff816112f0 T next_group\n";

/* Abort unless c holds. */
static void
check(int c)
{
	if (!c)
		abort();
}

/* Feed every line of d[0..n) to k; check what comes back. */
static void
feed(struct kl_kaslr *k, const uint8_t *d, size_t n)
{
	const uint8_t *nl;
	uint8_t *copy;
	size_t i = 0, len, at, wl;
	uint64_t line = 0;
	enum kl_kaslr_state st;
	int r;

	while (i < n) {
		nl = memchr(d + i, '\n', n - i);
		len = nl != NULL ? (size_t)(nl - (d + i)) : n - i;
		copy = malloc(len > 0 ? len : 1);
		check(copy != NULL);
		memcpy(copy, d + i, len);
		r = kl_kaslr_line(k, ++line, copy, len);
		check(r >= 0 && r <= 3);
		at = wl = SIZE_MAX;
		st = kl_kaslr_state(copy, len, &at, &wl);
		if (st != KL_KSTATE_NONE)
			check(at < len && wl > 0 && wl <= len - at);
		if (r == 2 && len >= 8)
			check(st == KL_KSTATE_OFF);
		if (r == 3)
			check(st == KL_KSTATE_FAILED);
		free(copy);
		i += len + 1;
	}
}

/* The verdict of k is consistent. */
static void
verdict(const struct kl_kaslr *k, uint64_t step)
{
	struct kl_boot_verdict v;
	uint64_t s;
	size_t i;

	kl_kaslr_verdict(k, &v);
	check(v.nev <= KL_EVIDENCE_MAX && v.nev_total >= v.nev);
	for (i = 0; i < v.nev; i++)
		check(strcmp(kl_evidence_name(v.ev[i].kind), "unknown") != 0);
	check(v.has_slide == kl_kaslr_slide(k, &s));
	if (v.has_slide) {
		check(s == v.slide);
		check(step == 0 ? s == 0 : s % step == 0);
		check(v.disclosed & 1u << KL_REGION_TEXT);
		check(v.entropy_bits == 0 && v.text_exact);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kl_symtab *t;
	struct kl_error err;
	struct kl_kaslr k;

	if (t == NULL) {
		memset(&err, 0, sizeof(err));
		t = kl_sym_load_mem(map, sizeof(map) - 1, "rule.map", &err);
		check(t != NULL);
	}
	kl_kaslr_init(&k, KL_ARCH_X86_64, t);
	feed(&k, data, size);
	verdict(&k, 2 << 20);
	kl_kaslr_init(&k, KL_ARCH_ARM, t);
	feed(&k, data, size);
	verdict(&k, 0);
	kl_kaslr_init(&k, KL_ARCH_RISCV64, t);
	feed(&k, data, size);
	verdict(&k, 2 << 20);
	return (0);
}
