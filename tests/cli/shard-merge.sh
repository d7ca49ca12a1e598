#!/bin/sh
# shard-merge.sh - --shard K/N and --merge on the shared corpus (or, when
# it is absent, on the logs of tests/data laid out the same way).
#
# The N shards of a listing scan every input exactly once; --merge of
# their --report --json outputs, in any order, in stages, from one
# stream, with -j 1 or -j 2, is the output of one run over the corpus,
# byte for byte; GNU parallel with local jobs (-S :) runs the README's
# recipe.  Bad input: a shard cut short, a worker that died before it
# wrote, a corrupt line, a missing or repeated shard, reports of other
# options or another version, a plain --json stream: an error naming the
# file and exit 2, never a smaller total.

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

set -f
CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}
# Without it, the same runs over the project's own logs in its layout
# (fewer inputs: MIN is the least a listing has).
MIN=100
if [ ! -d "$CORPUS/qemu" ]; then
	MIN=40
	diag "no corpus at $CORPUS: the logs of tests/data in its layout"
	CORPUS=$(own_corpus "$TMP/own") || exit 99
	# Five copies of each log, so that every shard has reports to damage.
	find "$CORPUS/boot" "$CORPUS/loghub" "$CORPUS/mail" \
	    "$CORPUS/syzkaller" -type f | while IFS= read -r f; do
		for i in 2 3 4 5; do
			cp "$f" "$f.$i"
		done
	done
fi
# The logs of the corpus (its captured/ sysroots are systems, read with
# --live-root by live.sh: device-tree and notes files are binary).
LOGS="$CORPUS/syzkaller $CORPUS/boot $CORPUS/loghub $CORPUS/mail $CORPUS/qemu"
K=$KLEAKSCAN
R="--report --json"

# --- usage
run --shard 0/3 "$CORPUS/boot"
is_status 2 "--shard 0/3 is a usage error"
run --shard 4/3 "$CORPUS/boot"
is_status 2 "--shard 4/3 is a usage error"
run --shard 1/x "$CORPUS/boot"
is_status 2 "--shard 1/x is a usage error"
run --merge --shard 1/2 "$TMP/none"
is_status 2 "--merge with --shard is a usage error"

# --- the shards partition the inputs: every input in exactly one
"$K" -c -H $LOGS | sed 's/:[0-9]*$//' | sort >"$TMP/all.names"
: >"$TMP/shard.names"
for k in 1 2 3 4 5; do
	"$K" -c -H --shard $k/5 $LOGS | sed 's/:[0-9]*$//' \
	    >>"$TMP/shard.names"
done
n=$(wc -l <"$TMP/all.names")
ok "the corpus has inputs ($n)" test "$n" -gt "$MIN"
sort "$TMP/shard.names" >"$TMP/shard.sorted"
is "$(cmp "$TMP/all.names" "$TMP/shard.sorted" && echo same)" same \
    "5 shards list every input exactly once"
"$K" -c -H --shard 2/5 $LOGS | sed 's/:[0-9]*$//' >"$TMP/s2a"
"$K" -c -H --shard 2/5 $LOGS | sed 's/:[0-9]*$//' >"$TMP/s2b"
is "$(cmp "$TMP/s2a" "$TMP/s2b" && echo same)" same \
    "a shard is the same inputs every time"
biggest=$(for k in 1 2 3 4 5; do
	"$K" -c -H --shard $k/5 $LOGS | wc -l
done | sort -n | tail -1)
ok "no shard holds most inputs ($biggest of $n)" test "$biggest" -lt $((n / 2))

# --- the single run, and its shards
"$K" $R $LOGS >"$TMP/single.json"
status=$?
is "$status" 1 "one run over the corpus finds leaks (exit 1)"
for k in 1 2 3; do
	"$K" $R --shard $k/3 $LOGS >"$TMP/s$k.json"
done
"$K" -j1 $R --shard 1/3 $LOGS >"$TMP/j1s1.json"
"$K" -j2 $R --shard 2/3 $LOGS >"$TMP/j2s2.json"

# same FILE DESC ARGS...: --merge ARGS prints the single run's bytes.
same() {
	want=$1
	desc=$2
	shift 2
	"$K" --merge "$@" >"$TMP/merged.json" 2>"$TMP/merged.err"
	st=$?
	if cmp -s "$want" "$TMP/merged.json"; then
		pass "$desc"
	else
		fail "$desc"
		diag "$(cmp "$want" "$TMP/merged.json" 2>&1)"
		diag "$(cat "$TMP/merged.err")"
	fi
	is "$st" 1 "$desc (exit status as the single run)"
}

same "$TMP/single.json" "merge 1 2 3 is the single run" \
    "$TMP/s1.json" "$TMP/s2.json" "$TMP/s3.json"
same "$TMP/single.json" "merge 3 1 2 is the single run" \
    "$TMP/s3.json" "$TMP/s1.json" "$TMP/s2.json"
same "$TMP/single.json" "shards made with -j 1 and -j 2 merge the same" \
    "$TMP/j1s1.json" "$TMP/j2s2.json" "$TMP/s3.json"
"$K" --merge "$TMP/s1.json" "$TMP/s3.json" >"$TMP/a13.json" 2>"$TMP/a13.err"
is "$?" 2 "a merge missing shard 2/3 exits 2"
like "$(cat "$TMP/a13.err")" "shard 2/3 of [0-9]+ inputs is missing" \
    "and names the missing shard"
same "$TMP/single.json" "merge (merge 1 3) 2 is the single run" \
    "$TMP/s2.json" "$TMP/a13.json"
"$K" --merge "$TMP/s2.json" "$TMP/s3.json" >"$TMP/a23.json" 2>/dev/null
same "$TMP/single.json" "merge 1 (merge 2 3) is the single run" \
    "$TMP/a23.json" "$TMP/s1.json"
cat "$TMP/s3.json" "$TMP/s2.json" "$TMP/s1.json" >"$TMP/stream.json"
same "$TMP/single.json" "one stream of the shards (-) is the single run" - \
    <"$TMP/stream.json"
same "$TMP/single.json" "merge of the single run alone is itself" \
    "$TMP/single.json"

# --top and --show-addresses: the rows beyond the top still merge.
"$K" $R --top 3 --show-addresses "$CORPUS/qemu" >"$TMP/top.json"
for k in 1 2; do
	"$K" $R --top 3 --show-addresses --shard $k/2 "$CORPUS/qemu" \
	    >"$TMP/top$k.json"
done
same "$TMP/top.json" "--top 3 --show-addresses shards merge to the run" \
    "$TMP/top2.json" "$TMP/top1.json"

# Merging two separate runs counts both: inputs, bytes, findings add up.
"$K" $R "$CORPUS/boot" >"$TMP/boot.json"
"$K" $R "$CORPUS/qemu" >"$TMP/qemu.json"
"$K" --merge "$TMP/boot.json" "$TMP/qemu.json" >"$TMP/bq.json"
"$K" --merge "$TMP/qemu.json" "$TMP/boot.json" >"$TMP/qb.json"
is "$(cmp "$TMP/bq.json" "$TMP/qb.json" && echo same)" same \
    "merging two runs is the same in either order"
sumof() {
	tail -n 1 "$1" | sed -n "s/.*\"$2\":\\([0-9]*\\).*/\\1/p"
}
for f in inputs bytes findings templates; do
	b=$(sumof "$TMP/boot.json" $f)
	q=$(sumof "$TMP/qemu.json" $f)
	m=$(sumof "$TMP/bq.json" $f)
	if [ $f = templates ]; then
		ok "templates of the merge ($m) are at most the sum" \
		    test "$m" -le $((b + q)) -a "$m" -ge "$b"
	else
		is "$m" $((b + q)) "the merge's $f are the sum ($b + $q)"
	fi
done

# --- GNU parallel: the README's recipe with local jobs
if command -v parallel >/dev/null 2>&1; then
	seq 4 | parallel -S : -j2 --halt never "$K" --report --json \
	    --shard '{}/4' $LOGS >"$TMP/parallel.json" 2>"$TMP/parallel.err"
	"$K" $R $LOGS >"$TMP/single4.json"
	"$K" --merge - <"$TMP/parallel.json" >"$TMP/pmerged.json"
	is "$?" 1 "the merge of GNU parallel's shards exits 1 (leaks)"
	is "$(cmp "$TMP/single4.json" "$TMP/pmerged.json" && echo same)" \
	    same "GNU parallel -S : over 4 shards: the single run's bytes"
else
	skip "GNU parallel -S : over 4 shards" "parallel is not installed"
fi

# --- bad input: an error naming the file, exit 2, never a smaller total
# bad DESC PATTERN FILES...: --merge exits 2 and stderr matches PATTERN.
bad() {
	desc=$1
	pat=$2
	shift 2
	"$K" --merge "$@" >"$TMP/bad.out" 2>"$TMP/bad.err"
	is "$?" 2 "$desc: exit 2"
	like "$(cat "$TMP/bad.err")" "$pat" "$desc: the error"
}

head -c $(($(wc -c <"$TMP/s2.json") / 2)) "$TMP/s2.json" >"$TMP/cut.json"
bad "a shard cut short" "^kleakscan: $TMP/cut.json:[0-9]+: " \
    "$TMP/s1.json" "$TMP/cut.json" "$TMP/s3.json"
like "$(cat "$TMP/bad.err")" "shard 2/3 of [0-9]+ inputs is missing" \
    "a shard cut short: its shard is missing from the total"
# The worker that died: its output ends without the summary.
n=$(wc -l <"$TMP/s2.json")
head -n $((n - 1)) "$TMP/s2.json" >"$TMP/nosum.json"
bad "a shard without its summary" "nosum.json:[0-9]+: cut short: no summary" \
    "$TMP/s1.json" "$TMP/nosum.json" "$TMP/s3.json"
: >"$TMP/empty.json"
bad "a shard whose worker died before writing" "empty.json: empty" \
    "$TMP/s1.json" "$TMP/empty.json" "$TMP/s3.json"
sed '5s/"count":/"count"/' "$TMP/s2.json" >"$TMP/corrupt.json"
bad "a corrupt line" "corrupt.json:5: not a JSON object" \
    "$TMP/s1.json" "$TMP/corrupt.json" "$TMP/s3.json"
grep -v '"type":"merge_row"' "$TMP/s2.json" >"$TMP/norows.json"
bad "a report without its rows" "norows.json:[0-9]+: fewer merge rows" \
    "$TMP/s1.json" "$TMP/norows.json" "$TMP/s3.json"
sed 's/\("type":"summary","inputs":\)[0-9]*/\1999999/' "$TMP/s2.json" \
    >"$TMP/sum.json"
bad "a summary that does not match its state" \
    "sum.json:[0-9]+: the summary does not match" \
    "$TMP/s1.json" "$TMP/sum.json" "$TMP/s3.json"
bad "a shard given twice" "s1.json: shard 1/3 is in another report" \
    "$TMP/s1.json" "$TMP/s2.json" "$TMP/s3.json" "$TMP/s1.json"
bad "a shard with the whole run" "single.json: holds all of a listing" \
    "$TMP/s1.json" "$TMP/single.json"
"$K" $R --shard 1/2 $LOGS >"$TMP/h1.json"
bad "shards of different N" "made with --shard K/2, another with --shard K/3" \
    "$TMP/s2.json" "$TMP/h1.json"
"$K" $R --physical --shard 2/3 $LOGS >"$TMP/phys.json"
bad "reports made with other options" "phys.json: made with other options" \
    "$TMP/s1.json" "$TMP/phys.json" "$TMP/s3.json"
sed 's/"version":"[^"]*"/"version":"0.0.0-other"/' "$TMP/s2.json" \
    >"$TMP/ver.json"
bad "a report of another version" "ver.json: made by kleakscan 0.0.0-other" \
    "$TMP/s1.json" "$TMP/ver.json" "$TMP/s3.json"
sed 's/"options":\["--report"/"options":["--help","--report"/' \
    "$TMP/s2.json" >"$TMP/help.json"
bad "a report whose options would print help" \
    "help.json: its options are not those of a report" \
    "$TMP/s1.json" "$TMP/help.json" "$TMP/s3.json"
"$K" --json "$CORPUS/boot" >"$TMP/plain.json"
bad "a plain --json stream" "plain.json:1: a plain --json event" \
    "$TMP/plain.json"
"$K" --report "$CORPUS/boot" >"$TMP/text.txt"
bad "a text report" "text.txt:1: not a JSON object" "$TMP/text.txt"
bad "a file that is not there" "nowhere.json: No such file" \
    "$TMP/s1.json" "$TMP/nowhere.json"

done_testing
