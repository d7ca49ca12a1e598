# check-knf.awk - check the house layout (KNF, see STYLE.md) of C files.
#
# Usage: awk -f check-knf.awk FILE...
# Prints "FILE:LINE: what" for each line that breaks a rule and exits 1
# when one does.  The rules are those clang-format cannot express for this
# code (OpenBSD-aligned declarations), checked as written:
#   - indentation is tabs; a continuation adds fewer than eight spaces;
#   - no white space at the end of a line, no space before a tab;
#   - lines fit in 80 columns, tabs at 8;
#   - a function definition has its return type on a line of its own, the
#     name at the start of the next line and "{" alone on a line, and a
#     comment ends on the line just above the return type.

# err MSG: report the current line.
function err(msg) {
	printf "%s:%d: %s\n", FILENAME, FNR, msg
	bad = 1
}

# width S: the columns S takes, tabs at 8.
function width(s,	i, n, w, c) {
	w = 0
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (c == "\t")
			w += 8 - w % 8
		else
			w++
	}
	return w
}

FNR == 1 {
	n = 0
	incom = 0
}

{
	line = $0
	text[++n] = line
	if (line ~ /[ \t]$/)
		err("white space at the end of the line")
	if (line ~ /^\t* +\t/)
		err("a space before a tab in the indentation")
	else if (line ~ /^\t*        / && !incom)
		err("eight spaces of indentation where a tab goes")
	if (width(line) > 80)
		err("longer than 80 columns")
	# Comments: track /* ... */ spans so their text is not read as code.
	if (line ~ /\/\*/ && line !~ /\*\//)
		incom = 1
	else if (incom && line ~ /\*\//)
		incom = 0
	if (line != "{" || incom)
		next
	# A "{" alone at column 0 opens a function body: find its name line.
	for (i = n - 1; i > 0 && text[i] ~ /^([ \t]|$)/; i--)
		;
	if (i < 2 || text[i] !~ /^[A-Za-z_][A-Za-z0-9_]*\(/) {
		err("function name not at the start of a line after its type")
		next
	}
	t = i - 1
	if (text[t] ~ /^(#|$)/ || text[t] ~ /[;{}]$/) {
		err("function definition without a return type line")
		next
	}
	if (text[t - 1] !~ /\*\/[ \t]*$/) {
		printf "%s:%d: no comment above the function\n", FILENAME, t
		bad = 1
	}
}

END {
	exit bad
}
