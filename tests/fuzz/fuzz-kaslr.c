/*
 * fuzz-kaslr.c - libFuzzer harness for the KASLR evidence of a boot
 * segment (lib/kaslr.c): Kernel Offset and relocation lines, the KASLR
 * state words, kallsyms lines, frames and register dumps.
 *
 * Every line of the input (each an exact-size copy, so that ASan sees a
 * read past it) goes to kl_kaslr_line() for three architectures, with a
 * small map whose symbols the seeds name (arm64 and s390x with maps of
 * their own).  Invariants: the return value is 0..4 and agrees with
 * kl_kaslr_state() for state lines, 4 (PHYS_OFFSET) only on arm64; the
 * words kl_kaslr_state() points at lie in the line; the evidence kept
 * never exceeds KL_EVIDENCE_MAX and each has a name; a slide is in the
 * architecture's range unless the kernel stated it outside (then it is a
 * conflict); placement moves only vmalloc, kernel, modules and direct-map
 * values, to text, modules or vmalloc.  A broken invariant aborts.
 *
 * Seeds (corpus/kaslr/), lines of ../shared/corpus: arm-pc-lr is
 * syzkaller/report/551:14-20, riscv-epc-ra report/607:8-12 (prefixes
 * cut), x86-rip guilty/15:9 (google/syzkaller pkg/report/testdata at
 * 1e72964b, Apache-2.0); layout-dump is boot/tf201log__dmesg.txt:38-50
 * (androidzaurus/tf201log dmesg.txt at 52ffadbd, prefixes cut);
 * state-lines are the Kernel Offset, KASLR state,
 * relocation, MSR and kallsyms lines of the unit tests; arm64-panic is
 * qemu/arm64-6.1.0-57-arm64-boot1/console.log:233-238,523-524 and
 * s390x-frames qemu/s390x-6.1.0-50-s390x-boot1/console.log:1,302-305 (Debian
 * kernels' output, GPL-2.0); arm-highmem is the Memory: lines of the unit
 * tests.
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

static const char map64[] =
    "ffff800008000000 T _text\n"
    "ffff800008010000 T _stext\n"
    "ffff8000083a8ba0 t do_sys_openat2\n"
    "ffff800009cf0000 B _end\n"
    "0000000000100000 T startup_s390\n"
    "00000000006bfca8 t sysrq_handle_showallcpus\n";

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
		check(r >= 0 && r <= 4);
		check(r != 4 || (k->arch >= KL_ARCH_ARM64 &&
		    k->arch <= KL_ARCH_ARM64_PRE54));
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

/* Placement of a few values keeps to its rules. */
static void
place(const struct kl_kaslr *k)
{
	static const uint64_t vals[] = { 0x6bfcf6, 0xc0100010, 0xf080dfa8,
	    UINT64_C(0xffffaa443efa8ba0), UINT64_C(0xffffffff85890926) };
	enum kl_region r, p;
	size_t i;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		for (r = KL_REGION_NONE; r < KL_REGION_COUNT; r++) {
			p = kl_kaslr_place(k, vals[i], r);
			if (p == r)
				continue;
			check(r == KL_REGION_VMALLOC || r == KL_REGION_KERNEL ||
			    r == KL_REGION_MODULES ||
			    r == KL_REGION_DIRECT_MAP);
			check(p == KL_REGION_TEXT || p == KL_REGION_MODULES ||
			    p == KL_REGION_VMALLOC);
		}
}

/* The verdict of k is consistent. */
static void
verdict(const struct kl_kaslr *k, uint64_t step)
{
	struct kl_boot_verdict v;
	uint64_t s;
	size_t i;

	place(k);
	kl_kaslr_verdict(k, &v);
	check(v.nev <= KL_EVIDENCE_MAX && v.nev_total >= v.nev);
	for (i = 0; i < v.nev; i++)
		check(strcmp(kl_evidence_name(v.ev[i].kind), "unknown") != 0);
	check(v.has_slide == kl_kaslr_slide(k, &s));
	if (v.has_slide) {
		check(s == v.slide);
		if (v.outside)
			check(v.conflicts >= 1);
		else
			check(kl_kaslr_range_ok(k->arch, k->kver, s) &&
			    (step == 0 ? s == 0 : s % step == 0));
		check(v.disclosed & 1u << KL_REGION_TEXT);
		check(v.entropy_bits == 0 && v.text_exact);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kl_symtab *t, *t64;
	struct kl_error err;
	struct kl_kaslr k;

	if (t == NULL) {
		memset(&err, 0, sizeof(err));
		t = kl_sym_load_mem(map, sizeof(map) - 1, "rule.map", &err);
		check(t != NULL);
		t64 = kl_sym_load_mem(map64, sizeof(map64) - 1, "rule64.map",
		    &err);
		check(t64 != NULL);
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
	kl_kaslr_init(&k, KL_ARCH_ARM64, t64);
	kl_kaslr_set_release(&k, "6.1.0-57-arm64");
	feed(&k, data, size);
	verdict(&k, 64 << 10);
	kl_kaslr_init(&k, KL_ARCH_S390X, t64);
	feed(&k, data, size);
	verdict(&k, 16 << 10);
	return (0);
}
