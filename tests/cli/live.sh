#!/bin/sh
# live.sh - --live-root on a captured tree (tests/live-root) and on
# the same tree as a sosreport-like archive, --redact of that archive,
# --squash-by-*, and --live on this machine as root and as an
# unprivileged user.  The live runs assert completion, counts and the
# readable_by field only: they never print this machine's addresses.

. "$(dirname "$0")/tap.sh"

# The tree, with the symlinks a copy of /proc has (made here: make dist
# would follow them): an absolute one, never followed out of the root,
# and a relative one.
ROOT=$TMP/live-root
cp -R "$TOPSRC/tests/live-root" "$ROOT"
ln -s /proc/1 "$ROOT/proc/self"
ln -s 1 "$ROOT/proc/thread-self"

# The findings of a text run: name:line:column: region value.
fields() {
	sed -n 's/^\([^ ]*\) \([a-z-]*\) \([a-z]*\) \(0x[0-9a-f]*\).*/\1 \2 \4/p' \
	    "$1"
}

# What the captured tree holds: kallsyms lines of the corpus boot, a raw
# address in a binary sysfs file, the Kernel Offset line of its log and
# a path name.  Not: the signal mask of /proc/1/status, /proc/2 (one
# /proc/PID is walked), /proc/kcore and trace_pipe (skipped).
want='/proc/kallsyms:1:1: text 0xffffffff85200000
/proc/kallsyms:2:1: text 0xffffffff85200000
/proc/kallsyms:3:1: text 0xffffffff85200000
/proc/kallsyms:4:1: text 0xffffffff85563fa0
/proc/kallsyms:5:1: text 0xffffffff85564470
/proc/kallsyms:6:1: text 0xffffffff85890910
/proc/kallsyms:7:1: text 0xffffffff85c01cb0
/proc/kallsyms:8:1: text 0xffffffff86001d32
/proc/kallsyms:9:1: text 0xffffffff86c00000
/proc/kallsyms:10:1: text 0xffffffff86c1aa40
/sys/bus/pci/devices/0000:00:00.0/config:1:14: text 0xffffffff85564470
sos_commands/kernel/dmesg:4:33: layout 0x4200000
path-names:1:27: text 0xffffffff85563fa0'

run --live-root "$ROOT"
is_status 1 "--live-root DIR"
is "$(fields "$TMP/out")" "$want" "--live-root DIR: exactly the findings"
is "$ERR" "kleakscan: /proc/self: absolute symlink to /proc/1: not followed out of the root" \
    "--live-root DIR: the absolute symlink is a note"
like "$OUT" '^/proc/kallsyms:1:1: text high 0xffffffff85200000 startup_64\+0x0/0x70 \[privileged: CAP_SYSLOG \(captured\)\]' \
    "--live-root DIR: the captured map symbolises, kallsyms is privileged"
like "$OUT" '^live: slide=0x4200000: from kallsyms _text and the map' \
    "--live-root DIR: the slide from kallsyms and boot/System.map-*"
like "$OUT" '^live: system captured, x86_64 \(x86_64\), release 6.1.0-57-amd64, 48-bit virtual addresses, 4-level paging, text base 0xffffffff85200000 \(kallsyms _text\)$' \
    "--live-root DIR: the system's architecture, release and paging"
like "$OUT" '^live: kptr_restrict=0: ' "--live-root DIR: kptr_restrict"
like "$OUT" '^live: dmesg_restrict=1: reading the kernel log needs CAP_SYSLOG' \
    "--live-root DIR: dmesg_restrict"
like "$OUT" '^live: no_hash_pointers=off: ' "--live-root DIR: no_hash_pointers"
like "$OUT" '^live: complete, files 13, dirs 13, scanned 5, binary 1, raw_hits 1, skipped 2, symlinks 2, outside_root 1, ' \
    "--live-root DIR: the counts of the walk"
like "$(grep '^/sys/bus/pci' "$TMP/out")" 'raw at 0x40: ffffffff85564470$' \
    "--live-root DIR: a raw address of a binary file, as a line"

# The captured map at the captured slide (kallsyms _text less the map's
# _text) symbolises every text finding of the system, not only the lines
# of kallsyms, which give their own slide.
syms() {
	sed -n 's/^\([^ ]*\) text [a-z]* 0x[0-9a-f]* \([^ []*\) .*/\1 \2/p' "$1"
}
want_syms='/proc/kallsyms:1:1: startup_64+0x0/0x70
/proc/kallsyms:2:1: startup_64+0x0/0x70
/proc/kallsyms:3:1: startup_64+0x0/0x70
/proc/kallsyms:4:1: do_sys_openat2+0x0/0x170
/proc/kallsyms:5:1: do_sys_open+0x0/0x80
/proc/kallsyms:6:1: sysrq_handle_crash+0x0/0x20
/proc/kallsyms:7:1: panic+0x0/0x2f4
/proc/kallsyms:8:1: _etext+0x0/0x1fe2ce
/proc/kallsyms:9:1: init_stack+0x0/0x4000
/proc/kallsyms:10:1: init_task+0x0/0x2640
/sys/bus/pci/devices/0000:00:00.0/config:1:14: do_sys_open+0x0/0x80
path-names:1:27: do_sys_openat2+0x0/0x170'
is "$(syms "$TMP/out")" "$want_syms" \
    "--live-root DIR: the captured map symbolises every text finding"

# Bad input, each a one-line note counted in the summary, and the walk
# goes on: a FIFO without a writer (never opened), a read that hangs
# (its reader is killed at the per-file bound and replaced), a file that
# vanished, EIO and EACCES.  The faults are made in the reader processes
# (KLEAKSCAN_TEST_LIVE_FAULT); the per-file bound is 5 s here (1 s let
# a file that did answer miss it on a loaded machine).  timeout turns a
# hang into a failure.
BAD=$TMP/live-bad
cp -R "$ROOT" "$BAD"
if mkfifo "$BAD/proc/fifo" 2>/dev/null; then nfifo=1; else nfifo=0; fi
counts() {
	sed -n 's/^live: \(complete\|stopped[^,]*\), \(.*\), notes .*/\1, \2/p' \
	    "$TMP/out"
}
KLEAKSCAN_TEST_LIVE_FILE_SECS=5 \
KLEAKSCAN_TEST_LIVE_FAULT=hang:/proc/cpuinfo,enoent:/proc/cmdline,eio:/sys/bus/pci/devices/0000:00:00.0/vendor,eacces:/proc/sys/kernel/arch \
    timeout 120 "$KLEAKSCAN" --live-root "$BAD" >"$TMP/out" 2>"$TMP/err"
STATUS=$?
is "$STATUS" 1 "bad input: the run ends, with its findings (exit status)"
is "$(fields "$TMP/out")" "$want" "bad input: the other files give the same findings"
is "$(sort "$TMP/err")" "kleakscan: /proc/cmdline: vanished before it was read
kleakscan: /proc/cpuinfo: not read: no answer in 5 s
kleakscan: /proc/self: absolute symlink to /proc/1: not followed out of the root
kleakscan: /proc/sys/kernel/arch: not read: Permission denied
kleakscan: /sys/bus/pci/devices/0000:00:00.0/vendor: not read: Input/output error" \
    "bad input: one note each"
is "$(counts)" "complete, files 13, dirs 13, scanned 5, binary 1, raw_hits 1, skipped $((2 + nfifo)), symlinks 2, outside_root 1, unreadable 1, vanished 1, eio 1, timeouts 1, cut 0" \
    "bad input: counted in the summary"
like "$(cat "$TMP/out")" 'notes 5, ' "bad input: five notes"

# A file that never ends (a pseudo-file that reads as /dev/zero): cut at
# the size bound, a note, and the rest of the run as before.
KLEAKSCAN_TEST_LIVE_FAULT=endless:/proc/1/status \
    timeout 120 "$KLEAKSCAN" --live-root "$ROOT" >"$TMP/out" 2>"$TMP/err"
STATUS=$?
is "$STATUS" 1 "a file that never ends: the run ends (exit status)"
is "$(grep -v self "$TMP/err")" "kleakscan: /proc/1/status: cut at the size bound (64 MiB)" \
    "a file that never ends: cut, with a note"
like "$(counts)" ', binary 2, .*, cut 1$' "a file that never ends: counted"
is "$(fields "$TMP/out")" "$want" "a file that never ends: the same findings"

# JSON: valid, and every finding says who could read it.
json_checker
run --live-root "$ROOT" --json
is_status 1 "--live-root --json"
if [ -n "$JSON_CHECK" ]; then
	ok "--live-root --json is valid JSON Lines" $JSON_CHECK "$TMP/out"
else
	skip "--live-root --json is valid JSON Lines" "no JSON checker"
fi
if command -v python3 >/dev/null 2>&1; then
	who=$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "finding":
        print(e["path"], e["readable_by"], e["readable_reason"])
' "$TMP/out" | sort | uniq -c | sed 's/^ *//')
	is "$who" "10 /proc/kallsyms privileged CAP_SYSLOG (captured)
1 /sys/bus/pci/devices/0000:00:00.0/config unknown captured system
1 path-names unknown captured system
1 sos_commands/kernel/dmesg privileged dmesg_restrict (captured)" \
	    "--live-root --json: readable_by and its reason per finding"
	like "$(grep '"type":"live_summary"' "$TMP/out")" \
	    '"complete":true.*"leaks_everyone":0,"leaks_privileged":11,"leaks_unknown":2' \
	    "--live-root --json: the summary counts who could read"
else
	skip "--live-root --json: readable_by" "no python3"
	skip "--live-root --json: the summary" "no python3"
fi

# --squash-by-path: one line per input, most findings first.
run --live-root "$ROOT" --squash-by-path
is "$(grep '^\[' "$TMP/out")" '[10 /proc/kallsyms] ffffffff85200000 T startup_64
[1 /sys/bus/pci/devices/0000:00:00.0/config] raw at 0x40: ffffffff85564470
[1 path-names] /sys/kernel/debug/example/ffffffff85563fa0
[1 sos_commands/kernel/dmesg] [    5.222317] Kernel Offset: 0x4200000 from 0xffffffff81000000 (relocation range: 0xffffffff80000000-0xffffffffbfffffff)' \
    "--squash-by-path"
run --squash-by-filename "$TOPSRC/tests/live-root/proc/kallsyms" "$ROOT/sos_commands/kernel/dmesg"
is "$(grep '^\[' "$TMP/out" | cut -c1-20)" '[10 kallsyms] ffffff
[1 dmesg] [    5.222' "--squash-by-filename works on plain inputs too"

# Squash rows in JSON escape as every JSON event does: a tab as \t, UTF-8
# kept, a byte that is not UTF-8 text-escaped (it was \u0009, and é came
# out as the two characters \u00c3\u00a9).
printf 'RIP: 0010:\tfoo+0x1 ffffffff81234567 caf\303\251\n' >"$TMP/sq1.log"
printf 'RSP: ffffffff81234568 \377 end\n' >"$TMP/sq2.log"
run --squash-by-filename --json "$TMP/sq1.log" "$TMP/sq2.log"
cafe=$(printf 'caf\303\251')
is "$(grep '"type":"squash"' "$TMP/out")" \
    '{"type":"squash","by":"filename","key":"sq1.log","count":1,"example":"RIP: 0010:\tfoo+0x1 ffffffff81234567 '"$cafe"'"}
{"type":"squash","by":"filename","key":"sq2.log","count":1,"example":"RSP: ffffffff81234568 \\xff end"}' \
    "--squash-by-filename --json: strings escaped as in every event"

# The same tree as a sosreport-like archive, read in place.
if command -v tar >/dev/null 2>&1; then
	top=sosreport-test-2026-01-01-abcdefg
	mkdir "$TMP/arc" && cp -R "$ROOT" "$TMP/arc/$top" &&
	    (cd "$TMP/arc" && tar -czf "$TMP/$top.tar.gz" "$top")
	run --live-root "$TMP/$top.tar.gz"
	is_status 1 "--live-root ARCHIVE"
	is "$(fields "$TMP/out" | sort)" "$(printf '%s\n' "$want" | sort)" \
	    "--live-root ARCHIVE: the same findings as the directory"
	like "$OUT" '^live: slide=0x4200000: from kallsyms _text and the map' \
	    "--live-root ARCHIVE: the map of the archive gives the slide"
	is "$(syms "$TMP/out" | sort)" "$(printf '%s\n' "$want_syms" | sort)" \
	    "--live-root ARCHIVE: the archive's map symbolises every text finding"
	like "$ERR" '^kleakscan: /proc/self: absolute symlink to /proc/1: not followed out of the root$' \
	    "--live-root ARCHIVE: the absolute symlink is a note"

	# --redact writes an archive --live-root audits clean, same layout
	# (--restrict=4: the Kernel Offset line too, zeroed; the line is still
	# reported as a layout line, with nothing in it).  Member names are
	# not rewritten: the made-up debugfs name stays.
	mkdir "$TMP/red"
	run --redact --restrict=4 -o "$TMP/red/$top.tar.gz" "$TMP/$top.tar.gz"
	is_status 1 "--redact of the archive"
	run --live-root "$TMP/red/$top.tar.gz"
	is_status 1 "--live-root of the redacted archive"
	is "$(fields "$TMP/out")" "sos_commands/kernel/dmesg:4:33: layout 0x0000000
path-names:1:27: text 0xffffffff85563fa0" \
	    "the redacted archive: only the member name and a zero offset"
	is "$(tar -tzf "$TMP/red/$top.tar.gz" | sort)" \
	    "$(tar -tzf "$TMP/$top.tar.gz" | sort)" \
	    "the redacted archive has the same members"
else
	skip "--live-root ARCHIVE" "no tar"
fi

# A supportconfig (SUSE): flat report files of sections, read in place
# as a directory and as the .txz supportconfig makes.  The files of
# /proc under their system paths (one /proc/PID; a signal mask is no
# address), the dmesg section of boot.txt under boot.txt with its lines,
# the facts from proc.txt and uname -a.
SC=$TOPSRC/tests/live-supportconfig/scc_vm_261126_1200
run --live-root "$SC"
is_status 1 "supportconfig DIR"
is "$(fields "$TMP/out")" "boot.txt:15:33: layout 0x4200000" \
    "supportconfig DIR: exactly the findings, at the line of boot.txt"
like "$OUT" '^boot.txt:15:33: layout high 0x4200000 \[privileged: dmesg_restrict \(captured\)\]  \[    5.222317\] Kernel Offset' \
    "supportconfig DIR: the kernel log is judged by the captured dmesg_restrict"
like "$OUT" '^live: system captured, x86_64 \(x86_64\), release 6.1.0-57-amd64$' \
    "supportconfig DIR: the machine from uname -a, the release from proc.txt"
like "$OUT" '^live: kptr_restrict=0: ' "supportconfig DIR: kptr_restrict from proc.txt"
like "$OUT" '^live: perf_event_paranoid=2: ' "supportconfig DIR: perf_event_paranoid"
like "$OUT" '^live: complete, files 7, dirs 0, scanned 2, ' \
    "supportconfig DIR: six /proc files and the kernel log"
is "$ERR" "" "supportconfig DIR: no note"
if command -v tar >/dev/null 2>&1 && command -v xz >/dev/null 2>&1; then
	(cd "$TOPSRC/tests/live-supportconfig" &&
	    tar -cJf "$TMP/scc_vm_261126_1200.txz" scc_vm_261126_1200)
	run --live-root "$TMP/scc_vm_261126_1200.txz"
	is_status 1 "supportconfig ARCHIVE"
	is "$(fields "$TMP/out")" "boot.txt:15:33: layout 0x4200000" \
	    "supportconfig ARCHIVE: the same findings"
	like "$OUT" '^live: complete, files 7, dirs 0, scanned 2, ' \
	    "supportconfig ARCHIVE: the same counts"
	like "$OUT" '^live: dmesg_restrict=1: ' \
	    "supportconfig ARCHIVE: the facts of proc.txt"
else
	skip "supportconfig ARCHIVE" "no tar or xz"
fi

# Usage.
run --live "$ROOT/proc/kallsyms"
is_status 2 "--live takes no operands"
run --live --live-root "$ROOT"
is_status 2 "--live and --live-root cannot go together"
run --live-root "$TMP/none"
is_status 2 "--live-root of a missing path"

# --live on this machine: it completes; every finding says who can
# read it; the exit status counts what an unprivileged user reads.
# Only counts are compared: no address of this machine is printed.
live_check() {
	# $1: description, $2: who every finding must be readable by ("" any)
	python3 - "$TMP/out" "$2" <<'PYEOF'
import json, sys
ev = {"everyone": 0, "privileged": 0}
summ = None
bad = 0
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "finding":
        w = e.get("readable_by")
        if w not in ev or not e.get("readable_reason"):
            bad += 1
            continue
        if sys.argv[2] and w != sys.argv[2]:
            bad += 1
        if e["suppressed"] is None and e["region"] != "physical":
            ev[w] += 1
    elif e["type"] == "live_summary":
        summ = e
ok = (summ is not None and summ["complete"] and bad == 0 and
      summ["leaks_everyone"] == ev["everyone"] and
      summ["leaks_privileged"] == ev["privileged"] and summ["files"] > 100)
print("ok" if ok else "bad %d %s %s" % (bad, ev, summ))
print(1 if ev["everyone"] else 0)
print(1 if ev["everyone"] + ev["privileged"] else 0)
print(summ["unreadable"] if summ else -1)
PYEOF
}

# The kernel log through klogctl(2) when /dev/kmsg cannot be opened (a
# fault made in the readers): the verdict section says which was read.
run --live --live-timeout 10
like "$OUT" '^live: kernel_log=/dev/kmsg: ' "--live reads /dev/kmsg"
KLEAKSCAN_TEST_LIVE_FAULT=kmsg run --live --live-timeout 10
if [ "$(id -u)" = 0 ] ||
    [ "$(cat /proc/sys/kernel/dmesg_restrict 2>/dev/null)" = 0 ]; then
	like "$OUT" '^live: kernel_log=klogctl: /dev/kmsg could not be opened' \
	    "--live: klogctl(2) when /dev/kmsg cannot be opened"
else
	like "$OUT" '^live: kernel_log=unread: ' \
	    "--live: neither /dev/kmsg nor klogctl(2), said"
fi

if ! command -v python3 >/dev/null 2>&1; then
	skip "--live" "no python3"
elif [ "$(id -u)" = 0 ]; then
	run --live --json
	set -- $(live_check "" "")
	is "$1" ok "--live as root: complete, readable_by on every finding, counts agree"
	is "$STATUS" "$2" "--live as root: exit status counts what nobody reads"
	run --live --json --live-privileged
	set -- $(live_check "" "")
	is "$STATUS" "$3" "--live --live-privileged: exit status counts all"
	if command -v setpriv >/dev/null 2>&1 &&
	    setpriv --reuid nobody --regid nogroup --clear-groups \
	    "$KLEAKSCAN" --version >/dev/null 2>&1; then
		setpriv --reuid nobody --regid nogroup --clear-groups \
		    "$KLEAKSCAN" --live --json >"$TMP/out" 2>"$TMP/err"
		STATUS=$?
		set -- $(live_check "" everyone)
		is "$1" ok "--live as nobody: complete, every finding readable by everyone"
		is "$STATUS" "$2" "--live as nobody: exit status"
		ok "--live as nobody: what it could not read is counted" \
		    test "$4" -gt 0
		ok "--live as nobody: and named in notes" \
		    grep -q 'not read: Permission denied$' "$TMP/err"
	else
		skip "--live as nobody" "setpriv cannot run the binary as nobody"
	fi
else
	run --live --json
	set -- $(live_check "" everyone)
	is "$1" ok "--live unprivileged: complete, every finding readable by everyone"
	is "$STATUS" "$2" "--live unprivileged: exit status"
fi

done_testing
