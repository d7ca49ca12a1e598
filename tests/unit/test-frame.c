/*
 * test-frame.c - record framing (lib/frame.c).
 *
 * Lines come from ../shared/corpus (the file and line are cited above
 * each) where the corpus has the format; the formats it lacks use the
 * example of the document that defines them, or a line built to pin one
 * rule, named after it.  Every case checks every field of the frame.
 * t_printk_same reads the test logs and, when ../shared is there, the
 * corpus: the fast path for printk's prefix must frame as the rest does.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kleak.h"
#include "kleak-int.h"
#include "lines-harness.h"

#define P	KL_LINE_PLAIN
#define D	KL_LINE_DMESG
#define R	KL_LINE_DMESG_RAW
#define K	KL_LINE_KMSG
#define KC	KL_LINE_KMSG_CONT
#define S	KL_LINE_SYSLOG
#define S5	KL_LINE_RFC5424
#define J	KL_LINE_JOURNAL_MARK
#define AUTO	KL_FORMAT_AUTO
#define TEXT	KL_FORMAT_TEXT
#define KMSG	KL_FORMAT_KMSG
#define NOTS	0, 0		/* has_ts, ts_us: no kernel time */
#define TS(us)	1, (us)

/* One line and the frame it must get. */
struct fcase {
	const char		*line;
	size_t			 len;
	enum kl_line_kind	 prev;
	enum kl_format		 format;
	enum kl_line_kind	 kind;
	size_t			 msg;
	int			 level;
	int			 has_ts;
	uint64_t		 ts_us;
	int			 boot;
};
#define C(s)	(s), sizeof(s) - 1

/* Frame each case and compare every field. */
static void
run(const struct fcase *t, size_t n)
{
	struct kl_frame f;
	size_t i;

	for (i = 0; i < n; i++) {
		memset(&f, 0x5a, sizeof(f));
		kl_frame_line((const uint8_t *)t[i].line, t[i].len, t[i].prev,
		    t[i].format, &f);
		if (f.kind != t[i].kind || f.msg != t[i].msg ||
		    f.level != t[i].level || f.has_ts != t[i].has_ts ||
		    f.ts_us != t[i].ts_us || f.boot != t[i].boot)
			fail_msg("case %zu \"%.60s\": got kind %d msg %zu "
			    "level %d ts %d/%llu boot %d, want kind %d msg %zu "
			    "level %d ts %d/%llu boot %d", i, t[i].line, f.kind,
			    f.msg, f.level, f.has_ts,
			    (unsigned long long)f.ts_us, f.boot, t[i].kind,
			    t[i].msg, t[i].level, t[i].has_ts,
			    (unsigned long long)t[i].ts_us, t[i].boot);
	}
}
#define RUN(t)	run((t), sizeof(t) / sizeof((t)[0]))

/* printk's "[%5lu.%06lu] " with and without a caller id. */
static void
t_dmesg(void **state)
{
	static const struct fcase t[] = {
		/* qemu/x86_64-6.1.0-57-amd64-boot1/dmesg.log:1 */
		{ C("[    0.000000] Linux version 6.1.0-57-amd64 "
		    "(debian-kernel@lists.debian.org) (gcc-12 (Debian "
		    "12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for "
		    "Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 "
		    "(2026-11-26)"), P, AUTO, D, 15, -1, TS(0), 1 },
		/* qemu/x86_64-6.1.0-57-amd64-boot1/dmesg.log:18 */
		{ C("[    0.016554] AGP: No AGP bridge found"), P, AUTO, D, 15,
		    -1, TS(16554), 0 },
		/* syzkaller/report/0:6 */
		{ C("[  772.918915] BUG: unable to handle kernel paging "
		    "request at ffff88002bde1e40"), D, AUTO, D, 15, -1,
		    TS(772918915), 0 },
		/* syzkaller/report/0:12: the message's own spaces stay */
		{ C("[  772.919010]    (ftrace buffer empty)"), D, TEXT, D, 15,
		    -1, TS(772919010), 0 },
		/* syzkaller/report/472:6 */
		{ C("[   50.509230][    C1] BUG: KASAN: use-after-free in "
		    "pn533_send_complete.cold+0x47/0x6c"), P, AUTO, D, 23, -1,
		    TS(50509230), 0 },
		/* syzkaller/report/753:5 */
		{ C("[ 1448.582383][    C1] ------------[ cut here ]"
		    "------------"), P, AUTO, D, 23, -1, TS(1448582383), 0 },
		/* syzkaller/report/694:6 */
		{ C("[  771.741335][T15335] ==============================="
		    "==================================="), P, AUTO, D, 23, -1,
		    TS(771741335), 0 },
		/* syzkaller/report/661:6 */
		{ C("[   54.502667][ T3608] BUG: KASAN: slab-out-of-bounds in "
		    "hex_dump_to_buffer+0xdc1/0xdf0"), P, AUTO, D, 23, -1,
		    TS(54502667), 0 },
		/* caller id alone (printk.time=0, CONFIG_PRINTK_CALLER) */
		{ C("[    T1] Linux version 6.1.0"), P, AUTO, D, 9, -1, NOTS,
		    1 },
		/* vendor caller ids "T%u@C%u" and "T%u:C%u" */
		{ C("[  5.1][T12@C3] x"), P, AUTO, D, 16, -1, TS(5100000), 0 },
		{ C("[  5.1][ T12:C3] x"), P, AUTO, D, 17, -1, TS(5100000), 0 },
		/* no space after the prefix */
		{ C("[    1.000000]x"), P, AUTO, D, 14, -1, TS(1000000), 0 },
		/* nothing after the prefix */
		{ C("[    1.000000]"), P, AUTO, D, 14, -1, TS(1000000), 0 },
		/* fractions other than 6 digits scale to microseconds */
		{ C("[1.5] x"), P, AUTO, D, 6, -1, TS(1500000), 0 },
		{ C("[1.123456789] x"), P, AUTO, D, 14, -1, TS(1123456), 0 },
		/* dmesg -T (kernel-facts.md 5.6): wall clock, not a kernel
		   time */
		{ C("[Mon Jan  2 03:04:05 2024] usb 1-1: new device"), P,
		    AUTO, D, 27, -1, NOTS, 0 },
		{ C("[Tue Dec 12 13:04:05 2023][  T42] x"), P, AUTO, D, 34, -1,
		    NOTS, 0 },
		/* dmesg -d: time and delta */
		{ C("[    1.234567 <    0.000123>] x"), P, AUTO, D, 30, -1,
		    TS(1234567), 0 },
		/* dmesg --time-format delta/reltime: relative, no kernel
		   time */
		{ C("[  +0.000123] x"), P, AUTO, D, 14, -1, NOTS, 0 },
		/*
		 * Each byte fr_dmesg() lets follow the '[': the other
		 * weekdays of dmesg -T, a '+' with no padding, a caller id
		 * with none; after a syslog header, where fr_tags() reads
		 * the bracket.  "[drm]" is none of them.
		 */
		{ C("[Wed Dec 13 13:04:05 2023] x"), P, AUTO, D, 27, -1,
		    NOTS, 0 },
		{ C("[Thu Dec 14 13:04:05 2023] x"), P, AUTO, D, 27, -1,
		    NOTS, 0 },
		{ C("[Fri Dec 15 13:04:05 2023] x"), P, AUTO, D, 27, -1,
		    NOTS, 0 },
		{ C("[Sat Dec 16 13:04:05 2023] x"), P, AUTO, D, 27, -1,
		    NOTS, 0 },
		{ C("[Sun Dec 17 13:04:05 2023] x"), P, AUTO, D, 27, -1,
		    NOTS, 0 },
		{ C("[+0.000123] x"), P, AUTO, D, 12, -1, NOTS, 0 },
		{ C("[C3] x"), P, AUTO, D, 5, -1, NOTS, 0 },
		{ C("[drm] x"), P, AUTO, P, 0, -1, NOTS, 0 },
	};

	(void)state;
	RUN(t);
}

/* journalctl -o short-monotonic: "[ts] host ident: msg". */
static void
t_jmono(void **state)
{
	static const struct fcase t[] = {
		{ C("[    1.234567] myhost kernel: usb 1-1: new high-speed "
		    "USB device"), P, AUTO, D, 30, -1, TS(1234567), 0 },
		/* a hex hostname is not scanned */
		{ C("[    5.000000] deadbeefcafebabe systemd[1]: Started x"),
		    P, AUTO, D, 44, -1, TS(5000000), 0 },
		{ C("[    0.000000] host kernel: Linux version 6.1.0"), P,
		    AUTO, D, 28, -1, TS(0), 1 },
		/* kernel messages of the same look are not stepped over */
		{ C("[    2.345678] usb 1-1: new high-speed USB device"), P,
		    AUTO, D, 15, -1, TS(2345678), 0 },
		{ C("[    2.345678] Call Trace:"), P, AUTO, D, 15, -1,
		    TS(2345678), 0 },
		{ C("[    2.345678] systemd[1]: Started x"), P, AUTO, D, 15,
		    -1, TS(2345678), 0 },
		{ C("[    2.345678] EXT4-fs (sda1): mounted"), P, AUTO, D, 15,
		    -1, TS(2345678), 0 },
		/* only after a bare printk time */
		{ C("[    2.345678][  T1] host kernel: x"), P, AUTO, D, 21, -1,
		    TS(2345678), 0 },
	};

	(void)state;
	RUN(t);
}

/* dmesg -r "<N>[ts] msg", and a bare "<N>". */
static void
t_dmesg_raw(void **state)
{
	static const struct fcase t[] = {
		/* boot/tf201log__dmesg.txt:1 */
		{ C("<6>[    0.000000] Initializing cgroup subsys cpu"), P,
		    AUTO, R, 18, 6, TS(0), 0 },
		/* boot/tf201log__dmesg.txt:2 */
		{ C("<5>[    0.000000] Linux version 2.6.36.3 (android@Mercury) "
		    "(gcc version 4.4.3 (GCC) ) #1 SMP PREEMPT Sat Dec 24 "
		    "01:57:20 CST 2011"), R, AUTO, R, 18, 5, TS(0), 1 },
		/* boot/tf201log__dmesg.txt:3 */
		{ C("<4>[    0.000000] CPU: ARMv7 Processor [412fc099] "
		    "revision 9 (ARMv7), cr=10c5387f"), R, AUTO, R, 18, 4,
		    TS(0), 0 },
		/* facility bits: level is N & 7 */
		{ C("<14>[   12.000001][  T123] x"), P, AUTO, R, 27, 6,
		    TS(12000001), 0 },
		/* syslog(2) with printk.time=0 */
		{ C("<6>TCP reno registered"), P, AUTO, R, 3, 6, NOTS, 0 },
		{ C("<6>"), P, AUTO, R, 3, 6, NOTS, 0 },
		/* a bracket that is not a time stays in the message */
		{ C("<6>[<ffffffff81000000>] x"), P, AUTO, R, 3, 6, NOTS, 0 },
	};

	(void)state;
	RUN(t);
}

/* dmesg -x and dmesg --time-format iso (kernel-facts.md 5.6). */
static void
t_dmesg_util(void **state)
{
	static const struct fcase t[] = {
		{ C("kern  :info  : [    1.234567] msg"), P, AUTO, D, 30, 6,
		    TS(1234567), 0 },
		{ C("kern  :warn  : [    0.000000] Linux version 6.1.0"), P,
		    AUTO, D, 30, 4, TS(0), 1 },
		{ C("daemon:notice: [    3.000000] x"), P, AUTO, D, 30, 5,
		    TS(3000000), 0 },
		{ C("user  :err   : msg"), P, AUTO, D, 15, 3, NOTS, 0 },
		{ C("authpriv:debug: x"), P, AUTO, D, 16, 7, NOTS, 0 },
		{ C("local7:emerg : x"), P, AUTO, D, 15, 0, NOTS, 0 },
		{ C("kern  :info  : [Mon Jan  2 03:04:05 2024] x"), P, AUTO,
		    D, 42, 6, NOTS, 0 },
		/* not a facility, not a level */
		{ C("kernel:info  : x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("kern  :inf   : x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("kern  :info  :x"), P, AUTO, P, 0, -1, NOTS, 0 },
		/* dmesg --time-format iso writes ',' */
		{ C("2024-01-02T03:04:05,123456+00:00 msg"), P, AUTO, D, 33,
		    -1, NOTS, 0 },
		{ C("2024-01-02T03:04:05,123456+00:00 Linux version 6.1.0"),
		    P, AUTO, D, 33, -1, NOTS, 1 },
	};

	(void)state;
	RUN(t);
}

/* /dev/kmsg records and their continuation lines. */
static void
t_kmsg(void **state)
{
	static const struct fcase t[] = {
		/* Documentation/ABI/testing/dev-kmsg (kernel-facts.md 5.5) */
		{ C("7,160,424069,-;pci_root PNP0A03:00: host bridge window "
		    "[io  0x0000-0x0cf7] (ignored)"), P, AUTO, K, 15, 7,
		    TS(424069), 0 },
		{ C(" SUBSYSTEM=acpi"), K, AUTO, KC, 1, -1, NOTS, 0 },
		{ C(" DEVICE=+acpi:PNP0A03:00"), KC, AUTO, KC, 1, -1, NOTS, 0 },
		{ C("6,339,5140900,-;NET: Registered protocol family 10"), KC,
		    AUTO, K, 16, 6, TS(5140900), 0 },
		/* CONFIG_PRINTK_CALLER, and fields to be ignored */
		{ C("6,1234,5678901,-,caller=T1;msg"), P, AUTO, K, 27, 6,
		    TS(5678901), 0 },
		{ C("6,1234,5678901,c,caller=C0,x=y;msg"), P, AUTO, K, 31, 6,
		    TS(5678901), 0 },
		{ C("5,0,0,-;Linux version 6.1.0-57-amd64"), P, KMSG, K, 8, 5,
		    TS(0), 1 },
		/* facility bits */
		{ C("14,5,6,-;x"), P, AUTO, K, 9, 6, TS(6), 0 },
		/* a 20-digit time saturates */
		{ C("6,1,99999999999999999999,-;x"), P, AUTO, K, 27, 6,
		    TS(UINT64_MAX), 0 },
		{ C("6,18446744073709551615,18446744073709551615,-;x"), P,
		    AUTO, K, 46, 6, TS(UINT64_MAX), 0 },
		/* continuation only after a kmsg line */
		{ C(" SUBSYSTEM=acpi"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C(" SUBSYSTEM=acpi"), D, KMSG, P, 0, -1, NOTS, 0 },
		{ C(" SUBSYSTEM=acpi"), K, KMSG, KC, 1, -1, NOTS, 0 },
		/* --format kmsg: nothing else is framed */
		{ C("[    1.000000] x"), P, KMSG, P, 0, -1, NOTS, 0 },
		{ C("<6>[    1.000000] x"), P, KMSG, P, 0, -1, NOTS, 0 },
		/* truncated headers */
		{ C("6,12,"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("6,12,34"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("6,12,34,"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("6,12,34,-"), P, KMSG, P, 0, -1, NOTS, 0 },
		{ C("6,12,34,;x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("12345,1,2,-;x"), P, AUTO, P, 0, -1, NOTS, 0 },
	};

	(void)state;
	RUN(t);
}

/* Syslog files: RFC 3164 and RFC 3339 headers. */
static void
t_syslog(void **state)
{
	static const struct fcase t[] = {
		/* loghub/loghub__Linux_Linux_2k.log:1911 */
		{ C("Jul 27 14:41:57 combo kernel: Linux version 2.6.5-1.358 "
		    "(bhcompile@bugs.build.redhat.com) (gcc version 3.3.3 "
		    "20040412 (Red Hat Linux 3.3.3-7)) #1 Sat May 8 09:04:50 "
		    "EDT 2004"), P, AUTO, S, 30, -1, NOTS, 1 },
		/* loghub/loghub__Linux_Linux_2k.log:1913 */
		{ C("Jul 27 14:41:57 combo kernel:  BIOS-e820: "
		    "0000000000000000 - 00000000000a0000 (usable)"), S, AUTO,
		    S, 30, -1, NOTS, 0 },
		/* loghub/loghub__Linux_Linux_2k.log:1 */
		{ C("Jun 14 15:16:01 combo sshd(pam_unix)[19939]: "
		    "authentication failure; logname= uid=0 euid=0 "
		    "tty=NODEVssh ruser= rhost=218.188.2.4 "), S, AUTO, S, 45,
		    -1, NOTS, 0 },
		/* loghub/loghub__Linux_Linux_2k.log:146: no tag */
		{ C("Jun 19 04:09:11 combo syslogd 1.4.1: restart."), S, AUTO,
		    S, 22, -1, NOTS, 0 },
		/* imklog kept the kernel time (kernel-facts.md 5.7) */
		{ C("Jan  2 03:04:05 host kernel: [   12.345678] msg"), P, AUTO,
		    S, 44, -1, TS(12345678), 0 },
		/* a hostname of 16 hex digits is never the message */
		{ C("Jan  2 03:04:05 deadbeefcafebabe kernel: [   12.345678] "
		    "msg"), P, AUTO, S, 56, -1, TS(12345678), 0 },
		{ C("Jan  2 03:04:05 ffffffff81000000 msg without a tag"), P,
		    AUTO, S, 33, -1, NOTS, 0 },
		{ C("Jan  2 03:04:05 ffffffff81000000"), P, AUTO, S, 32, -1,
		    NOTS, 0 },
		/* no hostname */
		{ C("Jan  2 03:04:05 kernel: msg"), P, AUTO, S, 24, -1, NOTS,
		    0 },
		/* journalctl short and short-precise */
		{ C("Jan 02 03:04:05 host kernel: msg"), P, AUTO, S, 29, -1,
		    NOTS, 0 },
		{ C("Jan 02 03:04:05.123456 host systemd[1]: Started x"), P,
		    AUTO, S, 40, -1, NOTS, 0 },
		/* busybox syslogd: the priority gives the level */
		{ C("Jan  2 03:04:05 host kern.warn kernel: [    1.234567] "
		    "msg"), P, AUTO, S, 54, 4, TS(1234567), 0 },
		{ C("Jan  2 03:04:05 host user.notice root: x"), P, AUTO, S,
		    39, 5, NOTS, 0 },
		/* RSYSLOG_FileFormat (kernel-facts.md 5.7) */
		{ C("2024-01-02T03:04:05.123456+00:00 host kernel: msg"), P,
		    AUTO, S, 46, -1, NOTS, 0 },
		/* journalctl short-iso */
		{ C("2024-01-02T03:04:05+0100 host kernel: msg"), P, AUTO, S,
		    38, -1, NOTS, 0 },
		{ C("2024-01-02T03:04:05Z 0123456789abcdef kernel: x"), P,
		    AUTO, S, 46, -1, NOTS, 0 },
		/* RFC 3164 wire form, RSYSLOG_ForwardFormat */
		{ C("<6>Jan  2 03:04:05 host kernel: msg"), P, AUTO, S, 32, 6,
		    NOTS, 0 },
		{ C("<14>2024-01-02T03:04:05.123+01:00 host app[12]: msg"), P,
		    AUTO, S, 48, 6, NOTS, 0 },
		/* not a time */
		{ C("Jan  2 03:04 host kernel: x"), P, AUTO, P, 0, -1, NOTS,
		    0 },
		{ C("Jun 14 15:16:01combo x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("2024-01-02 03:04:05 host x"), P, AUTO, P, 0, -1, NOTS,
		    0 },
		{ C("2024-01-02T03:04:05+01 host x"), P, AUTO, P, 0, -1,
		    NOTS, 0 },
	};

	(void)state;
	RUN(t);
}

/* RFC 5424: examples of RFC 5424 section 6.5, and the SD rules. */
static void
t_rfc5424(void **state)
{
	static const struct fcase t[] = {
		{ C("<34>1 2003-10-11T22:14:15.003Z mymachine.example.com su "
		    "- ID47 - \xef\xbb\xbf'su root' failed for lonvick on "
		    "/dev/pts/8"), P, AUTO, S5, 68, 2, NOTS, 0 },
		{ C("<165>1 2003-08-24T05:14:15.000003-07:00 192.0.2.1 myproc "
		    "8710 - - %% It's time to make the do-nuts."), P, AUTO, S5,
		    66, 5, NOTS, 0 },
		{ C("<165>1 2003-10-11T22:14:15.003Z mymachine.example.com "
		    "evntslog - ID47 [exampleSDID@32473 iut=\"3\" "
		    "eventSource=\"Application\" eventID=\"1011\"] "
		    "\xef\xbb\xbf" "An application event log entry..."), P,
		    AUTO, S5, 142, 5, NOTS, 0 },
		/* two SD elements and no MSG */
		{ C("<165>1 2003-10-11T22:14:15.003Z mymachine.example.com "
		    "evntslog - ID47 [exampleSDID@32473 iut=\"3\" "
		    "eventSource=\"Application\" eventID=\"1011\"]"
		    "[examplePriority@32473 class=\"high\"]"), P, AUTO, S5, 174,
		    5, NOTS, 0 },
		/* escaped '"', '\' and ']' in a value */
		{ C("<6>1 - host kernel - - [x@1 a=\"b\\]c\" d=\"\\\"q\\\\\"] "
		    "msg"), P, AUTO, S5, 48, 6, NOTS, 0 },
		/* a ']' inside quotes does not close */
		{ C("<6>1 - host kernel - - [x@1 a=\"]\"] msg"), P, AUTO, S5,
		    35, 6, NOTS, 0 },
		/* a hex hostname is skipped, the kernel time taken */
		{ C("<0>1 2024-01-02T03:04:05Z 0123456789abcdef kernel - - - "
		    "[    1.000000] Linux version 6.1.0"), P, AUTO, S5, 71, 0,
		    TS(1000000), 1 },
		/* broken SD: scan from the SD */
		{ C("<6>1 - host kernel - - [x@1 a=\"b] msg"), P, AUTO, S5, 23,
		    6, NOTS, 0 },
		{ C("<6>1 - host kernel - - x msg"), P, AUTO, S5, 23, 6, NOTS,
		    0 },
		{ C("<6>1 - host kernel - -x msg"), P, AUTO, S5, 24, 6, NOTS,
		    0 },
		/* missing fields: scan from the field that is missing */
		{ C("<6>1 - host kernel"), P, AUTO, S5, 12, 6, NOTS, 0 },
		{ C("<6>1 - host"), P, AUTO, S5, 7, 6, NOTS, 0 },
		/* "<6>1 " that is not RFC 5424: a dmesg -r message */
		{ C("<6>1 port up"), P, AUTO, R, 3, 6, NOTS, 0 },
	};

	(void)state;
	RUN(t);
}

/* journalctl markers. */
static void
t_journal(void **state)
{
	static const struct fcase t[] = {
		{ C("-- Boot 3c9b7a1b2f4e4d0a9d2c8b2e2b1e6f1a --"), S, AUTO, J,
		    43, -1, NOTS, 1 },
		{ C("-- Reboot --"), S, AUTO, J, 12, -1, NOTS, 1 },
		{ C("-- Reboot --\r"), S, AUTO, J, 12, -1, NOTS, 1 },
		{ C("-- Logs begin at Mon 2024-01-01 10:00:00 CET, end at "
		    "Mon 2024-01-01 12:00:00 CET. --"), P, AUTO, J, 84, -1,
		    NOTS, 0 },
		{ C("-- No entries --"), P, AUTO, J, 16, -1, NOTS, 0 },
		{ C("-- Reboot"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("-- --"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("--- ffffffff81000000 ---"), P, AUTO, P, 0, -1, NOTS, 0 },
	};

	(void)state;
	RUN(t);
}

/* Lines with no prefix the framing takes. */
static void
t_plain(void **state)
{
	static const struct fcase t[] = {
		/* qemu/x86_64-6.1.0-57-amd64-boot1/console.log:9: ANSI
		   escapes before the banner, which still starts a boot */
		{ C("Probing EDD (edd=off to disable)... o\x1b" "c\x1b[?7l"
		    "\x1b[2J[    0.000000] Linux version 6.1.0-57-amd64 "
		    "(debian-kernel@lists.debian.org) (gcc-12 (Debian "
		    "12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for "
		    "Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 "
		    "(2026-11-26)"), P, AUTO, P, 0, -1, NOTS, 1 },
		/* boot/anyka-cams__dmesg.txt:3 */
		{ C("Linux version 3.4.35 (root@ubuntu) (gcc version 4.4.1 "
		    "(Sourcery G++ Lite 2009q3-67) ) #25 Tue Nov 19 14:00:09 "
		    "HKT 2019"), P, AUTO, P, 0, -1, NOTS, 1 },
		/* mail/linux-s390/3ca24c152661255b40cc0988d0fc88ca026ac60a.eml
		   :15: prose is not a banner */
		{ C("My environment is QEMU Ubuntu 24.04 KVM Machine Linux "
		    "version"), P, AUTO, P, 0, -1, NOTS, 0 },
		/* mail/linux-s390/70be25cdbe6f3e13c17cc571389e27bd29301b5c.eml
		   :10: a quoted log line stays plain */
		{ C("> [  283.486118] WARNING: CPU: 1 PID: 1 at "
		    "mm/debug_vm_pgtable.c:371 debug_vm_pgtable+0x4dc/0x7e3"),
		    P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("> [    0.000000] Linux version 5.6.0"), P, AUTO, P, 0, -1,
		    NOTS, 1 },
		/* boot/kobo-touch-rakuten__dmesg.txt:1 */
		{ C("6>TCP reno registered"), P, AUTO, P, 0, -1, NOTS, 0 },
		/* loghub/loghub__Android_Android_2k.log:1 */
		{ C("03-17 16:13:38.811  1702  2395 D WindowManager: "
		    "printFreezingDisplayLogsopening app wtoken"), P, AUTO, P,
		    0, -1, NOTS, 0 },
		/* syzkaller/report/0:1 */
		{ C("TITLE: BUG: unable to handle kernel paging request in "
		    "corrupted"), P, AUTO, P, 0, -1, NOTS, 0 },
		/* syzkaller/guilty/42:14: an old-style frame is the message */
		{ C("[<ffff200008091958>] dump_backtrace+0x0/0x440 "
		    "arch/arm64/kernel/traps.c:69"), P, AUTO, P, 0, -1, NOTS,
		    0 },
		/* boot/rg353v_linux__latest_mainline.log:1: NUL and CR */
		{ C("\0DDR Version V1.13 20220218\r"), P, AUTO, P, 0, -1, NOTS,
		    0 },
		{ C(""), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("\r"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("Linux versions"), P, AUTO, P, 0, -1, NOTS, 0 },
		/* a paste's numbered line starts after its number, and
		   stays plain after a syslog line (fuzz-frame found the
		   harness wrong here: tests/fuzz/regress/frame-numbered) */
		{ C("51: C500"), S, AUTO, P, 4, -1, NOTS, 0 },
		{ C("51: C500\r"), S, AUTO, P, 4, -1, NOTS, 0 },
		{ C("  7\tBUG: kernel NULL pointer dereference"), P, AUTO, P,
		    4, -1, NOTS, 0 },
	};

	(void)state;
	RUN(t);
}

/* Cut, broken and hostile prefixes. */
static void
t_hostile(void **state)
{
	static const struct fcase t[] = {
		{ C("[    1.2"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[    1.234567"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[    1.234567 <"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[    1.234567 <  0.1"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[    1.] x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[    .5] x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[1234567890123.5] x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("["), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[]"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[    T] x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[Mon Jan  2 03:04:05 202] x"), P, AUTO, P, 0, -1, NOTS,
		    0 },
		/* a good time followed by a cut caller id */
		{ C("[    1.000000][  T1"), P, AUTO, D, 14, -1, TS(1000000),
		    0 },
		{ C("<6"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("<"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("<>x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("<1234>x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("<6>[    1.2"), P, AUTO, R, 3, 6, NOTS, 0 },
		{ C("<6>1 2024-01-02T03:04:05Z"), P, AUTO, R, 3, 6, NOTS, 0 },
		{ C("Jan  2 03:04:"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("Jan"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("2024-01-02T03:04:05."), P, AUTO, P, 0, -1, NOTS, 0 },
		/* NUL bytes are data */
		{ C("[    1.234567] a\0b"), P, AUTO, D, 15, -1, TS(1234567),
		    0 },
		{ C("[   \0 1.234567] x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("6,1,2,-\0;x"), P, AUTO, K, 9, 6, TS(2), 0 },
		{ C("Jan  2 03:04:05 ho\0st kernel: x"), P, AUTO, S, 30, -1,
		    NOTS, 0 },
		{ C("[    0.000000] Linux version\0 6.1"), P, AUTO, D, 15, -1,
		    TS(0), 0 },
		/* a trailing CR is not part of the line */
		{ C("[    1.000000] x\r"), P, AUTO, D, 15, -1, TS(1000000), 0 },
		/* a UTF-8 BOM before the first line */
		{ C("\xef\xbb\xbf[    1.000000] x"), P, AUTO, D, 18, -1,
		    TS(1000000), 0 },
		{ C("\xef\xbb\xbf" "Linux version 1"), P, AUTO, P, 0, -1,
		    NOTS, 1 },
		{ C("\xef\xbb\xbf"), P, AUTO, P, 0, -1, NOTS, 0 },
	};

	(void)state;
	RUN(t);
}

/* Fill buf[0..n) with c and return it. */
static uint8_t *
fill(size_t n, uint8_t c)
{
	uint8_t *b;

	b = malloc(n);
	assert_non_null(b);
	memset(b, c, n);
	return (b);
}

/*
 * The eight-bytes-at-a-time "[%5lu.%06lu]" of fr_brtime_fast() and the
 * near misses it leaves to the general loops: each byte class at each
 * position.
 */
static void
t_brtime(void **state)
{
	static const struct fcase t[] = {
		{ C("[99999.999999] x"), P, AUTO, D, 15, -1,
		    TS(99999999999), 0 },
		{ C("[12345.000001] x"), P, AUTO, D, 15, -1,
		    TS(12345000001), 0 },
		{ C("[    9.900000] x"), P, AUTO, D, 15, -1, TS(9900000), 0 },
		{ C("[ 8070.605040]"), P, AUTO, D, 14, -1, TS(8070605040), 0 },
		/* a space among the digits, none at all, ':' and '/' */
		{ C("[ 1 23.000000] x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[     .000000] x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[    :.000000] x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[    /.000000] x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[    1.00000:] x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[    1.00000a] x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[    1.0 0000] x"), P, AUTO, P, 0, -1, NOTS, 0 },
		{ C("[    1:000000] x"), P, AUTO, P, 0, -1, NOTS, 0 },
		/* other widths: the general loops */
		{ C("[    1.0000009] x"), P, AUTO, D, 16, -1, TS(1000000), 0 },
		{ C("[123456.000001] x"), P, AUTO, D, 16, -1,
		    TS(123456000001), 0 },
		{ C("[    1.00001] x"), P, AUTO, D, 14, -1, TS(1000010), 0 },
		{ C("[1.000002] x"), P, AUTO, D, 11, -1, TS(1000002), 0 },
	};

	(void)state;
	RUN(t);
}

/* 64 KiB lines: prefixes are sought in a bounded window only. */
static void
t_long(void **state)
{
	const size_t n = 65536;
	struct kl_frame f;
	uint8_t *b;

	(void)state;
	/* a long message after a good prefix */
	b = fill(n, 'f');
	memcpy(b, "[    1.000000] ", 15);
	kl_frame_line(b, n, KL_LINE_PLAIN, KL_FORMAT_AUTO, &f);
	assert_int_equal(f.kind, KL_LINE_DMESG);
	assert_int_equal(f.msg, 15);
	assert_int_equal(f.ts_us, 1000000);

	/* all hex digits */
	memset(b, 'f', n);
	kl_frame_line(b, n, KL_LINE_PLAIN, KL_FORMAT_AUTO, &f);
	assert_int_equal(f.kind, KL_LINE_PLAIN);
	assert_int_equal(f.msg, 0);
	assert_int_equal(f.boot, 0);

	/* a bracket whose spaces run past the window */
	memset(b, ' ', n);
	b[0] = '[';
	memcpy(b + n - 12, "1.000000] xy", 12);
	kl_frame_line(b, n, KL_LINE_PLAIN, KL_FORMAT_AUTO, &f);
	assert_int_equal(f.kind, KL_LINE_PLAIN);
	assert_int_equal(f.msg, 0);

	/* a hostname longer than the window: scanned, not skipped */
	memset(b, 'a', n);
	memcpy(b, "Jan  2 03:04:05 ", 16);
	memcpy(b + n - 12, " kernel: msg", 12);
	kl_frame_line(b, n, KL_LINE_PLAIN, KL_FORMAT_AUTO, &f);
	assert_int_equal(f.kind, KL_LINE_SYSLOG);
	assert_int_equal(f.msg, 16);

	/* a tag cut by the window: scanned from the tag */
	memset(b, 'a', n);
	memcpy(b, "Jan  2 03:04:05 host ", 21);
	b[n - 1] = ':';
	kl_frame_line(b, n, KL_LINE_PLAIN, KL_FORMAT_AUTO, &f);
	assert_int_equal(f.kind, KL_LINE_SYSLOG);
	assert_int_equal(f.msg, 21);

	/* an SD element longer than the window */
	memset(b, 'a', n);
	memcpy(b, "<6>1 - host kernel - - [x@1 a=\"", 31);
	memcpy(b + n - 6, "\"] msg", 6);
	kl_frame_line(b, n, KL_LINE_PLAIN, KL_FORMAT_AUTO, &f);
	assert_int_equal(f.kind, KL_LINE_RFC5424);
	assert_int_equal(f.msg, 23);

	/* a kmsg header whose ';' is past the window */
	memset(b, '-', n);
	memcpy(b, "6,1,2,", 6);
	b[n - 2] = ';';
	kl_frame_line(b, n, KL_LINE_PLAIN, KL_FORMAT_KMSG, &f);
	assert_int_equal(f.kind, KL_LINE_PLAIN);
	assert_int_equal(f.msg, 0);

	/* a journal marker that long is not one */
	memset(b, 'f', n);
	memcpy(b, "-- Boot ", 8);
	memcpy(b + n - 3, " --", 3);
	kl_frame_line(b, n, KL_LINE_PLAIN, KL_FORMAT_AUTO, &f);
	assert_int_equal(f.kind, KL_LINE_PLAIN);
	assert_int_equal(f.boot, 0);

	/* a banner past the window is not seen in a plain line */
	memset(b, 'x', n);
	memcpy(b + 200, "] Linux version 6", 17);
	kl_frame_line(b, n, KL_LINE_PLAIN, KL_FORMAT_AUTO, &f);
	assert_int_equal(f.boot, 0);
	free(b);
}

/* A NULL line of length 0 is an empty line. */
static void
t_empty(void **state)
{
	struct kl_frame f;

	(void)state;
	memset(&f, 0x5a, sizeof(f));
	kl_frame_line(NULL, 0, KL_LINE_KMSG, KL_FORMAT_KMSG, &f);
	assert_int_equal(f.kind, KL_LINE_PLAIN);
	assert_int_equal(f.msg, 0);
	assert_int_equal(f.level, -1);
	assert_int_equal(f.has_ts, 0);
	assert_int_equal(f.ts_us, 0);
	assert_int_equal(f.boot, 0);
}

/* Chained framing of a /dev/kmsg dump, as scan.c does it. */
static void
t_chain(void **state)
{
	static const char *const lines[] = {
		"6,1,100,-;first",
		" SUBSYSTEM=acpi",
		" DEVICE=+acpi:PNP0A03:00",
		"[    1.000000] x",
		" SUBSYSTEM=pci",
		"7,2,200,-;second",
		" DEVICE=n8",
	};
	static const enum kl_line_kind want[] = { K, KC, KC, D, P, K, KC };
	enum kl_line_kind prev = P;
	struct kl_frame f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		kl_frame_line((const uint8_t *)lines[i], strlen(lines[i]), prev,
		    KL_FORMAT_AUTO, &f);
		assert_int_equal(f.kind, want[i]);
		prev = f.kind;
	}
}

/*
 * kl_frame_prev_same(): two kinds of the line before that it calls the
 * same frame every line alike, in every format (the chunked scan starts
 * a chunk after a line of another kind when they are the same), and a
 * kmsg kind and another do not frame a continuation line alike.
 */
static void
t_prev_same(void **state)
{
	static const char *const lines[] = {
		" SUBSYSTEM=acpi", "  [    1.0] x", "6,1,100,-;first",
		"[    1.000000] x", "<6>[    1.000000] x", "plain text",
		" ", "\t x", "-- Boot 0123 --",
		"Jan  2 03:04:05 host kernel: [    1.000000] x",
	};
	static const enum kl_format fmts[] = { KL_FORMAT_AUTO,
	    KL_FORMAT_TEXT, KL_FORMAT_KMSG };
	struct kl_frame fa, fb;
	int a, b;
	size_t i, k;

	(void)state;
	for (a = KL_LINE_PLAIN; a <= KL_LINE_JOURNAL_MARK; a++)
		for (b = KL_LINE_PLAIN; b <= KL_LINE_JOURNAL_MARK; b++) {
			if (!kl_frame_prev_same((enum kl_line_kind)a,
			    (enum kl_line_kind)b))
				continue;
			for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
				for (k = 0; k < 3; k++) {
					kl_frame_line((const uint8_t *)lines[i],
					    strlen(lines[i]),
					    (enum kl_line_kind)a, fmts[k], &fa);
					kl_frame_line((const uint8_t *)lines[i],
					    strlen(lines[i]),
					    (enum kl_line_kind)b, fmts[k], &fb);
					assert_int_equal(fa.kind, fb.kind);
					assert_int_equal(fa.msg, fb.msg);
					assert_int_equal(fa.level, fb.level);
					assert_int_equal(fa.has_ts, fb.has_ts);
					assert_true(fa.ts_us == fb.ts_us);
					assert_int_equal(fa.boot, fb.boot);
				}
		}
	assert_true(kl_frame_prev_same(D, P));
	assert_true(kl_frame_prev_same(K, KC));
	assert_false(kl_frame_prev_same(K, D));
	kl_frame_line((const uint8_t *)" SUBSYSTEM=acpi", 15, K,
	    KL_FORMAT_AUTO, &fa);
	kl_frame_line((const uint8_t *)" SUBSYSTEM=acpi", 15, D,
	    KL_FORMAT_AUTO, &fb);
	assert_int_not_equal(fa.kind, fb.kind);
}

/* Frame b[0, n) both ways, after each kind and in each format; must agree. */
static void
both_ways(const char *where, const uint8_t *b, size_t n)
{
	static const enum kl_line_kind prevs[] = { P, D, K };
	static const enum kl_format fmts[] = { AUTO, TEXT, KMSG };
	struct kl_frame fa, fb;
	size_t i, j;

	for (i = 0; i < sizeof(prevs) / sizeof(prevs[0]); i++)
		for (j = 0; j < sizeof(fmts) / sizeof(fmts[0]); j++) {
			kl_frame_line(b, n, prevs[i], fmts[j], &fa);
			kl_frame_line_all(b, n, prevs[i], fmts[j], &fb);
			if (fa.kind != fb.kind || fa.msg != fb.msg ||
			    fa.level != fb.level || fa.has_ts != fb.has_ts ||
			    fa.ts_us != fb.ts_us || fa.boot != fb.boot)
				fail_msg("%s \"%.*s\": fast %d/%zu/%d/%d/%llu/%d, "
				    "general %d/%zu/%d/%d/%llu/%d", where,
				    (int)n, (const char *)b, fa.kind, fa.msg,
				    fa.level, fa.has_ts,
				    (unsigned long long)fa.ts_us, fa.boot,
				    fb.kind, fb.msg, fb.level, fb.has_ts,
				    (unsigned long long)fb.ts_us, fb.boot);
		}
}

/* A line of a file: both_ways(). */
static void
both_ways_line(void *arg, const char *path, size_t no, const uint8_t *b,
    size_t n)
{
	(void)arg;
	(void)no;
	both_ways(path, b, n);
}

/*
 * fr_printk(), printk's prefix read first, frames a line as the general
 * path does: lines built at its edges, then every line of the test logs
 * and, when ../shared is there, of the corpus.
 */
static void
t_printk_same(void **state)
{
	static const char *const edge[] = {
		"[    1.234567]",
		"[    1.234567] ",
		"[    1.234567]msg",
		"[    1.234567] Linux version 6.1.0 (gcc)",
		"[    1.234567] host kernel: Linux version 6.1.0 (gcc)",
		"[    1.234567] host sshd[12]: msg",
		"[    1.234567] [    2.000000] msg",
		"[    1.234567] c1 msg",
		"[    1.234567][    T1] msg",
		"[    1.234567][    C0]msg",
		"[    1.234567][  T123@C4] msg",
		"[    1.234567][    zz] msg",
		"[    1.234567][drm] msg",
		"[    1.234567] [drm] Initialized",
		"[12345.123456] msg\r",
		"[  12a.123456] msg",
		"[    1.23456] msg",
		"[    1.234567 <    0.000123>] msg",
		"[    1.234567@0] msg",
		"[    1.234567] \xef\xbb\xbf msg",
	};
	char line[256];
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		both_ways("edge", (const uint8_t *)edge[i], strlen(edge[i]));
		/* The same line cut short at every byte. */
		n = strlen(edge[i]);
		memcpy(line, edge[i], n);
		while (n-- > 0)
			both_ways("edge, cut", (const uint8_t *)line, n);
	}
	assert_true(lh_dir(TESTDATA, 1, NULL, both_ways_line, NULL) > 1000);
	(void)lh_dir(LH_CORPUS, 6, NULL, both_ways_line, NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_dmesg),
		cmocka_unit_test(t_jmono),
		cmocka_unit_test(t_dmesg_raw),
		cmocka_unit_test(t_dmesg_util),
		cmocka_unit_test(t_kmsg),
		cmocka_unit_test(t_syslog),
		cmocka_unit_test(t_rfc5424),
		cmocka_unit_test(t_journal),
		cmocka_unit_test(t_plain),
		cmocka_unit_test(t_hostile),
		cmocka_unit_test(t_brtime),
		cmocka_unit_test(t_long),
		cmocka_unit_test(t_empty),
		cmocka_unit_test(t_chain),
		cmocka_unit_test(t_prev_same),
		cmocka_unit_test(t_printk_same),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
