# tap.sh - a tiny TAP helper for the CLI tests (POSIX sh; source it).
#
# The Makefile sets KLEAKSCAN, TESTDATA and TOPSRC; run by hand, they
# default to the source tree this file is in and a binary at
# ./src/kleakscan (a build directory) or $TOPSRC/src/kleakscan.
#
#	ok DESC CMD...		a command that must succeed
#	is GOT WANT DESC	two strings that must be equal
#	like GOT PATTERN DESC	a string that must match a grep -E pattern
#	skip DESC REASON	a test that cannot run here
#	diag TEXT		a comment line
#	run ARGS...		run kleakscan; sets OUT, ERR, STATUS
#	done_testing		print the plan and exit with the result
#
# The plan goes out at the end, so tests can be added without counting.

LC_ALL=C
export LC_ALL
unset NO_COLOR
TERM=dumb
export TERM

if [ -z "${TOPSRC:-}" ]; then
	TOPSRC=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${TESTDATA:=$TOPSRC/tests/data}"
if [ -z "${KLEAKSCAN:-}" ]; then
	if [ -x ./src/kleakscan ]; then
		KLEAKSCAN=$(pwd)/src/kleakscan
	else
		KLEAKSCAN=$TOPSRC/src/kleakscan
	fi
fi
export TOPSRC TESTDATA KLEAKSCAN

tap_n=0
tap_failed=0

# A scratch directory, removed at exit.
TMP=$(mktemp -d "${TMPDIR:-/tmp}/kleakscan-test.XXXXXX") || exit 99
trap 'chmod -R u+rwx "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
trap 'exit 99' HUP INT TERM

# Print a comment line (each line of $* prefixed with "# ").
diag() {
	printf '%s\n' "$*" | sed 's/^/# /'
}

# Record a passing test.
pass() {
	tap_n=$((tap_n + 1))
	printf 'ok %d - %s\n' "$tap_n" "$1"
}

# Record a failing test.
fail() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	printf 'not ok %d - %s\n' "$tap_n" "$1"
}

# ok DESC CMD...: pass when the command succeeds.
ok() {
	tap_desc=$1
	shift
	if "$@"; then
		pass "$tap_desc"
	else
		fail "$tap_desc"
	fi
}

# is GOT WANT DESC: pass when the strings are equal, else show both.
is() {
	if [ "$1" = "$2" ]; then
		pass "$3"
	else
		fail "$3"
		diag "got:"
		diag "$1"
		diag "want:"
		diag "$2"
	fi
}

# like GOT ERE DESC: pass when GOT matches the extended regex.
like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		pass "$3"
	else
		fail "$3"
		diag "got:"
		diag "$1"
		diag "does not match: $2"
	fi
}

# unlike GOT ERE DESC: pass when GOT does not match.
unlike() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		fail "$3"
		diag "got:"
		diag "$1"
		diag "matches: $2"
	else
		pass "$3"
	fi
}

# skip DESC REASON: a test that cannot run here.
skip() {
	tap_n=$((tap_n + 1))
	printf 'ok %d - %s # SKIP %s\n' "$tap_n" "$1" "$2"
}

# run ARGS...: run the binary; OUT and ERR hold its output (trailing
# newlines dropped), STATUS its exit status; $TMP/out and $TMP/err keep
# the exact bytes.  Standard input is the caller's.
run() {
	"$KLEAKSCAN" "$@" >"$TMP/out" 2>"$TMP/err"
	STATUS=$?
	OUT=$(cat "$TMP/out")
	ERR=$(cat "$TMP/err")
}

# is_status WANT DESC: check STATUS of the last run.
is_status() {
	is "$STATUS" "$1" "$2 (exit status)"
	if [ "$STATUS" != "$1" ] && [ -n "$ERR" ]; then
		diag "stderr:"
		diag "$ERR"
	fi
}

# Is a JSON checker available?  Sets JSON_CHECK to a command reading a
# JSON Lines file name as $1.
json_checker() {
	if command -v python3 >/dev/null 2>&1 &&
	    python3 -c 'import json' 2>/dev/null; then
		JSON_CHECK=json_check_python
	elif command -v jq >/dev/null 2>&1; then
		JSON_CHECK=json_check_jq
	else
		JSON_CHECK=
	fi
}

# Every line of $1 is one JSON object (python3).
json_check_python() {
	python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1], "rb"):
    n += 1
    if not line.endswith(b"\n"):
        sys.exit("line %d: no newline" % n)
    v = json.loads(line.decode("utf-8"))
    if not isinstance(v, dict) or "type" not in v:
        sys.exit("line %d: not an event" % n)
' "$1"
}

# Every line of $1 is one JSON object (jq).
json_check_jq() {
	jq -n 'inputs | if type == "object" and has("type") then empty
	    else error("not an event") end' <"$1" >/dev/null
}

# done_testing: print the plan; the exit status tells the result.
done_testing() {
	printf '1..%d\n' "$tap_n"
	[ "$tap_failed" -eq 0 ]
	exit $?
}
