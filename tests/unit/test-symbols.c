/*
 * test-symbols.c - symbol lookups: a slice of Debian's System.map of
 * 6.1.0-57-amd64 and of that kernel's /proc/kallsyms resolve to what the
 * kernel printed in its nokaslr panic (call trace, kallsyms-truth.txt);
 * the whole map too when ../shared/corpus is there; kallsyms with
 * modules, edges, and the printed form.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "kleak.h"

#define SLICE	TESTDATA "/x86_64-debian-6.1.0-57-System.map.slice"
#define KSLICE	TESTDATA "/x86_64-qemu-6.1.0-57-kallsyms.slice"
#define CORPUS	TESTDATA "/../../../shared/corpus/qemu"
#define FULLMAP	CORPUS "/System.map-6.1.0-57-amd64.xz"
#define NOKASLR	CORPUS "/x86_64-6.1.0-57-amd64-nokaslr"

/* The call trace of the nokaslr panic (console.log), as printed (%pB). */
static const char *const trace[] = {
	"dump_stack_lvl+0x44/0x5c", "nmi_cpu_backtrace.cold+0x32/0x79",
	"lapic_can_unplug_cpu+0x70/0x70",
	"nmi_trigger_cpumask_backtrace+0xed/0x100",
	"__handle_sysrq.cold+0x44/0x11c", "write_sysrq_trigger+0x24/0x40",
	"proc_reg_write+0x56/0xa0", "vfs_write+0xc7/0x3f0",
	"ksys_write+0x6b/0xf0", "do_syscall_64+0x5d/0xb0",
	"syscall_exit_to_user_mode+0x1e/0x40", "do_syscall_64+0x69/0xb0",
	"exit_to_user_mode_prepare+0x44/0x240", "alloc_fd+0xb5/0x150",
	"f_dupfd+0x47/0x60", "do_fcntl+0x577/0x6e0", "filp_close+0x5b/0x70",
	"do_dup2+0x96/0xd0", "entry_SYSCALL_64_after_hwframe+0x6e/0xd8",
	"panic+0x118/0x2f4", "_printk+0x68/0x83",
	"sysrq_handle_crash+0x16/0x20", "wp_page_reuse+0x60/0x70",
	"do_wp_page+0x1e3/0x380", "__handle_mm_fault+0x97b/0xfa0",
	"handle_mm_fault+0xdb/0x2d0", "do_user_addr_fault+0x1b0/0x570",
};

/* Those of them whose symbol and successor are in the slice. */
static const char *const slice_trace[] = {
	"dump_stack_lvl+0x44/0x5c", "__handle_sysrq.cold+0x44/0x11c",
	"write_sysrq_trigger+0x24/0x40", "panic+0x118/0x2f4",
	"sysrq_handle_crash+0x16/0x20",
};

/* Format the symbol at addr (%pS), or "-" when there is none. */
static const char *
at(const struct kl_symtab *t, uint64_t addr)
{
	static char buf[1200];
	struct kl_sym_hit h;
	int n;

	if (!kl_sym_lookup(t, addr, &h))
		return ("-");
	n = kl_sym_format(&h, buf, sizeof(buf));
	assert_int_equal(n, strlen(buf));
	return (buf);
}

/* Format a trace entry at addr (%pB), or "-". */
static const char *
bt(const struct kl_symtab *t, uint64_t addr)
{
	static char buf[1200];
	struct kl_sym_hit h;

	if (!kl_sym_lookup_bt(t, addr, &h))
		return ("-");
	kl_sym_format(&h, buf, sizeof(buf));
	return (buf);
}

/* Load a map from a string. */
static struct kl_symtab *
load_str(const char *s, struct kl_error *err)
{
	return (kl_sym_load_mem(s, strlen(s), "test.map", err));
}

/* Each "name+0xoff/0xsize" in v: the address it names, looked up as %pB,
   prints the same text. */
static void
check_trace(const struct kl_symtab *t, const char *const *v, size_t n)
{
	char name[128];
	uint64_t a;
	size_t i, k;

	for (i = 0; i < n; i++) {
		k = strcspn(v[i], "+");
		assert_true(k < sizeof(name));
		memcpy(name, v[i], k);
		name[k] = '\0';
		assert_int_equal(kl_sym_find(t, name, &a), 1);
		a += strtoull(v[i] + k + 1, NULL, 16);
		assert_string_equal(bt(t, a), v[i]);
	}
}

/* Is the program prog installed? */
static int
have(const char *prog)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
	return (system(cmd) == 0);
}

/* The slice of the real System.map. */
static void
t_slice(void **state)
{
	const struct kl_sym_stats *st;
	struct kl_error err;
	struct kl_symtab *t;
	uint64_t a;

	(void)state;
	t = kl_sym_load(SLICE, &err);
	assert_non_null(t);
	st = kl_sym_stats(t);
	assert_int_equal(st->lines, 137);
	assert_int_equal(st->symbols, 124);
	assert_int_equal(kl_sym_count(t), 124);
	assert_int_equal(st->ignored, 6);	/* 3 A, 3 kallsyms_* */
	assert_int_equal(st->percpu, 7);
	assert_int_equal(st->malformed, 0);
	assert_int_equal(st->first_bad, 0);
	assert_int_equal(st->modules, 0);
	assert_null(kl_sym_release(t));
	assert_int_equal(kl_sym_text(t), 0xffffffff81000000ULL);
	assert_int_equal(kl_sym_find(t, "_stext", &a), 1);
	assert_int_equal(a, 0xffffffff81000000ULL);
	assert_int_equal(kl_sym_find(t, "_end", &a), 1);
	assert_int_equal(a, 0xffffffff84430000ULL);
	/* per-CPU offsets, absolute and ignored symbols are not there */
	assert_int_equal(kl_sym_find(t, "steal_time", &a), 0);
	assert_int_equal(kl_sym_find(t, "__per_cpu_end", &a), 0);
	assert_int_equal(kl_sym_find(t, "text_size", &a), 0);
	assert_int_equal(kl_sym_find(t, "kallsyms_offsets", &a), 0);
	assert_int_equal(kl_sym_find(t, "no_such_symbol", &a), 0);

	check_trace(t, slice_trace, sizeof(slice_trace) / sizeof(*slice_trace));

	/* kallsyms-truth.txt: the first alias is the one printed */
	assert_string_equal(at(t, 0xffffffff81000000ULL),
	    "startup_64+0x0/0x70");
	assert_string_equal(at(t, 0xffffffff81363fa0ULL),
	    "do_sys_openat2+0x0/0x170");
	assert_string_equal(at(t, 0xffffffff81364470ULL),
	    "do_sys_open+0x0/0x80");
	assert_string_equal(at(t, 0xffffffff81690910ULL),
	    "sysrq_handle_crash+0x0/0x20");
	assert_string_equal(at(t, 0xffffffff81a01cb0ULL), "panic+0x0/0x2f4");
	assert_string_equal(at(t, 0xffffffff82a1aa40ULL),
	    "init_task+0x0/0x2640");
	/* aliases: __indirect_thunk_end looks like a PROVIDE() */
	assert_int_equal(strncmp(at(t, 0xffffffff81e01d32ULL), "_etext+0x0/",
	    11), 0);
	/* __end_rodata_*, __start_init_task, _sdata, init_stack, ... */
	assert_string_equal(at(t, 0xffffffff82a00000ULL),
	    "init_stack+0x0/0x4000");
	assert_string_equal(at(t, 0xffffffff82a00001ULL),
	    "init_stack+0x1/0x4000");
	/* the %pB step back over a function's start */
	assert_string_equal(bt(t, 0xffffffff81a01cb0ULL),
	    "panic_print_sys_info.part.0+0x52/0x52");

	/* edges: [_stext, _end) */
	assert_string_equal(at(t, 0xffffffff80ffffffULL), "-");
	assert_string_equal(at(t, 0xffffffff8442ffffULL),
	    "__brk_early_pgt_alloc+0xffff/0x10000");
	assert_string_equal(at(t, 0xffffffff84430000ULL), "-");
	assert_string_equal(at(t, 0xffffffff84600000ULL), "-");
	assert_string_equal(at(t, 0x34000), "-");
	assert_string_equal(at(t, 0), "-");
	assert_string_equal(at(t, UINT64_MAX), "-");
	assert_string_equal(bt(t, 0xffffffff81000000ULL), "-");
	assert_string_equal(bt(t, 0xffffffff81000001ULL),
	    "startup_64+0x1/0x70");
	assert_string_equal(bt(t, 0), "-");
	kl_sym_free(t);
}

/* The slice of the real /proc/kallsyms: a console line cut into it. */
static void
t_kallsyms_slice(void **state)
{
	const struct kl_sym_stats *st;
	struct kl_error err;
	struct kl_symtab *t;

	(void)state;
	t = kl_sym_load(KSLICE, &err);
	assert_non_null(t);
	st = kl_sym_stats(t);
	assert_int_equal(st->lines, 31);
	assert_int_equal(st->symbols, 20);
	assert_int_equal(st->ignored, 9);	/* per-CPU, as type A */
	assert_int_equal(st->percpu, 0);
	assert_int_equal(st->malformed, 1);	/* the line then a blank */
	assert_int_equal(st->first_bad, 25);
	assert_int_equal(kl_sym_text(t), 0xffffffff81000000ULL);
	assert_string_equal(at(t, 0xffffffff81000000ULL),
	    "startup_64+0x0/0x70");
	/* __do_sys_restart_syscall is lost with its line */
	assert_string_equal(at(t, 0xffffffff810b47c0ULL),
	    "__ia32_sys_restart_syscall+0x0/0x30");
	assert_string_equal(at(t, 0xffffffff810b44e0ULL),
	    "do_notify_parent+0x0/0x2e0");
	kl_sym_free(t);
}

/* The whole real map, when the corpus is there. */
static void
t_full(void **state)
{
	char line[512], name[256], want[300], cmd[512];
	struct kl_symtab *t;
	struct kl_error err;
	unsigned long long a;
	struct kl_sym_hit h;
	uint64_t prev = 0, b;
	size_t n = 0;
	FILE *f;
	char type;

	(void)state;
	if (access(FULLMAP, R_OK) != 0)
		skip();
	t = kl_sym_load(FULLMAP, &err);
	assert_non_null(t);
	assert_int_equal(kl_sym_count(t), 93883);
	assert_int_equal(kl_sym_stats(t)->lines, 94280);
	assert_int_equal(kl_sym_stats(t)->percpu, 383);
	assert_int_equal(kl_sym_stats(t)->ignored, 14);
	assert_string_equal(kl_sym_release(t), "6.1.0-57-amd64");
	assert_int_equal(kl_sym_text(t), 0xffffffff81000000ULL);
	check_trace(t, trace, sizeof(trace) / sizeof(*trace));
	assert_string_equal(at(t, 0xffffffff82161900ULL),
	    "linux_banner+0x0/0x1e7aa0");	/* up to IV: kallsyms_* out */
	assert_string_equal(at(t, 0xffffffff81e01d32ULL),
	    "_etext+0x0/0x1fe2ce");

	/* kallsyms-truth.txt: each starts a symbol, itself or an alias */
	f = fopen(NOKASLR "/kallsyms-truth.txt", "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		assert_int_equal(sscanf(line, "%llx %c %255s", &a, &type,
		    name), 3);
		assert_int_equal(kl_sym_lookup(t, a, &h), 1);
		assert_int_equal(h.addr, a);
		assert_int_equal(h.offset, 0);
		assert_int_equal(kl_sym_find(t, name, &b), 1);
		assert_int_equal(b, a);
		n++;
	}
	fclose(f);
	assert_int_equal(n, 10);

	/* every address of the real kallsyms: the kernel's first alias */
	snprintf(cmd, sizeof(cmd), "xz -dc '%s/kallsyms-nokaslr.xz'",
	    NOKASLR);
	if (have("xz") && (f = popen(cmd, "r")) != NULL) {
		n = 0;
		prev = 0;
		while (fgets(line, sizeof(line), f) != NULL) {
			if (sscanf(line, "%llx %c %255s", &a, &type,
			    name) != 3 || type == 'A' || a == prev)
				continue;
			prev = a;
			if (strchr(line, '[') != NULL)	/* line 4286 */
				continue;
			if (a >= 0xffffffff84430000ULL)	/* _end */
				continue;
			snprintf(want, sizeof(want), "%s+0x0/", name);
			if (strncmp(at(t, a), want, strlen(want)) != 0)
				fail_msg("%llx: %s, not %s", a, at(t, a),
				    want);
			n++;
		}
		assert_int_equal(pclose(f), 0);
		assert_int_equal(n, 93162);
	}
	kl_sym_free(t);
}

/* kallsyms with modules (hand-written, kernel's format). */
static void
t_modules(void **state)
{
	static const char map[] =
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81000000 T _text\n"
	    "ffffffff81000100 T foo\n"
	    "ffffffff81001000 B _end\n"
	    "ffffffffc0a1b000 t e1000_probe\t[e1000]\n"
	    "ffffffffc0a1b000 t e1000_probe_alias\t[e1000]\n"
	    "ffffffffc0a1b400 T e1000_remove\t[e1000]\n"
	    "ffffffffc0b00000 t ext4_fill_super\t[ext4]\n"
	    "ffffffffc0b00200 t ext4_put_super\t[ext4]\n"
	    "ffffffffc0a1c000 d e1000_data\t[e1000]\n"
	    "ffffffffc0c00000 t bpf_prog_6deef7357e7b4530_sd_devices\t[bpf]\n"
	    "ffffffffc0c00100 t bpf_prog_x\t[bpf]\n";
	struct kl_sym_hit h;
	struct kl_error err;
	struct kl_symtab *t;
	uint64_t a;

	(void)state;
	t = load_str(map, &err);
	assert_non_null(t);
	assert_int_equal(kl_sym_count(t), 12);
	assert_int_equal(kl_sym_stats(t)->modules, 3);
	assert_null(kl_sym_release(t));
	/* same type and underscores: file order, _stext as in System.map */
	assert_string_equal(at(t, 0xffffffff81000010ULL),
	    "_stext+0x10/0x100");
	assert_string_equal(at(t, 0xffffffff81000fffULL), "foo+0xeff/0xf00");
	assert_string_equal(at(t, 0xffffffff81001000ULL), "-");
	assert_string_equal(at(t, 0xffffffffc0a1b010ULL),
	    "e1000_probe+0x10/0x400 [e1000]");
	assert_string_equal(at(t, 0xffffffffc0a1b400ULL),
	    "e1000_remove+0x0/0xc00 [e1000]");
	/* a module's last symbol: its end is unknown */
	assert_string_equal(at(t, 0xffffffffc0a1c000ULL),
	    "e1000_data+0x0 [e1000]");
	assert_string_equal(at(t, 0xffffffffc0a1c001ULL), "-");
	assert_string_equal(at(t, 0xffffffffc0a1afffULL), "-");
	assert_string_equal(at(t, 0xffffffffc0b00210ULL), "-");
	assert_string_equal(at(t, 0xffffffffc0b001ffULL),
	    "ext4_fill_super+0x1ff/0x200 [ext4]");
	/* BPF programs print without their pseudo-module */
	assert_string_equal(at(t, 0xffffffffc0c00010ULL),
	    "bpf_prog_6deef7357e7b4530_sd_devices+0x10/0x100");
	assert_int_equal(kl_sym_lookup(t, 0xffffffffc0a1b010ULL, &h), 1);
	assert_string_equal(h.module, "e1000");
	assert_int_equal(h.type, 't');
	assert_int_equal(h.addr, 0xffffffffc0a1b000ULL);
	assert_int_equal(h.offset, 0x10);
	assert_int_equal(h.size, 0x400);
	assert_int_equal(kl_sym_lookup(t, 0xffffffff81000100ULL, &h), 1);
	assert_null(h.module);
	/* kl_sym_find looks at the kernel image only */
	assert_int_equal(kl_sym_find(t, "e1000_probe", &a), 0);
	kl_sym_free(t);
}

/* kl_sym_format cuts like snprintf. */
static void
t_format(void **state)
{
	struct kl_sym_hit h;
	char buf[64];

	(void)state;
	memset(&h, 0, sizeof(h));
	h.name = "panic";
	h.offset = 0x118;
	h.size = 0x2f4;
	assert_int_equal(kl_sym_format(&h, buf, sizeof(buf)), 17);
	assert_string_equal(buf, "panic+0x118/0x2f4");
	assert_int_equal(kl_sym_format(&h, buf, 6), 17);
	assert_string_equal(buf, "panic");
	assert_int_equal(kl_sym_format(&h, buf, 1), 17);
	assert_string_equal(buf, "");
	assert_int_equal(kl_sym_format(&h, NULL, 0), 17);
	h.offset = 0;
	h.module = "e1000";
	assert_int_equal(kl_sym_format(&h, buf, sizeof(buf)), 23);
	assert_string_equal(buf, "panic+0x0/0x2f4 [e1000]");
	h.offset = UINT64_MAX;
	h.size = 0;
	h.module = NULL;
	assert_int_equal(kl_sym_format(&h, buf, sizeof(buf)), 24);
	assert_string_equal(buf, "panic+0xffffffffffffffff");
}

/*
 * The name index: every name found, the first by address when names
 * repeat (static functions of many files), whatever the line order;
 * names around them not; the image runs from _text to _end.
 */
static void
t_find_index(void **state)
{
	static const char map[] =
	    "ffffffff81400000 t cleanup\n"
	    "ffffffff81000000 T _text\n"
	    "ffffffff81200000 t cleanup\n"
	    "ffffffff81000000 T startup_64\n"
	    "ffffffff81300000 T b\n"
	    "ffffffff81100000 T a\n"
	    "ffffffff82000000 B _end\n";
	struct kl_symtab *t;
	struct kl_error err;
	uint64_t a, lo, hi;

	(void)state;
	memset(&err, 0, sizeof(err));
	t = kl_sym_load_mem(map, sizeof(map) - 1, "index.map", &err);
	assert_non_null(t);
	assert_int_equal(kl_sym_find(t, "cleanup", &a), 1);
	assert_true(a == UINT64_C(0xffffffff81200000));
	assert_int_equal(kl_sym_find(t, "a", &a), 1);
	assert_true(a == UINT64_C(0xffffffff81100000));
	assert_int_equal(kl_sym_find(t, "b", &a), 1);
	assert_true(a == UINT64_C(0xffffffff81300000));
	assert_int_equal(kl_sym_find(t, "_end", &a), 1);
	assert_true(a == UINT64_C(0xffffffff82000000));
	assert_int_equal(kl_sym_find(t, "startup_64", &a), 1);
	assert_int_equal(kl_sym_find(t, "", &a), 0);
	assert_int_equal(kl_sym_find(t, "_", &a), 0);
	assert_int_equal(kl_sym_find(t, "aa", &a), 0);
	assert_int_equal(kl_sym_find(t, "cleanup2", &a), 0);
	assert_int_equal(kl_sym_find(t, "zz", &a), 0);
	assert_int_equal(kl_sym_image(t, &lo, &hi), 1);
	assert_true(lo == UINT64_C(0xffffffff81000000));
	assert_true(hi == UINT64_C(0xffffffff82000000));
	kl_sym_free(t);
	/* No _end (a kallsyms): the last symbol is in the image. */
	t = kl_sym_load_mem(map, sizeof(map) - 1 - 24, "index.map", &err);
	assert_non_null(t);
	assert_int_equal(kl_sym_find(t, "_end", &a), 0);
	assert_int_equal(kl_sym_image(t, &lo, &hi), 1);
	assert_true(lo == UINT64_C(0xffffffff81000000));
	assert_true(hi == UINT64_C(0xffffffff81400001));
	kl_sym_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_slice),
		cmocka_unit_test(t_kallsyms_slice),
		cmocka_unit_test(t_full),
		cmocka_unit_test(t_modules),
		cmocka_unit_test(t_format),
		cmocka_unit_test(t_find_index),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
