/*
 * test-live.c - lib/live.c: supportconfig sections (kl_live_section()),
 * signal masks (kl_live_mask()), archive member names
 * (kl_live_relpath()) and kallsyms ranges (kl_live_symrange()).
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "kleak.h"

/* The head of boot.txt of tests/live-supportconfig, cut short. */
static const char boot[] =
    "#==[ Command ]======================================#\n"
    "# /bin/uname -a\n"
    "Linux vm 6.1.0-57-amd64 #1 SMP x86_64 GNU/Linux\n"
    "\n"
    "#==[ Configuration File ]===========================#\n"
    "# /proc/cmdline\n"
    "console=ttyS0 kaslr\n"
    "\n"
    "\n"
    "#==[ Command ]======================================#\n"
    "# /bin/dmesg\n"
    "[    5.222317] Kernel Offset: 0x4200000";

/* Compare a counted string with s. */
static void
is_span(const char *p, size_t n, const char *s)
{
	assert_int_equal(n, strlen(s));
	assert_memory_equal(p, s, n);
}

/* Three sections: kind, title and body of each, offsets exact. */
static void
t_sections(void **state)
{
	struct kl_live_section	sec;
	size_t			off = 0, n = sizeof(boot) - 1;

	(void)state;
	assert_int_equal(kl_live_section(boot, n, &off, &sec), 1);
	is_span(sec.kind, sec.klen, "Command");
	is_span(sec.title, sec.tlen, "/bin/uname -a");
	is_span(boot + sec.body, sec.blen,
	    "Linux vm 6.1.0-57-amd64 #1 SMP x86_64 GNU/Linux\n\n");
	assert_int_equal(off, sec.body + sec.blen);
	assert_int_equal(kl_live_section(boot, n, &off, &sec), 1);
	is_span(sec.kind, sec.klen, "Configuration File");
	is_span(sec.title, sec.tlen, "/proc/cmdline");
	is_span(boot + sec.body, sec.blen, "console=ttyS0 kaslr\n\n\n");
	assert_int_equal(kl_live_section(boot, n, &off, &sec), 1);
	is_span(sec.title, sec.tlen, "/bin/dmesg");
	is_span(boot + sec.body, sec.blen,
	    "[    5.222317] Kernel Offset: 0x4200000");
	assert_int_equal(off, n);
	assert_int_equal(kl_live_section(boot, n, &off, &sec), 0);
}

/* Text before the first header, a header without a title, nothing. */
static void
t_edges(void **state)
{
	static const char	 p[] = "junk\n#==[ X ]=#\nbody\n#==[ Y";
	struct kl_live_section	 sec;
	size_t			 off = 0, n = sizeof(p) - 1;

	(void)state;
	assert_int_equal(kl_live_section(p, n, &off, &sec), 1);
	is_span(sec.kind, sec.klen, "X");
	assert_int_equal(sec.tlen, 0);
	is_span(p + sec.body, sec.blen, "body\n");
	assert_int_equal(kl_live_section(p, n, &off, &sec), 1);
	is_span(sec.kind, sec.klen, "Y");
	assert_int_equal(sec.blen, 0);
	assert_int_equal(off, n);
	off = 0;
	assert_int_equal(kl_live_section("", 0, &off, &sec), 0);
	off = 0;
	assert_int_equal(kl_live_section("no header\n", 10, &off, &sec), 0);
	assert_int_equal(off, 10);
}

/* A signal mask of /proc/PID/status is no address: its digits go. */
static void
t_mask(void **state)
{
	char	p[] = "SigBlk:\tfffffffc7ffbfa37\nName:\tx ffffffff85200000\n";

	(void)state;
	assert_int_equal(kl_live_mask(p, sizeof(p) - 1), 1);
	assert_string_equal(p,
	    "SigBlk:\t0000000000000000\nName:\tx ffffffff85200000\n");
}

/* Member names: the top directory of a capture is left out. */
static void
t_relpath(void **state)
{
	(void)state;
	assert_string_equal(kl_live_relpath(
	    "sosreport-x/proc/kallsyms"), "proc/kallsyms");
	assert_string_equal(kl_live_relpath("./proc/1/status"),
	    "proc/1/status");
	assert_string_equal(kl_live_relpath("scc_vm_261126_1200/boot.txt"),
	    "boot.txt");
	assert_null(kl_live_relpath("boot.txt"));
}

/* The kernel symbol range and _text of a kallsyms text. */
static void
t_symrange(void **state)
{
	static const char	 k[] =
	    "0000000000000000 A fixed_percpu_data\n"
	    "ffffffff85200000 T _text\n"
	    "ffffffff86c1aa40 D init_task\n";
	static const char	 a32[] =
	    "00000000 A __per_cpu_start\n"
	    "80008000 T _stext\n"
	    "80a00000 D _etext\n";
	static const char	 s390[] =
	    "0000000000039000 A __per_cpu_end\n"
	    "000003fffe900000 T _stext\n"
	    "000003fffe900000 T _text\n";
	static const char	 s390_61[] =
	    "0000000000000000 A __per_cpu_start\n"
	    "0000000000039000 D __per_cpu_end\n"
	    "0000000000100000 T _stext\n"
	    "0000000000100000 T _text\n"
	    "000000000000f000 t too_low\n"
	    "000000000010e3d8 t reipl_ccw_vmparm_store\n";
	struct kl_symrange	 r;

	(void)state;
	assert_int_equal(kl_live_symrange(k, sizeof(k) - 1, 64, &r), 2);
	assert_true(r.have_text);
	assert_true(r.text == UINT64_C(0xffffffff85200000));
	assert_true(r.lo == UINT64_C(0xffffffff85200000));
	assert_true(r.hi == UINT64_C(0xffffffff86c1aa40));
	assert_false(r.stext);
	/* Each line's width (bits 0): 32-bit, s390x, _stext alone. */
	assert_int_equal(kl_live_symrange(a32, sizeof(a32) - 1, 0, &r), 2);
	assert_true(r.have_text && r.stext);
	assert_true(r.text == UINT64_C(0x80008000));
	assert_true(r.lo == UINT64_C(0x80008000));
	assert_int_equal(kl_live_symrange(s390, sizeof(s390) - 1, 0, &r), 2);
	assert_true(r.have_text && !r.stext);
	assert_true(r.text == UINT64_C(0x000003fffe900000));
	/*
	 * ...forced to 64 bits: no s390x value has the top bit, but its
	 * text symbols are text by their type; the per-CPU offset is not.
	 */
	assert_int_equal(kl_live_symrange(s390, sizeof(s390) - 1, 64, &r), 2);
	assert_true(r.lo == UINT64_C(0x000003fffe900000));
	/* A 6.1 s390x kernel at 0x100000 (tests/qemu/boots/s390x). */
	assert_int_equal(kl_live_symrange(s390_61, sizeof(s390_61) - 1, 0,
	    &r), 3);
	assert_true(r.have_text && !r.stext && r.have_stext);
	assert_true(r.text == UINT64_C(0x100000));
	assert_true(r.lo == UINT64_C(0x100000));
	assert_true(r.hi == UINT64_C(0x10e3d8));
	/* _stext alone is told apart from _text: arm64, arm, mips. */
	assert_int_equal(kl_live_symrange(a32, sizeof(a32) - 1, 0, &r), 2);
	assert_true(r.have_stext && r.stext_addr == UINT64_C(0x80008000));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_sections),
		cmocka_unit_test(t_edges),
		cmocka_unit_test(t_mask),
		cmocka_unit_test(t_relpath),
		cmocka_unit_test(t_symrange),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
