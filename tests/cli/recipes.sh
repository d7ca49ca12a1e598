#!/bin/sh
# recipes.sh - the CI recipes of the README, run as they are written there
# (the `run:` lines of its "CI recipes" section) in a job directory with
# logs/: the -q step, the --redact step before artifacts are published,
# the SARIF step once the binary has --sarif; and the pre-commit hook of
# .pre-commit-hooks.yaml: its entry command, its file pattern and, when
# pre-commit is installed and the tree is a git checkout, pre-commit
# itself through try-repo.

. "$(dirname "$0")/tap.sh"

README=$TOPSRC/README
HOOKS=$TOPSRC/.pre-commit-hooks.yaml
LEAK=$TOPSRC/data/sample-x86_64-oops.log
CLEAN=$WRITTEN/riscv64-boot.dmesg
PATH=$(cd "$(dirname "$KLEAKSCAN")" && pwd):$PATH
export PATH

# recipe TEXT: the README's `run:` line that contains TEXT.
recipe() {
	sed -n '/^CI recipes$/,/^Debian package/p' "$README" |
	    sed -n 's/^ *run: //p' | grep -F -- "$1" | sed -n 1p
}

# job NAME FILE...: a job directory $TMP/NAME with the files in logs/.
job() {
	jd=$TMP/$1
	shift
	mkdir -p "$jd/logs"
	cp "$@" "$jd/logs/"
}

# step DIR CMD: run a recipe line with sh in DIR; OUT, ERR, STATUS.
step() {
	(cd "$1" && sh -c "$2") >"$TMP/out" 2>"$TMP/err"
	STATUS=$?
	OUT=$(cat "$TMP/out")
	ERR=$(cat "$TMP/err")
}

ok "kleakscan on PATH is the one under test" \
    test "$(command -v kleakscan)" -ef "$KLEAKSCAN"
job leak "$LEAK" "$CLEAN"
job clean "$CLEAN"
# A log that cannot be read to its end: a gzip stream cut short.
gzip -c "$CLEAN" | head -c 700 >"$TMP/cut.log.gz"
job broken "$CLEAN" "$TMP/cut.log.gz"
nleak=$("$KLEAKSCAN" -c "$LEAK")
ok "the leaking sample has findings ($nleak)" test "$nleak" -gt 0
run -c "$CLEAN"
is "$OUT" 0 "the clean log has none"

# The -q step.
cmd=$(recipe 'kleakscan -q')
ok "the README has the -q step" test -n "$cmd"
step "$TMP/leak" "$cmd"
is "$STATUS" 1 "-q step: a leaking log fails the job (exit 1)"
n=$(printf '%s\n' "$OUT" | grep -c '^logs/sample-x86_64-oops\.log:[0-9]*:[0-9]*: ')
is "$n" "$nleak" "-q step: the job log shows each finding with its path"
unlike "$OUT" 'riscv64' "-q step: the clean log is not named"
step "$TMP/clean" "$cmd"
is "$STATUS" 0 "-q step: clean logs pass"
is "$OUT$ERR" "" "-q step: clean logs print nothing"
step "$TMP/broken" "$cmd"
is "$STATUS" 2 "-q step: a log that cannot be read fails the job (exit 2)"
like "$ERR" '^kleakscan: logs/cut\.log\.gz' "-q step: the bad log is named"

# The --redact step before artifacts are published.
cmd=$(recipe 'kleakscan --redact')
ok "the README has the --redact step" test -n "$cmd"
step "$TMP/leak" "$cmd"
is "$STATUS" 0 "redact step: passes when something was redacted"
ok "redact step: the leaking log is in redacted/logs/" \
    test -f "$TMP/leak/redacted/logs/sample-x86_64-oops.log"
ok "redact step: the clean log is copied unchanged" \
    cmp -s "$CLEAN" "$TMP/leak/redacted/logs/riscv64-boot.dmesg"
run -c "$TMP/leak/redacted/logs/sample-x86_64-oops.log"
is "$OUT" 0 "redact step: the published copy has no finding"
is "$(wc -c <"$TMP/leak/redacted/logs/sample-x86_64-oops.log")" \
    "$(wc -c <"$LEAK")" "redact step: the copy keeps the log's length"
ok "redact step: the logs themselves are left as they were" \
    cmp -s "$LEAK" "$TMP/leak/logs/sample-x86_64-oops.log"
step "$TMP/broken" "$cmd"
ok "redact step: a log that cannot be rewritten fails the step" \
    test "$STATUS" -ne 0
ok "redact step: and is not published" \
    test ! -e "$TMP/broken/redacted/logs/cut.log.gz"

# The SARIF step, once kleakscan has --sarif (SARIF 2.1.0 on stdout).
cmd=$(recipe 'kleakscan --sarif')
ok "the README has the SARIF step" test -n "$cmd"
if ! "$KLEAKSCAN" --help | grep -q -- '--sarif'; then
	skip "SARIF step" "this kleakscan has no --sarif yet"
elif ! command -v python3 >/dev/null 2>&1; then
	skip "SARIF step" "python3 not installed"
else
	step "$TMP/leak" "$cmd"
	is "$STATUS" 0 "SARIF step: findings do not fail the step"
	n=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == "2.1.0", d["version"]
print(sum(len(r.get("results", [])) for r in d["runs"]))' \
	    "$TMP/leak/kleakscan.sarif" 2>&1)
	like "$n" '^[1-9][0-9]*$' "SARIF step: SARIF 2.1.0 with results ($n)"
	step "$TMP/broken" "$cmd"
	ok "SARIF step: an unreadable log fails the step" test "$STATUS" -ne 0
fi

# The pre-commit hook: its entry command on a leaking and a clean file.
entry=$(sed -n 's/^  entry: //p' "$HOOKS")
files=$(sed -n "s/^  files: '\\(.*\\)'\$/\\1/p" "$HOOKS")
is "$(sed -n 's/^  language: //p' "$HOOKS")" system \
    "hook: language system (the installed kleakscan)"
like "$entry" '^kleakscan( |$)' "hook: the entry runs kleakscan"
step "$TMP/leak" "$entry logs/sample-x86_64-oops.log"
is "$STATUS" 1 "hook: a leaking log fails the commit"
n=$(printf '%s\n' "$OUT" | grep -c '^logs/sample-x86_64-oops\.log:[0-9]*:[0-9]*: ')
is "$n" "$nleak" "hook: each finding is shown with its path"
step "$TMP/leak" "$entry logs/riscv64-boot.dmesg"
is "$STATUS" 0 "hook: a clean log passes"
is "$OUT$ERR" "" "hook: a clean log prints nothing"
step "$TMP/leak" "$entry logs/riscv64-boot.dmesg logs/sample-x86_64-oops.log"
is "$STATUS" 1 "hook: several files, one leaking, fail"
if command -v python3 >/dev/null 2>&1; then
	got=$(python3 -c '
import re, sys
p = re.compile(sys.argv[1])
for n in sys.argv[2:]:
    print(n, "yes" if p.search(n) else "no")' "$files" \
	    dmesg.txt logs/kern.log.1 ci/console-ttyS0.txt boot.log.gz \
	    x/syslog captures/run.journal crash.dmesg \
	    src/main.c README docs/console.md.d/x.c logfile.c)
	is "$got" "dmesg.txt yes
logs/kern.log.1 yes
ci/console-ttyS0.txt yes
boot.log.gz yes
x/syslog yes
captures/run.journal yes
crash.dmesg yes
src/main.c no
README no
docs/console.md.d/x.c no
logfile.c no" "hook: files: picks logs, not sources"
else
	skip "hook: files: picks logs, not sources" "python3 not installed"
fi

# pre-commit itself, on a repository with a leaking and a clean log.
if ! command -v pre-commit >/dev/null 2>&1 || ! command -v git >/dev/null 2>&1; then
	skip "pre-commit try-repo" "pre-commit or git not installed"
elif ! git -C "$TOPSRC" ls-files --error-unmatch .pre-commit-hooks.yaml \
    >/dev/null 2>&1; then
	skip "pre-commit try-repo" "the tree is not a git checkout with the hook"
else
	r=$TMP/repo
	mkdir "$r"
	cp "$LEAK" "$r/kern.log"
	cp "$CLEAN" "$r/clean.dmesg"
	printf 'int x = 0xffffffff81000000;\n' >"$r/main.c"
	(cd "$r" && git init -q . && git add .) >/dev/null 2>&1
	pc() {
		(cd "$r" && PRE_COMMIT_HOME=$TMP/pc-home \
		    pre-commit try-repo "$TOPSRC" kleakscan "$@") \
		    >"$TMP/out" 2>&1
		STATUS=$?
		OUT=$(cat "$TMP/out")
	}
	pc --files kern.log clean.dmesg main.c
	is "$STATUS" 1 "pre-commit: the hook fails on a leaking log"
	like "$OUT" '^kern\.log:[0-9]+:[0-9]+: ' \
	    "pre-commit: the finding is shown"
	pc --files clean.dmesg main.c
	is "$STATUS" 0 "pre-commit: a clean log and a C file pass"
fi

done_testing
