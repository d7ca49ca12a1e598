/*
 * test-symbols.c - symbol maps: a slice of Debian's System.map of
 * 6.1.0-57-amd64 and of that kernel's /proc/kallsyms resolve to what the
 * kernel printed in its nokaslr panic (call trace, kallsyms-truth.txt);
 * the whole map too when ../shared/corpus is there; kallsyms with
 * modules, aliases, edges, compressed and piped input, all-zero and
 * malformed maps, and a directory of maps.
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

static char tmpdir[64];

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

/* Write n bytes of s to path. */
static void
put_file(const char *path, const void *s, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(s, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/*
 * A __per_cpu_end above the text is no per-CPU range (the fuzzer's map):
 * nothing is dropped as a per-CPU offset, and the table keeps the text.
 */
static void
t_percpu_above_text(void **state)
{
	static const char map[] =
	    "0000000000000000 D __per_cpu_start\n"
	    "0000000000034000 d vmw_steal_time\n"
	    "ffffffff81000000 T _text\n"
	    "ffffffff81000100 T do_one\n"
	    "ffffffff81000200 D __per_cpu_end\n";
	struct kl_error err;
	struct kl_symtab *t;
	struct kl_sym_hit h;

	(void)state;
	t = kl_sym_load_mem(map, sizeof(map) - 1, "System.map-x", &err);
	assert_non_null(t);
	assert_int_equal(kl_sym_stats(t)->percpu, 0);
	assert_int_equal(kl_sym_count(t), 5);
	assert_int_equal(kl_sym_lookup(t, 0xffffffff81000104ULL, &h), 1);
	assert_string_equal(h.name, "do_one");
	kl_sym_free(t);
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

/* Aliases at one address, in scripts/kallsyms' order. */
static void
t_aliases(void **state)
{
	static const char map[] =
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81000100 W aaa_weak\n"		/* weak last */
	    "ffffffff81000100 T ___strong\n"
	    "ffffffff81000200 D __start_foo\n"		/* PROVIDE-like */
	    "ffffffff81000200 D __x\n"
	    "ffffffff81000300 t __a\n"			/* underscores */
	    "ffffffff81000300 t _b\n"
	    "ffffffff81000400 t zeta\n"			/* file order */
	    "ffffffff81000400 t alpha\n"
	    "ffffffff81000500 D __bss_end\n"		/* __X_end */
	    "ffffffff81000500 D ____y\n"
	    "ffffffff81000600 B _end\n";
	struct kl_error err;
	struct kl_symtab *t;

	(void)state;
	t = load_str(map, &err);
	assert_non_null(t);
	assert_string_equal(at(t, 0xffffffff81000100ULL),
	    "___strong+0x0/0x100");
	assert_string_equal(at(t, 0xffffffff81000201ULL), "__x+0x1/0x100");
	assert_string_equal(at(t, 0xffffffff81000300ULL), "_b+0x0/0x100");
	assert_string_equal(at(t, 0xffffffff81000400ULL), "zeta+0x0/0x100");
	assert_string_equal(at(t, 0xffffffff81000500ULL), "____y+0x0/0x100");
	assert_string_equal(at(t, 0xffffffff810005ffULL), "____y+0xff/0x100");
	kl_sym_free(t);
}

/* Non-addresses: absolute, undefined, debugging, undefined weak. */
static void
t_types(void **state)
{
	static const char map[] =
	    "ffffffff81000000 T _stext\n"
	    "0000000000000000 w weak_undef\n"
	    "0000000000000000 U undef\n"
	    "ffffffff81000080 A abs\n"
	    "ffffffff81000080 a abs_local\n"
	    "ffffffff81000080 N debug\n"
	    "ffffffff81000080 ? unknown\n"
	    "ffffffff81000080 - stab\n"
	    "ffffffff81000100 r ro\n"
	    "ffffffff81000200 b bss\n"
	    "ffffffff81000300 B __crc_x\n"
	    "ffffffff81000300 t $x\n"
	    "ffffffff81000300 t foo_veneer\n"
	    "ffffffff81000400 v weak_obj\n"
	    "ffffffff81000500 B _end\n";
	struct kl_error err;
	struct kl_symtab *t;

	(void)state;
	t = load_str(map, &err);
	assert_non_null(t);
	assert_int_equal(kl_sym_count(t), 5);
	assert_int_equal(kl_sym_stats(t)->ignored, 10);
	assert_string_equal(at(t, 0xffffffff81000080ULL), "_stext+0x80/0x100");
	assert_string_equal(at(t, 0xffffffff81000300ULL), "bss+0x100/0x200");
	assert_string_equal(at(t, 0xffffffff81000400ULL),
	    "weak_obj+0x0/0x100");
	kl_sym_free(t);
}

/* Malformed lines are skipped and counted; not a map is refused. */
static void
t_malformed(void **state)
{
	char big[3000], *buf;
	struct kl_error err;
	struct kl_symtab *t;
	size_t n;

	(void)state;
	memset(big, 'a', sizeof(big));
	snprintf(big, 40, "ffffffff81000040 t ");
	big[19] = 'a';
	n = strlen("ffffffff81000000 T _stext\r\n\n");
	buf = malloc(sizeof(big) + 1024);
	assert_non_null(buf);
	strcpy(buf, "ffffffff81000000 T _stext\r\n\n");
	memcpy(buf + n, big, sizeof(big));
	n += sizeof(big);
	strcpy(buf + n,
	    "\n"
	    "1ffffffff81000000 T seventeen_digits\n"	/* 4 */
	    "ffffffff81000010 T\n"			/* 5 */
	    "ffffffff81000010 T two words\n"		/* 6 */
	    "ffffffff81000010 t foo\t[]\n"		/* 7 */
	    "ffffffff81000010 t foo\tmod\n"		/* 8 */
	    "ffffffff81000010  T foo\n"			/* 9 */
	    "xyz T foo\n"				/* 10 */
	    "ffffffff81000010 t a1\n"
	    "ffffffff81000020 t a2\n"
	    "ffffffff81000030 t a3\n"
	    "ffffffff81000040 t a4\n"
	    "ffffffff81000050 t a5\n"
	    "ffffffff81000060 t a6\n"
	    "ffffffff81000100 T bar\n"
	    "ffffffff81000200 B _end");			/* no newline */
	t = kl_sym_load_mem(buf, strlen(buf), "x", &err);
	assert_non_null(t);
	assert_int_equal(kl_sym_count(t), 9);
	assert_int_equal(kl_sym_stats(t)->lines, 18);
	assert_int_equal(kl_sym_stats(t)->malformed, 8);
	assert_int_equal(kl_sym_stats(t)->first_bad, 3);
	assert_string_equal(at(t, 0xffffffff81000100ULL), "bar+0x0/0x100");
	kl_sym_free(t);
	free(buf);

	/* a log, not a map */
	t = kl_sym_load(TESTDATA "/x86_64-ubuntu-5.4-oops.dmesg", &err);
	assert_null(t);
	assert_int_equal(err.code, KL_EFORMAT);
	assert_non_null(strstr(err.msg, "not a symbol map"));
	assert_int_equal(err.line, 1);
	/* nothing */
	t = kl_sym_load_mem("", 0, "empty", &err);
	assert_null(t);
	assert_int_equal(err.code, KL_EFORMAT);
	assert_string_equal(err.msg, "empty: no symbols");
	t = kl_sym_load_mem("0000000000000000 A x\n", 21, "abs", &err);
	assert_null(t);
	assert_int_equal(err.code, KL_EFORMAT);
	/* no such file */
	t = kl_sym_load(TESTDATA "/no-such-map", &err);
	assert_null(t);
	assert_int_equal(err.code, KL_EIO);
	assert_int_equal(err.errnum, ENOENT);
}

/* kallsyms read without privilege: every address zero. */
static void
t_all_zero(void **state)
{
	struct kl_error err;
	struct kl_symtab *t;
	char *buf;
	size_t n, i;
	FILE *f;

	(void)state;
	f = fopen(KSLICE, "rb");
	assert_non_null(f);
	buf = malloc(1 << 16);
	assert_non_null(buf);
	n = fread(buf, 1, 1 << 16, f);
	fclose(f);
	/* what a non-root reader sees: the same lines, %px of NULL */
	for (i = 0; i < n; i++)
		if ((i == 0 || buf[i - 1] == '\n') && n - i > 16 &&
		    buf[i + 16] == ' ')
			memset(buf + i, '0', 16);
	t = kl_sym_load_mem(buf, n, "kallsyms", &err);
	assert_null(t);
	assert_int_equal(err.code, KL_EFORMAT);
	assert_non_null(strstr(err.msg, "every address is zero"));
	t = load_str("0000000000000000 T _text\n"
	    "0000000000000000 t foo\t[mod]\n", &err);
	assert_null(t);
	assert_int_equal(err.code, KL_EFORMAT);
	free(buf);
}

/* Compressed maps, a pipe, damaged compression. */
static void
t_compressed(void **state)
{
	static const char *const tool[][2] = {
		{ "gzip", "gz" }, { "xz", "xz" }, { "zstd", "zst" },
		{ "bzip2", "bz2" }, { "lz4", "lz4" },
	};
	char path[256], cmd[600], *buf;
	struct kl_error err;
	struct kl_symtab *t;
	struct stat sb;
	size_t i, n, done = 0;
	int fd[2];
	FILE *f;

	(void)state;
	for (i = 0; i < sizeof(tool) / sizeof(tool[0]); i++) {
		if (!have(tool[i][0]))
			continue;
		snprintf(path, sizeof(path), "%s/System.map-6.1.0-57-amd64.%s",
		    tmpdir, tool[i][1]);
		snprintf(cmd, sizeof(cmd), "%s -c < '%s' > '%s'", tool[i][0],
		    SLICE, path);
		assert_int_equal(system(cmd), 0);
		t = kl_sym_load(path, &err);
		assert_non_null(t);
		assert_int_equal(kl_sym_count(t), 124);
		assert_int_equal(kl_sym_stats(t)->lines, 137);
		assert_string_equal(kl_sym_release(t), "6.1.0-57-amd64");
		assert_string_equal(at(t, 0xffffffff81a01dc8ULL),
		    "panic+0x118/0x2f4");
		kl_sym_free(t);
		done++;
	}
	if (have("xz")) {
		/* cut short: the xz error, nothing half-loaded */
		snprintf(path, sizeof(path), "%s/System.map-6.1.0-57-amd64.xz",
		    tmpdir);
		assert_int_equal(stat(path, &sb), 0);
		assert_int_equal(truncate(path, sb.st_size - 12), 0);
		t = kl_sym_load(path, &err);
		assert_null(t);
		assert_int_equal(err.code, KL_EFORMAT);
		assert_non_null(strstr(err.msg, ": xz: "));
		/* not one byte comes out */
		assert_int_equal(truncate(path, 100), 0);
		t = kl_sym_load(path, &err);
		assert_null(t);
		assert_int_equal(err.code, KL_EFORMAT);
		assert_non_null(strstr(err.msg, ": xz: no data: "));
		unlink(path);
	}
	for (i = 0; i < sizeof(tool) / sizeof(tool[0]); i++) {
		snprintf(path, sizeof(path), "%s/System.map-6.1.0-57-amd64.%s",
		    tmpdir, tool[i][1]);
		unlink(path);
	}
	print_message("compressed by %zu tools\n", done);

	/* a pipe: no seeking */
	f = fopen(SLICE, "rb");
	assert_non_null(f);
	buf = malloc(1 << 16);
	assert_non_null(buf);
	n = fread(buf, 1, 1 << 16, f);
	fclose(f);
	assert_int_equal(pipe(fd), 0);
	assert_int_equal(write(fd[1], buf, n), (ssize_t)n);
	close(fd[1]);
	t = kl_sym_load_fd(fd[0], "System.map-6.1.0-57-amd64", &err);
	close(fd[0]);
	assert_non_null(t);
	assert_int_equal(kl_sym_count(t), 124);
	assert_string_equal(kl_sym_release(t), "6.1.0-57-amd64");
	kl_sym_free(t);
	/* the same bytes from memory */
	t = kl_sym_load_mem(buf, n, "dir/kallsyms-6.1.0-57-amd64", &err);
	assert_non_null(t);
	assert_int_equal(kl_sym_count(t), 124);
	assert_string_equal(kl_sym_release(t), "6.1.0-57-amd64");
	kl_sym_free(t);
	free(buf);
}

/* A directory of maps, loaded on demand. */
static void
t_symdir(void **state)
{
	static const char mods[] =
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81000100 B _end\n"
	    "ffffffffc0001000 t m\t[mod]\n";
	const struct kl_symtab *a, *b;
	char path[256], cmd[1200];
	struct kl_symdir *d;
	struct kl_error err;

	(void)state;
	snprintf(path, sizeof(path), "%s/System.map-6.1.0-57-amd64", tmpdir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && gzip -c < '%s' > '%s.gz'",
	    SLICE, path, SLICE, path);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/kallsyms-6.1.0-99-test", tmpdir);
	put_file(path, mods, strlen(mods));
	snprintf(path, sizeof(path), "%s/System.map-broken-1", tmpdir);
	put_file(path, "hello\nworld\n", 12);
	snprintf(path, sizeof(path), "%s/README", tmpdir);
	put_file(path, "x\n", 2);

	d = kl_symdir_open(tmpdir, &err);
	assert_non_null(d);
	assert_int_equal(kl_symdir_count(d), 3);
	assert_string_equal(kl_symdir_release(d, 0), "6.1.0-57-amd64");
	assert_string_equal(kl_symdir_release(d, 1), "6.1.0-99-test");
	assert_string_equal(kl_symdir_release(d, 2), "broken-1");
	assert_null(kl_symdir_release(d, 3));
	a = kl_symdir_get(d, "6.1.0-57-amd64", &err);
	assert_non_null(a);
	b = kl_symdir_get(d, "6.1.0-57-amd64", &err);
	assert_ptr_equal(a, b);
	assert_int_equal(kl_sym_count(a), 124);
	a = kl_symdir_get(d, "6.1.0-99-test", &err);
	assert_non_null(a);
	assert_string_equal(at(a, 0xffffffffc0001000ULL), "m+0x0 [mod]");
	assert_null(kl_symdir_get(d, "6.1.0-1-amd64", &err));
	assert_int_equal(err.code, KL_EIO);
	assert_int_equal(err.errnum, ENOENT);
	assert_null(kl_symdir_get(d, "broken-1", &err));
	assert_int_equal(err.code, KL_EFORMAT);
	memset(&err, 0, sizeof(err));
	assert_null(kl_symdir_get(d, "broken-1", &err));
	assert_int_equal(err.code, KL_EFORMAT);
	kl_symdir_free(d);

	assert_null(kl_symdir_open(TESTDATA "/no-such-dir", &err));
	assert_int_equal(err.code, KL_EIO);
	snprintf(cmd, sizeof(cmd), "rm -f '%s'/System.map-* '%s'/kallsyms-* "
	    "'%s'/README", tmpdir, tmpdir, tmpdir);
	assert_int_equal(system(cmd), 0);
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

/* Make the scratch directory. */
static int
setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test-symbols.XXXXXX");
	return (mkdtemp(tmpdir) == NULL ? -1 : 0);
}

/* Remove the scratch directory. */
static int
teardown(void **state)
{
	(void)state;
	return (rmdir(tmpdir));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_slice),
		cmocka_unit_test(t_percpu_above_text),
		cmocka_unit_test(t_kallsyms_slice),
		cmocka_unit_test(t_full),
		cmocka_unit_test(t_modules),
		cmocka_unit_test(t_aliases),
		cmocka_unit_test(t_types),
		cmocka_unit_test(t_malformed),
		cmocka_unit_test(t_all_zero),
		cmocka_unit_test(t_compressed),
		cmocka_unit_test(t_symdir),
		cmocka_unit_test(t_format),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
