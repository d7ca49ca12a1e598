#!/bin/sh
# srcindex.sh - --kernel-source and --printk-index: the call sites of
# real syzkaller findings (KASAN, kmemleak, lockdep, x86 register dumps)
# in the real Linux 6.1 sources of tests/srcdata/linux-6.1, read from the
# directory and from a tarball of it; the cache per tree (built, used,
# rebuilt when damaged or when the tree changes); --report's rows (JSON,
# text) and --sarif results located at their call sites; the printk index
# with its malformed lines; bad trees; and, when the linux-source-6.1
# package is installed, the same findings against its whole tarball.

. "$(dirname "$0")/tap.sh"

CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}
REPORT=$CORPUS/syzkaller/report
SRCDATA=$TOPSRC/tests/srcdata
TREE=$SRCDATA/linux-6.1
PKIDX=$TESTDATA/printk-index-6.1.txt
TARBALL=${KLEAK_LINUX_SOURCE:-/usr/src/linux-source-6.1.tar.xz}
XDG_CACHE_HOME=$TMP/cache
export XDG_CACHE_HOME

if ! command -v python3 >/dev/null 2>&1; then
	skip "call sites" "python3 is needed to read the JSON output"
	done_testing
fi

# sites JSON: "input:line token file:line function conversion" of the
# best call site of each finding that has one.
sites() {
	python3 -c '
import json, os, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] != "finding" or not e.get("callsite"):
        continue
    c = e["callsite"][0]
    print("%s:%d %s %s:%d %s %s" % (os.path.basename(e["path"]), e["line"],
        e["text"], c["file"], c["line"], c["function"], c["conversion"]))
' "$1"
}
# summary JSON KEY: the kernel_source member KEY of the summary.
summary() {
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "summary":
        v = e["kernel_source"]
        for k in sys.argv[2].split("."):
            v = v[k]
        print(json.dumps(v))
' "$1" "$2"
}

# --- Written lines: the same kinds of findings, without the corpus. ------
# A KASAN report, a register row, kmemleak and lockdep lines written for
# the test in the formats of the 6.1 call sites (addresses made up).
cat >"$TMP/written.log" <<'EOF'
[   88.201337] ==================================================================
[   88.201412] BUG: KASAN: slab-use-after-free in sock_def_readable+0x2c/0x1c0
[   88.201460] Read of size 8 at addr ffff888011a3c2d8 by task kworker/1:2/93
[   88.201502] 
[   88.201766] The buggy address belongs to the object at ffff888011a3c200
[   88.201766]  which belongs to the cache kmalloc-256 of size 256
[   88.201821] The buggy address is located 216 bytes inside of
[   88.201821]  256-byte region [ffff888011a3c200, ffff888011a3c300)
[   88.201880] ==================================================================
[   91.400112] RAX: ffff888011a3c200 RBX: 0000000000000000 RCX: ffffffff8127e0a4
[   95.771245] kmemleak: unreferenced object 0xffff888014b07e40 (size 64):
[   97.113500]  #0: ffff88801f6a2178 (&sb->s_type->i_mutex_key#8){+.+.}-{3:3}, at: do_truncate+0x10c/0x1e0
EOF
WWANT="written.log:3 ffff888011a3c2d8 mm/kasan/report.c:219 print_error_description %px
written.log:5 ffff888011a3c200 mm/kasan/report.c:252 describe_object_addr %px
written.log:8 ffff888011a3c200 mm/kasan/report.c:268 describe_object_addr %px
written.log:8 ffff888011a3c300 mm/kasan/report.c:268 describe_object_addr %px
written.log:10 ffff888011a3c200 arch/x86/kernel/process_64.c:81 __show_regs %016lx
written.log:10 ffffffff8127e0a4 arch/x86/kernel/process_64.c:81 __show_regs %016lx
written.log:11 ffff888014b07e40 mm/kmemleak.c:360 print_unreferenced %08lx
written.log:12 ffff88801f6a2178 kernel/locking/lockdep.c:776 print_lock %px"
XDG_CACHE_HOME=$TMP/wcache "$KLEAKSCAN" --json --kernel-source "$TREE" \
    "$TMP/written.log" >"$TMP/w.json"
is "$?" 1 "written: exit status 1 (leaks)"
is "$(sites "$TMP/w.json")" "$WWANT" \
    "written: KASAN, x86 register row, kmemleak and lockdep lines map to their 6.1 lines"
XDG_CACHE_HOME=$TMP/wcache "$KLEAKSCAN" --json --kernel-source "$TREE" \
    "$TMP/written.log" >"$TMP/w2.json"
is "$(summary "$TMP/w2.json" cached) $(sites "$TMP/w2.json" | md5sum)" \
    "true $(printf '%s\n' "$WWANT" | md5sum)" \
    "written: the second run reads the cache, the same call sites"
tar -C "$SRCDATA" -cJf "$TMP/w-linux-6.1.tar.xz" linux-6.1
XDG_CACHE_HOME=$TMP/wcache "$KLEAKSCAN" --json \
    --kernel-source "$TMP/w-linux-6.1.tar.xz" "$TMP/written.log" >"$TMP/w3.json"
is "$(sites "$TMP/w3.json")" "$WWANT" \
    "written: a tarball of the tree gives the same call sites"

if [ ! -d "$REPORT" ]; then
	skip "call sites of the corpus reports" "no corpus at $CORPUS"
	done_testing
fi

# The lines of the reports the tests pin (the whole list is longer).
WANT="472:7 ffff8881d411fca8 mm/kasan/report.c:219 print_error_description %px
472:129 ffff8881d411fc80 mm/kasan/report.c:252 describe_object_addr %px
472:132 ffff8881d411fc80 mm/kasan/report.c:268 describe_object_addr %px
472:132 ffff8881d411fce0 mm/kasan/report.c:268 describe_object_addr %px
345:70 ffff888068c37718 arch/x86/kernel/dumpstack.c:150 show_iret_regs %016lx
345:71 ffff888068c28300 arch/x86/kernel/process_64.c:81 __show_regs %016lx
345:71 ffff88805fec4340 arch/x86/kernel/process_64.c:81 __show_regs %016lx
686:18 ffff8880b9900000 arch/x86/kernel/process_64.c:117 __show_regs %016lx
752:5 ffff8882d78c9ea0 mm/kmemleak.c:360 print_unreferenced %08lx
747:95 ffffffff8f76e570 kernel/locking/lockdep.c:776 print_lock %px"
INPUTS="$REPORT/472 $REPORT/345 $REPORT/686 $REPORT/752 $REPORT/747"
pick() {
	sites "$1" | grep -E '^(472:(7|129|132)|345:7[01]|686:18|752:5|747:95) ' |
	    grep -E ' (ffff8881d411fca8|ffff8881d411fc80|ffff8881d411fce0|ffff888068c37718|ffff888068c28300|ffff88805fec4340|ffff8880b9900000|ffff8882d78c9ea0|ffffffff8f76e570) '
}

# --- The directory: cold, then from the cache. ---------------------------
# shellcheck disable=SC2086
"$KLEAKSCAN" --json --kernel-source "$TREE" $INPUTS >"$TMP/dir.json"
is "$?" 1 "directory: exit status 1 (leaks)"
is "$(pick "$TMP/dir.json")" "$WANT" \
    "directory: KASAN, x86 register dump, kmemleak and lockdep findings map to their 6.1 lines"
is "$(summary "$TMP/dir.json" files) $(summary "$TMP/dir.json" cached)" \
    "5 false" "directory: 5 sources indexed, not from the cache"
is "$(summary "$TMP/dir.json" skipped.macro)" 2 \
    "directory: the 2 formats behind __stringify() counted, not indexed"
is "$(ls "$XDG_CACHE_HOME/kleakscan" | wc -l | tr -d ' ')" 1 \
    "cache: one file for the tree"
# shellcheck disable=SC2086
"$KLEAKSCAN" --json --kernel-source "$TREE" $INPUTS >"$TMP/warm.json"
is "$(summary "$TMP/warm.json" cached)" true "cache: the second run reads it"
is "$(sites "$TMP/warm.json")" "$(sites "$TMP/dir.json")" \
    "cache: the same call sites for every finding"

# A damaged cache is rebuilt, never trusted.
c=$(ls "$XDG_CACHE_HOME/kleakscan/"*)
printf 'XXXXXXXX' | dd of="$c" bs=1 seek=200 conv=notrunc 2>/dev/null
# shellcheck disable=SC2086
"$KLEAKSCAN" --json --kernel-source "$TREE" $INPUTS >"$TMP/bad.json"
is "$(summary "$TMP/bad.json" cached) $(sites "$TMP/bad.json" | md5sum)" \
    "false $(sites "$TMP/dir.json" | md5sum)" \
    "cache: a damaged file is ignored and rebuilt, same call sites"
printf 'short' >"$c"
# shellcheck disable=SC2086
"$KLEAKSCAN" --json --kernel-source "$TREE" $INPUTS >"$TMP/short.json"
is "$(summary "$TMP/short.json" cached)" false "cache: a cut file is rebuilt"

# A changed tree has another key: indexed again.
mkdir "$TMP/tree"
cp -R "$TREE/." "$TMP/tree/"
"$KLEAKSCAN" --json --kernel-source "$TMP/tree" "$REPORT/472" >"$TMP/t1.json"
sed 's/The buggy address belongs to the object at %px/The object at %px/' \
    "$TREE/mm/kasan/report.c" >"$TMP/tree/mm/kasan/report.c"
touch -d '2001-01-01 00:00:00' "$TMP/tree/mm/kasan/report.c"
"$KLEAKSCAN" --json --kernel-source "$TMP/tree" "$REPORT/472" >"$TMP/t2.json"
is "$(summary "$TMP/t2.json" cached)" false "cache: a changed file changes the key"
is "$(sites "$TMP/t1.json" | grep -c ' mm/kasan/report.c:252 ') $(sites "$TMP/t2.json" | grep -c ' mm/kasan/report.c:252 ')" \
    "1 0" "cache: the changed format no longer matches"

# --- A tarball of the same tree, read in place. ---------------------------
tar -C "$SRCDATA" -cJf "$TMP/linux-6.1.tar.xz" linux-6.1
# shellcheck disable=SC2086
"$KLEAKSCAN" --json --kernel-source "$TMP/linux-6.1.tar.xz" $INPUTS >"$TMP/tar.json"
is "$(sites "$TMP/tar.json")" "$(sites "$TMP/dir.json")" \
    "tarball: the same call sites as the directory (top directory stripped)"

# --- The report: one row per template, its call sites. --------------------
# rows JSON: "template -> file:line conversion (n)" of each template event
# with call sites.
rows() {
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] != "template" or not e["callsite"]:
        continue
    c = e["callsite"][0]
    print("%s -> %s:%d %s (%d)" % (e["template"], c["file"], c["line"],
        c["conversion"], len(e["callsite"])))
' "$1" | sort
}
# shellcheck disable=SC2086
"$KLEAKSCAN" --report --json --kernel-source "$TREE" $INPUTS >"$TMP/rep.json"
is "$?" 1 "report: exit status 1"
RWANT="#%d: %x (%s){%s}-{%d:%d}, at: %pS -> kernel/locking/lockdep.c:776 %px (1)
%d-byte region [%x, %x) -> mm/kasan/report.c:268 %px (1)
%x (%s){%s}-{%d:%d}, at: %pS -> kernel/locking/lockdep.c:776 %px (1)
FS: %x(%x) GS:%x(%x) knlGS:%x -> arch/x86/kernel/process_64.c:117 %016lx (1)
R10: %x R11: %x R12: %x -> arch/x86/kernel/process_64.c:87 %016lx (1)
R13: %x R14: %x R15: %x -> arch/x86/kernel/process_64.c:89 %016lx (1)
RAX: %x RBX: %x RCX: %x -> arch/x86/kernel/process_64.c:81 %016lx (1)
RBP: %x R08: %x R09: %x -> arch/x86/kernel/process_64.c:85 %016lx (1)
RDX: %x RSI: %x RDI: %x -> arch/x86/kernel/process_64.c:83 %016lx (1)
RSP: %x:%x EFLAGS: %x -> arch/x86/kernel/dumpstack.c:150 %016lx (1)
RSP: %x:%x EFLAGS: %x ORIG_RAX: %x -> arch/x86/kernel/dumpstack.c:150 %016lx (2)
Read of size %d at addr %x by task %s/%d -> mm/kasan/report.c:219 %px (2)
The buggy address belongs to the object at %x -> mm/kasan/report.c:252 %px (1)
unreferenced object 0x%x (size %d): -> mm/kmemleak.c:360 %08lx (1)"
is "$(rows "$TMP/rep.json")" "$RWANT" \
    "report: KASAN, lockdep, kmemleak and register-dump templates map to their 6.1 lines"
is "$(python3 -c '
import json, sys
n = [json.loads(l) for l in open(sys.argv[1])]
t = [e for e in n if e["type"] == "template"]
print(len(t), len([e for e in t if e["callsite"] == []]))' "$TMP/rep.json")" "18 4" \
    "report: 18 rows, 4 without a call site (an empty list, not null)"
# shellcheck disable=SC2086
COLUMNS=160 "$KLEAKSCAN" --report --kernel-source "$TREE" $INPUTS >"$TMP/rep.txt"
like "$(cat "$TMP/rep.txt")" "callsite mm/kasan/report.c:268 describe_object_addr %px" \
    "report text: a callsite line under the row"
like "$(cat "$TMP/rep.txt")" "callsite unknown" \
    "report text: rows without one say so"
# shellcheck disable=SC2086
"$KLEAKSCAN" --report --json $INPUTS >"$TMP/rep0.json"
is "$(python3 -c '
import json, sys
print(set(json.dumps(json.loads(l)["callsite"]) for l in open(sys.argv[1])
          if json.loads(l)["type"] == "template"))' "$TMP/rep0.json")" "{'null'}" \
    "report without --kernel-source: callsite null"

# SARIF: the call site is the location, the log line a related one.
# shellcheck disable=SC2086
"$KLEAKSCAN" --sarif --kernel-source "$TREE" $INPUTS >"$TMP/cs.sarif"
is "$(python3 -c '
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
base = run["originalUriBaseIds"]["KERNELSRC"]["uri"]
for r in run["results"]:
    if "byte region" not in r["properties"]["template"]:
        continue
    l = r["locations"][0]
    p = l["physicalLocation"]
    rel = r["relatedLocations"][0]["physicalLocation"]
    print(base.startswith("file:///") and base.endswith("/linux-6.1/"),
          p["artifactLocation"]["uri"], p["artifactLocation"]["uriBaseId"],
          p["region"]["startLine"], l["logicalLocations"][0]["name"],
          rel["artifactLocation"]["uri"].split("/")[-1], rel["region"]["startLine"])
' "$TMP/cs.sarif")" "True mm/kasan/report.c KERNELSRC 268 describe_object_addr 472 132" \
    "SARIF: call site as the location (KERNELSRC), the log line related"
is "$(python3 -c '
import json, sys
rs = json.load(open(sys.argv[1]))["runs"][0]["results"]
print(len(rs), len([r for r in rs if "uriBaseId" in r["locations"][0]["physicalLocation"]["artifactLocation"]]))' "$TMP/cs.sarif")" \
    "18 14" "SARIF: 14 of 18 results located in the kernel source"
if command -v sarif-multitool >/dev/null 2>&1; then
	(cd "$TMP" && sarif-multitool validate cs.sarif -o csval.sarif \
	    >csval.out 2>&1)
	is "$(python3 -c '
import json, sys
rs = json.load(open(sys.argv[1]))["runs"][0]["results"]
print(len([r for r in rs if r.get("level") == "error"]))' "$TMP/csval.sarif")" \
	    0 "SARIF with call sites: sarif-multitool validate, no error"
else
	skip "SARIF with call sites: sarif-multitool validate" \
	    "sarif-multitool not installed (npm i -g @microsoft/sarif-multitool)"
fi

# --- --stats rows. --------------------------------------------------------
run --stats --kernel-source "$TREE" "$REPORT/472"
like "$OUT" "call-sites +40" "--stats: the sites of the index"
like "$OUT" "skipped-macro +2" "--stats: what it skipped"

# --- The printk index. ----------------------------------------------------
# The kernel prints kmemleak's report with the pr_fmt() prefix; the
# syzkaller report read it from debugfs (seq_printf, no prefix).  This log
# is report 752's line as dmesg has it.
sed -n 5p "$REPORT/752" | sed 's/^/kmemleak: /' >"$TMP/kmemleak.log"
run --json --printk-index "$PKIDX" "$TMP/kmemleak.log"
is "$STATUS" 2 "printk index: malformed lines make exit status 2"
is "$ERR" "kleakscan: $PKIDX:11: not a printk index line (3 such lines skipped)" \
    "printk index: one error line, at the first malformed line"
printf '%s\n' "$OUT" >"$TMP/pk.json"
is "$(sites "$TMP/pk.json")" \
    "kmemleak.log:1 ffff8882d78c9ea0 mm/kmemleak.c:360 print_unreferenced %08lx" \
    "printk index: the kmemleak finding maps to the exact site"
is "$(summary "$TMP/pk.json" printk_index_sites) $(summary "$TMP/pk.json" skipped.printk_index_malformed)" \
    "11 3" "printk index: 11 sites, 3 malformed lines in the summary"
grep -v -e '^garbage' -e '12x' -e 'main.c start_kernel' "$PKIDX" >"$TMP/good.idx"
run --json --printk-index "$TMP/good.idx" --kernel-source "$TREE" "$TMP/kmemleak.log"
is "$STATUS" 1 "printk index and tree: exit 1 (a leak), no error"
printf '%s\n' "$OUT" >"$TMP/both.json"
like "$(grep '"type":"finding"' "$TMP/both.json")" '"callsite":\[\{"file":"mm/kmemleak.c","line":360,"function":"print_unreferenced","format":"kmemleak: unreferenced object 0x%08lx \(size %zu\):","conversion":"%08lx","exact":true\}\]' \
    "printk index and tree: the exact site wins; the scanned one (no prefix, far weaker) is dropped"

# --- Bad trees. -----------------------------------------------------------
run --kernel-source "$TMP/nonexistent" "$REPORT/472"
is "$STATUS" 2 "missing tree: exit status 2"
like "$ERR" "^kleakscan: .*nonexistent: .*No such file" "missing tree: one error line"
printf 'not an archive' >"$TMP/junk.tar.xz"
run --kernel-source "$TMP/junk.tar.xz" "$REPORT/472"
is "$STATUS" 2 "not a tarball: exit status 2"
mkdir -p "$TMP/badtree/sub"
printf 'void f(void) { pr_err("cut %%px\n", p); }\n' >"$TMP/badtree/cut.c"
printf 'ELF\000\001pr_err("bin %%px", p);' >"$TMP/badtree/sub/bin.c"
printf 'void g(void) { pr_err("ok %%px\\n", p); }\n' >"$TMP/badtree/sub/ok.h"
printf 'no source here %%px' >"$TMP/badtree/readme.txt"
printf 'ok ffffffff81000000\ncut ffffffff81000000\n' >"$TMP/bad.log"
"$KLEAKSCAN" --json --kernel-source "$TMP/badtree" "$TMP/bad.log" >"$TMP/bt.json"
is "$?" 1 "bad tree: indexed, exit status 1 for the leaks"
is "$(sites "$TMP/bt.json")" "bad.log:1 ffffffff81000000 sub/ok.h:1 g %px" \
    "bad tree: the whole format matches, the half-read one never"
is "$(summary "$TMP/bt.json" files) $(summary "$TMP/bt.json" skipped.binary) $(summary "$TMP/bt.json" skipped.unterminated)" \
    "2 1 2" "bad tree: 2 sources read, the binary one and the cut literal counted"

# --- The whole linux-source-6.1 tarball. -----------------------------------
if [ ! -r "$TARBALL" ]; then
	skip "linux-source-6.1 tarball" "$TARBALL is not installed (apt-get install linux-source-6.1)"
	done_testing
fi
# shellcheck disable=SC2086
"$KLEAKSCAN" --json --kernel-source "$TARBALL" $INPUTS >"$TMP/full.json"
is "$?" 1 "linux-source-6.1: exit status 1"
is "$(pick "$TMP/full.json")" "$WANT" \
    "linux-source-6.1: the same findings map to the same files and lines in the whole tree"
like "$(summary "$TMP/full.json" files)" '^5[0-9]{4}$' \
    "linux-source-6.1: tens of thousands of sources indexed"
# shellcheck disable=SC2086
"$KLEAKSCAN" --report --json --kernel-source "$TARBALL" $INPUTS >"$TMP/fullrep.json"
# The best site of each row is the excerpt's; the whole tree may add
# sites whose format is the same (user-mode Linux's arch/x86/um/sysrq_64.c
# prints the RAX line of arch/x86/kernel/process_64.c word for word).
is "$(rows "$TMP/fullrep.json" | sed 's/ ([0-9]*)$//' | grep -E '^(%d-byte|#%d|unreferenced|RSP: %x:%x EFLAGS: %x ->|RAX|The buggy|Read of)')" \
    "$(printf '%s\n' "$RWANT" | sed 's/ ([0-9]*)$//' | grep -E '^(%d-byte|#%d|unreferenced|RSP: %x:%x EFLAGS: %x ->|RAX|The buggy|Read of)')" \
    "linux-source-6.1: the report's rows map to the same lines, best first"
is "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "template" and e["template"].startswith("RAX: %x RBX"):
        print(" ".join("%s:%d" % (c["file"], c["line"]) for c in e["callsite"]))
' "$TMP/fullrep.json")" \
    "arch/x86/kernel/process_64.c:81 arch/x86/um/sysrq_64.c:$(tar -xJOf "$TARBALL" linux-source-6.1/arch/x86/um/sysrq_64.c | grep -n 'RAX: %016lx RBX' | cut -d: -f1)" \
    "linux-source-6.1: the register dump's second site is UML's copy of the format"
# shellcheck disable=SC2086
"$KLEAKSCAN" --json --kernel-source "$TARBALL" $INPUTS >"$TMP/full2.json"
is "$(summary "$TMP/full2.json" cached) $(sites "$TMP/full2.json" | md5sum)" \
    "true $(sites "$TMP/full.json" | md5sum)" \
    "linux-source-6.1: the second run reads the cache, same call sites"

done_testing
