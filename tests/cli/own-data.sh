#!/bin/sh
# own-data.sh - the repository holds only data the project made itself:
# no file under tests/ or data/ (nor the decompressed content of a .xz,
# .gz or .zst there) is a copy of a file of ../shared/corpus (nor of the
# decompressed content of one), the QEMU boots of corpus/qemu excepted
# (the project's own; tests/data/ATTRIBUTION).  Files under 64 bytes are
# too small to tell.  Skipped when the corpus is absent.

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

if ! [ -d "$REAL_CORPUS" ]; then
	echo "1..0 # SKIP no corpus at $REAL_CORPUS"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is needed to hash the files"
	exit 0
fi

cat >"$TMP/hash.py" <<'PYEOF'
# hash.py ROOT [SKIP]: "sha256 path" for every file under ROOT of 64
# bytes or more, and "sha256 path!" for the decompressed content of each
# .xz, .gz and .zst (one that does not decompress is left out); SKIP, a
# directory name, is not entered.
import gzip, hashlib, lzma, os, subprocess, sys

def unpack(path, data):
    try:
        if path.endswith(".xz"):
            return lzma.decompress(data)
        if path.endswith(".gz"):
            return gzip.decompress(data)
        if path.endswith(".zst"):
            r = subprocess.run(["zstd", "-dc"], input=data,
                               stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
            return r.stdout if r.returncode == 0 else None
    except (OSError, EOFError, lzma.LZMAError):
        return None
    return None

root = sys.argv[1]
skip = sys.argv[2] if len(sys.argv) > 2 else None
for d, dirs, files in os.walk(root):
    dirs[:] = sorted(x for x in dirs if x != skip)
    for f in sorted(files):
        p = os.path.join(d, f)
        if not os.path.isfile(p) or os.path.islink(p):
            continue
        data = open(p, "rb").read()
        rel = os.path.relpath(p, root)
        if len(data) >= 64:
            print(hashlib.sha256(data).hexdigest(), rel)
        u = unpack(p, data)
        if u is not None and len(u) >= 64:
            print(hashlib.sha256(u).hexdigest(), rel + "!")
PYEOF

python3 "$TMP/hash.py" "$REAL_CORPUS" qemu >"$TMP/corpus.sums"
is "$?" 0 "the corpus hashed"
ok "the corpus has files to compare" test -s "$TMP/corpus.sums"

for dir in tests data; do
	python3 "$TMP/hash.py" "$TOPSRC/$dir" >"$TMP/$dir.sums"
	is "$?" 0 "$dir/ hashed"
	# The files whose hash a corpus file has ("!": decompressed).
	awk 'NR == FNR { c[$1] = $2; next }
	    $1 in c { print d "/" $2 " = corpus/" c[$1] }' d="$dir" \
	    "$TMP/corpus.sums" "$TMP/$dir.sums" >"$TMP/$dir.copies"
	is "$(cat "$TMP/$dir.copies")" "" "$dir/: no file is a copy of a corpus file"
done

# The check itself: a corpus file copied under tests/ is found.
mkdir -p "$TMP/probe"
f=$(awk '$2 !~ /!$/ { print $2; exit }' "$TMP/corpus.sums")
cp "$REAL_CORPUS/$f" "$TMP/probe/copy"
gzip -c "$REAL_CORPUS/$f" >"$TMP/probe/copy.gz"
python3 "$TMP/hash.py" "$TMP/probe" >"$TMP/probe.sums"
is "$(awk 'NR == FNR { c[$1] = 1; next } $1 in c { n++ } END { print n + 0 }' \
    "$TMP/corpus.sums" "$TMP/probe.sums")" 2 \
    "a copy of $f, plain and packed, would be found"

done_testing
