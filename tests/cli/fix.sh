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
put "$NEW/drivers/widget/core.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/printk.h>

struct widget {
	void *base;
	unsigned long flags;
};

void widget_probe(struct widget *w)
{
	pr_info("widget: base at %p\n", w->base);
}

void widget_map(struct widget *w, void *map)
{
	pr_info("widget: map at %08lx, flags %lu\n", (unsigned long)map,
		w->flags);
}
EOF

LOG=$TMP/widget.log
cat >"$LOG" <<'EOF'
[    1.000000] widget: base at ffff888003a41000
[    1.000100] widget: map at ffffc90000a40000, flags 3
[    1.000200] widget: register window at 0xffffc90000c00000
[    1.000300] pgd = ffff888003a42000
EOF

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

done_testing
