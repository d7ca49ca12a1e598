#!/bin/sh
# fix.sh - from call site to fix, on two tiny kernel trees written for
# this test (an "older" 6.1 and a "newer" 6.12: a MAINTAINERS with a few
# entries, a few .c files with leaky printks) and log lines written for
# it: call sites in the row's architecture's tree only (generic code
# first when it is unknown, the same format's other sites with the
# reason); the fix_state of each row in the newer tree (open, fixed,
# gone), from the tree, its tarball or its printk index.

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

set -f
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is needed to read the JSON output"
	exit 0
fi
XDG_CACHE_HOME=$TMP/cache
export XDG_CACHE_HOME

# put FILE: write standard input to FILE, its directories made.
put() {
	mkdir -p "$(dirname "$1")"
	cat >"$1"
}

OLD=$TMP/linux-6.1
NEW=$TMP/linux-6.12

put "$OLD/Makefile" <<'EOF'
# SPDX-License-Identifier: GPL-2.0
VERSION = 6
PATCHLEVEL = 1
SUBLEVEL = 0
EXTRAVERSION =
EOF
put "$OLD/MAINTAINERS" <<'EOF'
List of maintainers (written for kleakscan's tests)

WIDGET DRIVERS
M:	Ann Maint <ann@example.org>
R:	Rob Review <rob@example.org>
L:	widget@lists.example.org
S:	Maintained
F:	drivers/widget/
X:	drivers/widget/legacy.c

MEMORY MANAGEMENT
M:	Mel Mm <mel@example.org>
L:	linux-mm@lists.example.org
S:	Maintained
F:	mm/

ARM PORT
M:	Arm Maint <arm@example.org>
S:	Odd Fixes
F:	arch/arm/

THE REST
M:	Linus Torvalds <torvalds@linux-foundation.org>
L:	linux-kernel@vger.kernel.org
S:	Buried alive in reporters
F:	*
F:	*/
EOF
put "$OLD/drivers/widget/core.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/printk.h>

struct widget {
	void *base;
	unsigned long flags;
};

void widget_probe(struct widget *w)
{
	pr_info("widget: base at %px\n", w->base);
}

void widget_map(struct widget *w, void *map)
{
	pr_info("widget: map at %08lx, flags %lu\n", (unsigned long)map,
		w->flags);
}

void widget_reg(unsigned long addr)
{
	pr_info("widget: register window at 0x%lx\n", addr);
}

void widget_remove(struct widget *w)
{
	pr_info("widget: base at %px\n", w->base);
}

#define WDBG(p) pr_debug("widget dbg %px\n", p)

static ssize_t base_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct widget *w = dev_get_drvdata(dev);

	return sysfs_emit(buf, "widget base %08lx\n", (unsigned long)w->base);
}
EOF
put "$OLD/drivers/widget/legacy.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
/* Excluded from WIDGET DRIVERS (X:): THE REST's list alone. */
EOF
put "$OLD/mm/pgd.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/mm.h>

void dump_pgd(struct mm_struct *mm)
{
	pr_alert("pgd = %08lx\n", (unsigned long)mm->pgd);
}
EOF
put "$OLD/arch/arm/mm/fault.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/mm.h>

void show_pte(struct mm_struct *mm, unsigned long addr)
{
	pr_alert("pgd = %08lx\n", (unsigned long)mm->pgd);
}
EOF
put "$OLD/arch/sh/mm/fault.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/mm.h>

static void show_pte(struct mm_struct *mm, unsigned long addr)
{
	pr_alert("pgd = %p\n", mm->pgd);
}
EOF

# The newer tree: the base is hashed now, the map still raw, the
# register window gone, the pgd lines as they were.
cp -R "$OLD" "$NEW"
sed -i 's/^PATCHLEVEL = 1$/PATCHLEVEL = 12/' "$NEW/Makefile"
sed -e 's/base at %px/base at %p/' -e '/^void widget_reg/,/^}/d' \
    "$OLD/drivers/widget/core.c" >"$NEW/drivers/widget/core.c"

LOG=$TMP/widget.log
cat >"$LOG" <<'EOF'
[    1.000000] widget: base at ffff888003a41000
[    1.000100] widget: map at ffffc90000a40000, flags 3
[    1.000200] widget: register window at 0xffffc90000c00000
[    1.000300] pgd = ffff888003a42000
EOF
FLOG=$TMP/widget-fix.log
{ cat "$LOG"; cat <<'EOF'
[    1.000400] widget dbg ffff888003a43000
[    1.000500] widget base ffff888003a41000
EOF
} >"$FLOG"

# rows FILE: "template | best site conv | fix_state fix_site" per row.
rows() {
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] != "template":
        continue
    c = e["callsite"][0] if e["callsite"] else None
    f = e["fix_site"]
    print("%s | %s | %s %s" % (e["template"],
        "%s:%d %s" % (c["file"], c["line"], c["conversion"]) if c else "-",
        e["fix_state"], "%s:%d %s %s" % (f["file"], f["line"],
        f["conversion"], f["kernel"]) if f else "-"))
' "$1" | sort
}

# --- fix_state: the older tree and the newer one ----------------------
"$KLEAKSCAN" --report --json --arch x86_64 --kernel-source "$OLD" \
    --kernel-source "$NEW" "$LOG" >"$TMP/fs.json"
is "$?" 1 "two trees: exit status 1 (leaks)"
is "$(rows "$TMP/fs.json")" \
"pgd = %x | mm/pgd.c:6 %08lx | open mm/pgd.c:6 %08lx 6.12.0
widget: base at %x | drivers/widget/core.c:11 %px | fixed drivers/widget/core.c:11 %p 6.12.0
widget: map at %x, flags %d | drivers/widget/core.c:16 %08lx | open drivers/widget/core.c:16 %08lx 6.12.0
widget: register window at 0x%x | drivers/widget/core.c:22 %lx | gone -" \
    "two trees: call sites in 6.1, each row open, fixed or gone in 6.12"
COLUMNS=200 "$KLEAKSCAN" --report --arch x86_64 --kernel-source "$OLD" \
    --kernel-source "$NEW" "$LOG" >"$TMP/fs.txt"
like "$(cat "$TMP/fs.txt")" "fix_state fixed in 6.12.0: drivers/widget/core.c:11 widget_probe %p" \
    "text: a fixed row names the newer site"
like "$(cat "$TMP/fs.txt")" "fix_state open in 6.12.0: drivers/widget/core.c:16 widget_map %08lx" \
    "text: an open one too"
like "$(cat "$TMP/fs.txt")" "fix_state gone from 6.12.0" "text: a gone one says so"
"$KLEAKSCAN" --sarif --arch x86_64 --kernel-source "$OLD" \
    --kernel-source "$NEW" "$LOG" >"$TMP/fs.sarif"
is "$(python3 -c '
import json, sys
rs = json.load(open(sys.argv[1]))["runs"][0]["results"]
print(" ".join(sorted(r["properties"]["fix_state"] for r in rs)))' "$TMP/fs.sarif")" \
    "fixed gone open open" "SARIF: fix_state in each result's properties"

# The newer kernel as a tarball, and as its printk index.
tar -C "$TMP" -czf "$TMP/linux-6.12.tar.gz" linux-6.12
"$KLEAKSCAN" --report --json --arch x86_64 --kernel-source "$OLD" \
    --kernel-source "$TMP/linux-6.12.tar.gz" "$LOG" >"$TMP/fst.json"
is "$(rows "$TMP/fst.json")" "$(rows "$TMP/fs.json")" \
    "the newer tree as a tarball: the same states"
cat >"$TMP/pk-6.12.txt" <<'EOF'
# <level/flags> filename:line function "format"
<6> drivers/widget/core.c:11 widget_probe "widget: base at %p\n"
<6> drivers/widget/core.c:16 widget_map "widget: map at %08lx, flags %lu\n"
<1> mm/pgd.c:6 dump_pgd "pgd = %08lx\n"
EOF
"$KLEAKSCAN" --report --json --arch x86_64 --kernel-source "$OLD" \
    --kernel-source "$TMP/pk-6.12.txt" "$LOG" >"$TMP/fsp.json"
is "$(rows "$TMP/fsp.json" | sed 's/ 6\.12\.0$/ X/; s/ pk-6\.12\.txt$/ X/')" \
    "$(rows "$TMP/fs.json" | sed 's/ 6\.12\.0$/ X/')" \
    "the newer kernel as its printk index (--kernel-source again): the same states"
"$KLEAKSCAN" --report --json --arch x86_64 --kernel-source "$OLD" \
    --printk-index /dev/null --printk-index "$TMP/pk-6.12.txt" "$LOG" \
    >"$TMP/fsp2.json"
is "$(rows "$TMP/fsp2.json")" "$(rows "$TMP/fsp.json")" \
    "... and as --printk-index given twice"

# One tree: its own states; a row it lacks is gone only when the logs'
# kernels are older than it.
"$KLEAKSCAN" --report --json --arch x86_64 --kernel-source "$NEW" "$LOG" \
    >"$TMP/one.json"
is "$(rows "$TMP/one.json" | grep register)" \
    "widget: register window at 0x%x | - | None -" \
    "one tree, release unknown: a row it lacks has no fix_state"
{ echo "[    0.000000] Linux version 5.10.0-8-amd64 (debian-kernel@lists.debian.org) (gcc-10 (Debian 10.2.1-6) 10.2.1 20210110, GNU ld (GNU Binutils for Debian) 2.35.2) #1 SMP Debian 5.10.46-4 (2021-08-03)"
  cat "$LOG"; } >"$TMP/old-kernel.log"
"$KLEAKSCAN" --report --json --arch x86_64 --kernel-source "$NEW" \
    "$TMP/old-kernel.log" >"$TMP/one2.json"
is "$(rows "$TMP/one2.json" | grep register)" \
    "widget: register window at 0x%x | - | gone -" \
    "one tree newer than the logs' 5.10: the row it lacks is gone"
COLUMNS=200 "$KLEAKSCAN" --report --arch x86_64 --kernel-source "$NEW" \
    "$TMP/old-kernel.log" >"$TMP/one2.txt"
like "$(cat "$TMP/one2.txt")" "callsite none: the message is gone from 6.12.0" \
    "text: such a row says it is gone, not 'callsite unknown'"
"$KLEAKSCAN" --report --json "$LOG" >"$TMP/none.json"
is "$(rows "$TMP/none.json" | cut -d'|' -f3 | sort -u)" " None -" \
    "no kernel source: fix_state null"
run --kernel-source "$OLD" --kernel-source "$NEW" --kernel-source "$OLD" "$LOG"
is "$STATUS" 2 "--kernel-source three times: a usage error"

# --- architectures: another's tree never; unknown: generic first -----
printf '[    1.000300] pgd = c0a4c000\n' >"$TMP/arm.log"
"$KLEAKSCAN" --report --json --arch arm --kernel-source "$OLD" "$TMP/arm.log" \
    >"$TMP/arm.json"
is "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "template" and e["template"] == "pgd = %x":
        for c in e["callsite"]:
            print(c["file"], c["same_format"], c["reason"])' "$TMP/arm.json")" \
"arch/arm/mm/fault.c False None
mm/pgd.c True it is in the tree of the row's architecture" \
    "arm: its tree first, the generic copy with the reason, never arch/sh"
"$KLEAKSCAN" --report --json --kernel-source "$OLD" "$LOG" >"$TMP/unk.json"
is "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "template" and e["template"] == "pgd = %x":
        for c in e["callsite"]:
            print(e["arches"], c["file"], c["conversion"], c["reason"])' "$TMP/unk.json")" \
"['unknown'] mm/pgd.c %08lx None
['unknown'] arch/arm/mm/fault.c %08lx generic code: the row's architecture is unknown
['unknown'] arch/sh/mm/fault.c %p generic code: the row's architecture is unknown" \
    "arch unknown: generic code first, then the arch/ sites"
COLUMNS=200 "$KLEAKSCAN" --report --arch arm --kernel-source "$OLD" \
    "$TMP/arm.log" >"$TMP/arm.txt"
like "$(cat "$TMP/arm.txt")" "same format at mm/pgd.c:6 dump_pgd; the first preferred: it is in the tree of the row's architecture" \
    "text: the same format's other site and the reason"

# --- --fix-dir: the patches --------------------------------------------
GIT_AUTHOR_NAME='Test Author'
GIT_AUTHOR_EMAIL=test@example.org
SOURCE_DATE_EPOCH=1700000000
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL SOURCE_DATE_EPOCH
"$KLEAKSCAN" --json --arch x86_64 --kernel-source "$OLD" \
    --fix-dir "$TMP/patches" "$FLOG" >"$TMP/fix.json" 2>"$TMP/fix.err"
is "$?:$(cat "$TMP/fix.err")" 1: "--fix-dir: exit status 1 (leaks); the report is made"
is "$(ls "$TMP/patches")" \
"0001-widget-core-do-not-print-a-raw-kernel-pointer-in-bas.patch
0002-widget-core-do-not-print-a-raw-kernel-pointer-in-wid.patch
0003-widget-core-do-not-print-a-raw-kernel-pointer-in-wid.patch" \
    "three patches, numbered by rank"
# fixes FILE: "template | patch or reason | to | cc" per row.
fixes() {
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] != "template":
        continue
    f = e["fix"]
    print("%s | %s" % (e["template"], "-" if f is None else "%s | %s | %s" % (
        f["patch"] or f["reason"], ", ".join(f["to"]), ", ".join(f["cc"]))))
' "$1" | sort
}
is "$(fixes "$TMP/fix.json")" \
"pgd = %x | the argument's type is not known from the file: %08lx of (unsigned long)mm->pgd: the type of .pgd (struct mm_struct) is not defined in the file | Mel Mm <mel@example.org> | linux-mm@lists.example.org, linux-kernel@vger.kernel.org
widget base %x | 0001-widget-core-do-not-print-a-raw-kernel-pointer-in-bas.patch | Ann Maint <ann@example.org> | Rob Review <rob@example.org>, widget@lists.example.org, linux-kernel@vger.kernel.org
widget dbg %x | the call is in a macro, or a preprocessor line is inside it: the format is in a preprocessor line (a macro's body) | Ann Maint <ann@example.org> | Rob Review <rob@example.org>, widget@lists.example.org, linux-kernel@vger.kernel.org
widget: base at %x | 0002-widget-core-do-not-print-a-raw-kernel-pointer-in-wid.patch | Ann Maint <ann@example.org> | Rob Review <rob@example.org>, widget@lists.example.org, linux-kernel@vger.kernel.org
widget: map at %x, flags %d | 0003-widget-core-do-not-print-a-raw-kernel-pointer-in-wid.patch | Ann Maint <ann@example.org> | Rob Review <rob@example.org>, widget@lists.example.org, linux-kernel@vger.kernel.org
widget: register window at 0x%x | an integer, not a pointer: printing it with %p needs a cast that is the maintainers' choice: %lx of addr, an integer | Ann Maint <ann@example.org> | Rob Review <rob@example.org>, widget@lists.example.org, linux-kernel@vger.kernel.org" \
    "each row: its patch, or why it has none; its recipients"
P1=$TMP/patches/0002-widget-core-do-not-print-a-raw-kernel-pointer-in-wid.patch
P2=$TMP/patches/0001-widget-core-do-not-print-a-raw-kernel-pointer-in-bas.patch
P3=$TMP/patches/0003-widget-core-do-not-print-a-raw-kernel-pointer-in-wid.patch
is "$(sed -n '1,10p' "$P1")" \
"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Test Author <test@example.org>
Date: Tue, 14 Nov 2023 22:13:20 +0000
Subject: [PATCH 2/3] widget: core: do not print a raw kernel pointer in widget_probe()
To: Ann Maint <ann@example.org>
Cc: Rob Review <rob@example.org>,
    widget@lists.example.org,
    linux-kernel@vger.kernel.org
MIME-Version: 1.0
Content-Type: text/plain; charset=UTF-8" \
    "git format-patch headers: author, date, subject, To: and Cc: from MAINTAINERS"
like "$(tr '\n' ' ' <"$P1")" "found it in 1 log \(1 line, 1 boot, 1 host\)" \
    "the message: the evidence"
like "$(cat "$P1")" "  \[    1\.000000\] widget: base at ffff8xxxxxxxxxxx" \
    "the message: the line, its address masked"
like "$(tr '\n' ' ' <"$P1")" "Print it with %p instead: %p prints a hash of the pointer" \
    "the message: what it prints instead"
like "$(cat "$P1")" "Signed-off-by: Test Author <test@example.org>" \
    "the message: signed off by the author"
is "$(sed -n '/^diff --git/,$p' "$P1")" \
'diff --git a/drivers/widget/core.c b/drivers/widget/core.c
--- a/drivers/widget/core.c
+++ b/drivers/widget/core.c
@@ -8,7 +8,7 @@ struct widget {
 
 void widget_probe(struct widget *w)
 {
-	pr_info("widget: base at %px\n", w->base);
+	pr_info("widget: base at %p\n", w->base);
 }
 
 void widget_map(struct widget *w, void *map)
@@ -24,7 +24,7 @@ void widget_reg(unsigned long addr)
 
 void widget_remove(struct widget *w)
 {
-	pr_info("widget: base at %px\n", w->base);
+	pr_info("widget: base at %p\n", w->base);
 }
 
 #define WDBG(p) pr_debug("widget dbg %px\n", p)
-- 
kleakscan 0.1.0' "%px becomes %p, in each call of the file that prints the line"
is "$(grep '^[-+]	' "$P2")" \
'-	return sysfs_emit(buf, "widget base %08lx\n", (unsigned long)w->base);
+	return sysfs_emit(buf, "widget base %pK\n", w->base);' \
    "a sysfs show routine: %pK, the cast dropped"
like "$(tr '\n' ' ' <"$P2")" "honours kptr_restrict" "... and the message says why %pK"
is "$(grep '^[-+]	' "$P3")" \
'-	pr_info("widget: map at %08lx, flags %lu\n", (unsigned long)map,
+	pr_info("widget: map at %p, flags %lu\n", map,' \
    "%08lx of a pointer cast: %p, the cast dropped"
COLUMNS=250 "$KLEAKSCAN" --arch x86_64 --kernel-source "$OLD" \
    --fix-dir "$TMP/patches2" "$FLOG" >"$TMP/fix.txt"
like "$(cat "$TMP/fix.txt")" "      fix 0002-widget-core-do-not-print-a-raw-kernel-pointer-in-wid.patch" \
    "text: the row's patch"
like "$(cat "$TMP/fix.txt")" "      fix none: an integer, not a pointer" \
    "text: why a row has none"
like "$(cat "$TMP/fix.txt")" "      to Ann Maint <ann@example.org>; cc Rob Review <rob@example.org>, widget@lists.example.org, linux-kernel@vger.kernel.org" \
    "text: the recipients"
is "$(cd "$TMP/patches" && cat ./*)" "$(cd "$TMP/patches2" && cat ./*)" \
    "the same patches from the text report"
run --fix-dir "$TMP/patches3" "$FLOG"
is "$STATUS" 2 "--fix-dir without --kernel-source: a usage error"

# The three checks, each patch: git apply --check against the tree (and
# the series in order), checkpatch.pl (with the real tree's, below), the
# patched file indexed again no more printing the row raw.
if command -v git >/dev/null 2>&1; then
	bad=
	n=0
	for p in $(find "$TMP/patches" -name '*.patch' | sort); do
		n=$((n + 1))
		(cd "$OLD" && git apply --check "$p") 2>/dev/null ||
		    bad="$bad $(basename "$p")"
	done
	is "$n:$bad" "3:" "git apply --check: each of the 3 patches applies to the tree"
	cp -R "$OLD" "$TMP/patched"
	bad=
	for p in $(find "$TMP/patches" -name '*.patch' | sort); do
		(cd "$TMP/patched" && git apply "$p") 2>/dev/null ||
		    bad="$bad $(basename "$p")"
	done
	is "$bad:$(grep -c '%px' "$TMP/patched/drivers/widget/core.c")" ":1" \
	    "git apply: the series applies in order (the macro's %px is left)"
	"$KLEAKSCAN" --report --json --arch x86_64 --kernel-source \
	    "$TMP/patched" "$FLOG" >"$TMP/re.json"
	is "$(python3 -c '
import json, sys
fix = {}
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "template" and e["fix"] and e["fix"]["patch"]:
        fix[e["fingerprint"]] = e["template"]
raw = 0
for l in open(sys.argv[2]):
    e = json.loads(l)
    if e["type"] == "template" and e["fingerprint"] in fix:
        for c in e["callsite"] or []:
            if c["conversion"] == "%px" or c["conversion"][-1] in "xX":
                raw += 1
print(len(fix), raw)' "$TMP/fix.json" "$TMP/re.json")" "3 0" \
	    "indexed again, the patched tree prints none of the 3 rows raw"
else
	skip "git apply --check" "git is not installed"
fi

# SARIF: the fix object and the maintainers.
"$KLEAKSCAN" --sarif --arch x86_64 --kernel-source "$OLD" \
    --fix-dir "$TMP/patches4" "$FLOG" >"$TMP/fix.sarif"
is "$(python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    p = r["properties"]
    if "fixes" in r:
        c = r["fixes"][0]["artifactChanges"][0]
        print(p["template"], c["artifactLocation"]["uri"],
              c["artifactLocation"]["uriBaseId"],
              [(x["deletedRegion"]["startLine"], x["deletedRegion"]["startColumn"],
                x["deletedRegion"]["endColumn"], x.get("insertedContent", {}).get("text"))
               for x in c["replacements"]], len(p["maintainers"]))' "$TMP/fix.sarif" | sort)" \
"widget base %x drivers/widget/core.c KERNELSRC [(37, 38, 43, '%pK'), (37, 48, 63, None)] 4
widget: base at %x drivers/widget/core.c KERNELSRC [(11, 27, 30, '%p'), (27, 27, 30, '%p')] 4
widget: map at %x, flags %d drivers/widget/core.c KERNELSRC [(16, 26, 31, '%p'), (16, 47, 62, None)] 4" \
    "SARIF: fixes with the replacements of each patch; 4 maintainers"
if command -v sarif-multitool >/dev/null 2>&1; then
	(cd "$TMP" && sarif-multitool validate fix.sarif -o fixval.sarif \
	    >fixval.out 2>&1)
	is "$(python3 -c '
import json, sys
rs = json.load(open(sys.argv[1]))["runs"][0]["results"]
print(len([r for r in rs if r.get("level") in ("error", "warning")]))' "$TMP/fixval.sarif")" \
	    0 "SARIF with fixes: sarif-multitool validate, no error or warning"
else
	skip "SARIF with fixes: sarif-multitool validate" \
	    "sarif-multitool not installed (npm i -g @microsoft/sarif-multitool)"
fi

# --- The real trees: linux-source-6.1 (and 6.12) ---------------------
T61=${KLEAK_LINUX_SOURCE:-/usr/src/linux-source-6.1.tar.xz}
T612=${KLEAK_LINUX_SOURCE_NEW:-/usr/src/linux-source-6.12.tar.xz}
CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}
# The logs of the corpus and its QEMU boots (its captured/ sysroots are
# systems, read with --live-root by live.sh).
LOGS="$CORPUS/syzkaller $CORPUS/boot $CORPUS/loghub $CORPUS/mail $CORPUS/qemu"
if [ ! -r "$T61" ]; then
	skip "linux-source-6.1: checkpatch, get_maintainer, the corpus' patches" \
	    "$T61 is not installed (apt-get install linux-source-6.1)"
	done_testing
fi
# untar TARBALL DIR LIST: into DIR, the directories of the tarball and the
# files LIST names (one a line, relative to its top), in one pass.
cat >"$TMP/untar.py" <<'EOF'
import os, sys, tarfile
tb, out, want = sys.argv[1], sys.argv[2], set(open(sys.argv[3]).read().split())
with tarfile.open(tb, "r|*") as t:
    for m in t:
        rel = m.name.split("/", 1)[1] if "/" in m.name else ""
        if not rel:
            continue
        if m.isdir():
            os.makedirs(os.path.join(out, rel), exist_ok=True)
        elif m.isfile() and rel in want:
            p = os.path.join(out, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as f:
                f.write(t.extractfile(m).read())
EOF
# check_patches TREE DIR: the three checks of each patch in DIR against
# TREE, and its recipients against get_maintainer.pl: prints "patches
# N apply A series S checkpatch-errors E maintainers-agree M".
check_patches() {
	n=0 a=0 e=0 m=0 series=ok
	rm -rf "$TMP/series"
	mkdir "$TMP/series"
	for p in $(find "$2" -name '*.patch' | sort); do
		n=$((n + 1))
		f=$(sed -n 's|^+++ b/||p' "$p" | head -1)
		(cd "$1" && git apply --check "$p") 2>/dev/null && a=$((a + 1))
		if [ ! -f "$TMP/series/$f" ]; then
			mkdir -p "$TMP/series/$(dirname "$f")"
			cp "$1/$f" "$TMP/series/$f"
		fi
		(cd "$TMP/series" && git apply "$p") 2>/dev/null || series=failed
		(cd "$1" && perl scripts/checkpatch.pl --no-tree -q "$p") \
		    >"$TMP/cp.out" 2>&1
		e=$((e + $(grep -c '^ERROR' "$TMP/cp.out")))
		python3 - "$1" "$p" "$f" >"$TMP/gm.out" <<'EOF' && m=$((m + 1))
import email, email.header, re, subprocess, sys
tree, patch, f = sys.argv[1:]
msg = email.message_from_binary_file(open(patch, "rb"))
ours = set()
for h in ("To", "Cc"):
    for v in msg.get_all(h) or []:
        v = str(email.header.make_header(email.header.decode_header(v)))
        ours |= set(a.strip() for a in re.split(r",\s*", v.replace("\n", " "))
                    if a.strip())
gm = subprocess.run(["perl", "scripts/get_maintainer.pl", "--no-git",
                     "--no-rolestats", "-f", f], cwd=tree,
                    capture_output=True).stdout.decode("utf-8", "replace")
theirs = set(l for l in gm.split("\n") if l)
print(sorted(ours ^ theirs))
sys.exit(0 if ours == theirs else 1)
EOF
	done
	echo "patches $n apply $a series $series checkpatch-errors $e maintainers-agree $m"
}

printf '%s\n' scripts/checkpatch.pl scripts/spelling.txt \
    scripts/const_structs.checkpatch scripts/get_maintainer.pl MAINTAINERS \
    .mailmap COPYING CREDITS Kbuild Makefile README >"$TMP/want"
# Without the corpus, the project's own QEMU boots (tests/qemu/boots): the
# consoles, captured dmesg and kallsyms of nine Debian 6.1 kernels.
WHAT=corpus
if [ ! -d "$CORPUS/syzkaller" ]; then
	LOGS= WHAT=
	for b in $(ls "$OWN_BOOTS"); do
		d=$(own_boot "$b") || continue
		LOGS="$LOGS $d/console.log $d/root/sos_commands/kernel/dmesg $d/kallsyms"
		WHAT="own boots"
	done
fi
if [ -n "$WHAT" ]; then
	# The patches of every row.
	"$KLEAKSCAN" --report --json --kernel-source "$T61" \
	    --fix-dir "$TMP/real" $LOGS >"$TMP/real.json" 2>/dev/null
	find "$TMP/real" -name '*.patch' | sort | xargs sed -n 's|^+++ b/||p' |
	    sort -u >>"$TMP/want"
fi
mkdir "$TMP/k61"
python3 "$TMP/untar.py" "$T61" "$TMP/k61" "$TMP/want"
ok "linux-source-6.1: its checkpatch.pl and get_maintainer.pl" \
    test -f "$TMP/k61/scripts/checkpatch.pl" -a -f "$TMP/k61/scripts/get_maintainer.pl"

# The patches of the small tree through the real tree's scripts.
if command -v git >/dev/null 2>&1; then
	for f in checkpatch.pl spelling.txt const_structs.checkpatch \
	    get_maintainer.pl; do
		mkdir -p "$OLD/scripts"
		cp "$TMP/k61/scripts/$f" "$OLD/scripts/$f"
	done
	is "$(check_patches "$OLD" "$TMP/patches" | sed 's/ maintainers-agree.*//')" \
	    "patches 3 apply 3 series ok checkpatch-errors 0" \
	    "the small tree's patches: apply, in series too; checkpatch.pl: no ERROR"
	is "$(cd "$OLD" && for f in drivers/widget/core.c mm/pgd.c arch/arm/mm/fault.c \
	    drivers/widget/legacy.c; do
		perl scripts/get_maintainer.pl --no-git --no-rolestats --notree -f "$f" |
		    tr '\n' ' '; echo; done)" \
"Ann Maint <ann@example.org> Rob Review <rob@example.org> widget@lists.example.org linux-kernel@vger.kernel.org 
Mel Mm <mel@example.org> linux-mm@lists.example.org linux-kernel@vger.kernel.org 
Arm Maint <arm@example.org> linux-kernel@vger.kernel.org 
linux-kernel@vger.kernel.org " \
	    "the small tree: get_maintainer.pl names whom the patches do"
fi

if [ -z "$WHAT" ]; then
	skip "the corpus' patches against linux-source-6.1" \
	    "no corpus at $CORPUS, no boots in $OWN_BOOTS"
	done_testing
fi
if [ "$WHAT" = "own boots" ]; then
	# Debian's 6.1 prints few pointers raw: most rows are integers
	# (the Kernel Offset, PHYS_OFFSET, ramdisk and MMIO addresses).
	is "$(python3 -c '
import json, sys
tpl = [json.loads(l) for l in open(sys.argv[1]) if "\"type\":\"template\"" in l]
f = [e["fix"] for e in tpl if e["fix"] is not None]
print(len(f) >= 10, len([x for x in f if x["patch"]]) >= 1,
      all(x["patch"] or x["reason"] for x in f),
      len([e for e in tpl if e["callsite"] and e["fix"] is None]))' "$TMP/real.json")" \
	    "True True True 0" \
	    "own boots, 6.1: rows with call sites, a patch; every row patched or says why"
fi
# Of the rows with a call site whose conversion printed a pointer raw,
# 90 % get a patch; the others, and every other row, say why.
[ "$WHAT" = corpus ] && is "$(python3 -c '
import json, sys
tpl = [json.loads(l) for l in open(sys.argv[1]) if "\"type\":\"template\"" in l]
f = [e["fix"] for e in tpl if e["fix"] is not None]
ptr = [x for x in f if x["kind"] == "pointer"]
got = [x for x in ptr if x["patch"]]
print(len(got) * 100 >= 90 * len(ptr), len(ptr) >= 30,
      all(x["patch"] or x["reason"] for x in f),
      len([e for e in tpl if e["callsite"] and e["fix"] is None]))
sys.stderr.write("rows %d, with a call site %d, pointer %d, patched %d (%.1f%%), "
                 "integer %d, not raw %d\n" % (len(tpl), len(f), len(ptr), len(got),
                 100.0 * len(got) / len(ptr), len([x for x in f if x["kind"] == "integer"]),
                 len([x for x in f if x["kind"] == "not-raw"])))' "$TMP/real.json" 2>"$TMP/share")" \
    "True True True 0" \
    "corpus, 6.1: >= 90 % of the pointer rows patched; every other row says why"
[ "$WHAT" = corpus ] && diag "$(cat "$TMP/share")"
out=$(check_patches "$TMP/k61" "$TMP/real")
n=$(echo "$out" | cut -d' ' -f2)
is "$out" "patches $n apply $n series ok checkpatch-errors 0 maintainers-agree $n" \
    "$WHAT, 6.1: every patch applies (and the series), checkpatch.pl no ERROR, To:/Cc: as get_maintainer.pl"
# Indexed again, the patched files no more print a patched row raw (a
# conversion narrower than an address, "%02x" of s390's instruction
# bytes beside the address, is none).
"$KLEAKSCAN" --report --json --kernel-source "$TMP/series" $LOGS \
    >"$TMP/re61.json" 2>/dev/null
is "$(python3 -c '
import json, re, sys
fix = set()
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "template" and e["fix"] and e["fix"]["patch"]:
        fix.add(e["fingerprint"])
raw = 0
for l in open(sys.argv[2]):
    e = json.loads(l)
    if e["type"] == "template" and e["fingerprint"] in fix:
        raw += sum(1 for c in e["callsite"] or []
                   if c["conversion"] == "%px" or
                   (c["conversion"][-1] in "xX" and
                    not re.match(r"%0?[1-7][xX]$", c["conversion"])))
print(len(fix) > 0, raw)' "$TMP/real.json" "$TMP/re61.json")" "True 0" \
    "$WHAT, 6.1: indexed again, no patched row is printed raw"
# SARIF with fixes validates.
"$KLEAKSCAN" --sarif --kernel-source "$T61" --fix-dir "$TMP/real2" \
    $LOGS >"$TMP/real.sarif" 2>/dev/null
is "$(python3 -c '
import json, sys
rs = json.load(open(sys.argv[1]))["runs"][0]["results"]
print(len([r for r in rs if "fixes" in r]) > 0,
      all("maintainers" in r["properties"] for r in rs if "fixes" in r))' "$TMP/real.sarif")" \
    "True True" "$WHAT, 6.1, SARIF: results with fixes and maintainers"
if command -v sarif-multitool >/dev/null 2>&1; then
	(cd "$TMP" && sarif-multitool validate real.sarif -o realval.sarif \
	    >realval.out 2>&1)
	is "$(python3 -c '
import json, sys
rs = json.load(open(sys.argv[1]))["runs"][0]["results"]
print(len([r for r in rs if r.get("level") == "error"]))' "$TMP/realval.sarif")" \
	    0 "$WHAT, 6.1, SARIF with fixes: sarif-multitool validate, no error"
else
	skip "corpus SARIF: sarif-multitool validate" "sarif-multitool not installed"
fi
# With 6.12: every row with a call site has a fix_state; no call site in
# another architecture's tree.
if [ -r "$T612" ]; then
	"$KLEAKSCAN" --report --json --kernel-source "$T61" --kernel-source \
	    "$T612" $LOGS >"$TMP/r612.json" 2>/dev/null
	is "$(python3 -c '
import json, sys
tpl = [json.loads(l) for l in open(sys.argv[1]) if "\"type\":\"template\"" in l]
cs = [e for e in tpl if e["callsite"]]
dirs = {"x86_64": "x86", "x86_64-5level": "x86", "i386": "x86", "arm": "arm",
        "ppc64": "powerpc", "ppc64-book3e": "powerpc", "ppc32": "powerpc",
        "mips64": "mips", "mips32": "mips", "loongarch64": "loongarch",
        "s390x": "s390", "sparc64": "sparc"}
def fits(arches, f):
    if not f.startswith("arch/"):
        return True
    known = [a for a in arches if a != "unknown"]
    d = f.split("/")[1]
    return not known or any(d == ("arm64" if a.startswith("arm64") else
        "riscv" if a.startswith("riscv") else dirs[a]) for a in known)
other = [c["file"] for e in cs for c in e["callsite"] if not fits(e["arches"], c["file"])]
print(len(cs) > int(sys.argv[2]),
      all(e["fix_state"] in ("open", "fixed", "gone") for e in cs), len(other))
sys.stderr.write("6.1 and 6.12: rows %d, with a call site %d: open %d, fixed %d, gone %d\n" %
    (len(tpl), len(cs), *[len([e for e in cs if e["fix_state"] == s])
                         for s in ("open", "fixed", "gone")]))' "$TMP/r612.json" \
	    "$([ "$WHAT" = corpus ] && echo 100 || echo 10)" 2>"$TMP/fs612")" \
	    "True True 0" \
	    "$WHAT, 6.1 and 6.12: every row with a call site has a fix_state; no site in another arch's tree"
	diag "$(cat "$TMP/fs612")"
else
	skip "6.1 and 6.12: fix_state" "$T612 is not installed (apt-get install linux-source-6.12)"
fi

done_testing
