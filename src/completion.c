/*
 * completion.c - --completion=SHELL: the bash and zsh completion scripts,
 * written from the option table that also feeds getopt_long() and --help,
 * so that a new option is completed without anyone touching this file.
 *
 * What an option's argument completes to comes from the table too: its
 * words (--format, --restrict, ...), the architecture profiles for --arch
 * (the list --list-arches prints, plus auto), file names when the argument
 * is named FILE or PATH (or ends so), directory names when it is named
 * DIR; anything else (N, SIZE, ADDR, ...) completes to nothing.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "kleakscan.h"

/* What the argument of an option completes to. */
enum carg {
	CARG_NONE = 0,
	CARG_WORDS,
	CARG_ARCH,
	CARG_FILE,
	CARG_DIR,
};

/* Does s end with suffix? */
static int
ends_with(const char *s, const char *suffix)
{
	size_t	n, m;

	n = strlen(s);
	m = strlen(suffix);
	return (n >= m && strcmp(s + n - m, suffix) == 0);
}

/* The table being written out. */
struct ctab {
	const struct optdef	*defs;
	size_t			 n;
	const struct optwords	*words;
};

/* The words the argument of o takes, or NULL. */
static const char *const *
words_of(const struct ctab *t, const struct optdef *o)
{
	const struct optwords	*w;

	for (w = t->words; w->words != NULL; w++)
		if (w->val == o->val)
			return (w->words);
	return (NULL);
}

/* What the argument of o completes to. */
static enum carg
carg_of(const struct ctab *t, const struct optdef *o)
{
	if (o->has_arg == no_argument)
		return (CARG_NONE);
	if (strcmp(o->name, "arch") == 0)
		return (CARG_ARCH);
	if (words_of(t, o) != NULL)
		return (CARG_WORDS);
	if (o->arg == NULL)
		return (CARG_NONE);
	if (ends_with(o->arg, "FILE") || ends_with(o->arg, "PATH"))
		return (CARG_FILE);
	if (ends_with(o->arg, "DIR"))
		return (CARG_DIR);
	return (CARG_NONE);
}

/* May o be given more than once (its help says "(repeat)")? */
static int
repeatable(const struct optdef *o)
{
	return (strstr(o->help, "(repeat)") != NULL);
}

/* Write a word for a shell, backslash before anything unusual. */
static void
put_word(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (strchr("abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-/=", *s) == NULL)
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* Write the words of an argument, separated by spaces. */
static void
put_words(FILE *f, const struct ctab *t, const struct optdef *o)
{
	const struct kl_arch	*a;
	const char *const	*w;
	size_t			 i;

	if (carg_of(t, o) == CARG_ARCH) {
		fputs("auto", f);
		for (i = 0; (a = kl_arch_at(i)) != NULL; i++) {
			fputc(' ', f);
			put_word(f, a->name);
		}
		return;
	}
	w = words_of(t, o);
	for (i = 0; w != NULL && w[i] != NULL; i++) {
		if (i > 0)
			fputc(' ', f);
		put_word(f, w[i]);
	}
}

/* Write the names of o for a bash case pattern: -a|--arch. */
static void
put_bash_names(FILE *f, const struct optdef *o)
{
	if (o->val < 256)
		fprintf(f, "-%c|", o->val);
	fprintf(f, "--%s", o->name);
}

/* Write the case patterns of the options whose argument is kind. */
static int
put_bash_kind(FILE *f, const struct ctab *t, enum carg kind)
{
	size_t	i;
	int	k;

	k = 0;
	for (i = 0; i < t->n; i++) {
		if (t->defs[i].name == NULL ||
		    carg_of(t, &t->defs[i]) != kind)
			continue;
		if (k++ > 0)
			fputc('|', f);
		put_bash_names(f, &t->defs[i]);
	}
	return (k);
}

/* The bash script: a completion function and its complete line. */
static void
print_bash(FILE *f, const struct ctab *t)
{
	const struct optdef	*defs = t->defs;
	size_t			 i, n = t->n;
	int			 k;

	fprintf(f, "# bash completion for %s%33s-*- shell-script -*-\n"
	    "# Written by `%s --completion=bash` (%s %s) from the option\n"
	    "# table --help prints: regenerate it, do not edit it.\n\n",
	    PROGNAME, "", PROGNAME, PROGNAME, PACKAGE_VERSION);
	fputs("# Complete $cur from the words in $1.\n"
	    "_kleakscan_words()\n{\n"
	    "\tlocal IFS=$' \\t\\n'\n"
	    "\tCOMPREPLY=($(compgen -W \"$1\" -- \"$cur\"))\n}\n\n"
	    "# Complete $cur as a file (-f) or directory (-d) name.\n"
	    "_kleakscan_paths()\n{\n"
	    "\tlocal IFS=$'\\n'\n"
	    "\tcompopt -o filenames 2>/dev/null\n"
	    "\tCOMPREPLY=($(compgen \"$1\" -- \"$cur\"))\n}\n\n", f);
	fputs("# Complete word COMP_CWORD of COMP_WORDS: an option, its "
	    "argument\n# (--opt ARG, --opt=ARG), or an input file.\n"
	    "_kleakscan()\n{\n"
	    "\tlocal cur prev opt pre i\n"
	    "\tCOMPREPLY=()\n"
	    "\tcur=${COMP_WORDS[COMP_CWORD]}\n"
	    "\tprev=\n"
	    "\t(( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	    "\topt= pre=\n"
	    "\tif [[ $cur == --*=* ]]; then\n"
	    "\t\topt=${cur%%=*} pre=${cur%%=*}= cur=${cur#*=}\n"
	    "\telif [[ $cur == = && $prev == --* ]]; then\n"
	    "\t\topt=$prev cur=\n"
	    "\telif [[ $prev == = ]] && (( COMP_CWORD > 1 )) &&\n"
	    "\t    [[ ${COMP_WORDS[COMP_CWORD-2]} == --* ]]; then\n"
	    "\t\topt=${COMP_WORDS[COMP_CWORD-2]}\n"
	    "\telse\n"
	    "\t\tcase $prev in\n\t\t", f);
	/* Options whose argument is the next word. */
	k = 0;
	for (i = 0; i < n; i++) {
		if (defs[i].name == NULL ||
		    defs[i].has_arg != required_argument)
			continue;
		if (k++ > 0)
			fputc('|', f);
		put_bash_names(f, &defs[i]);
	}
	if (k == 0)
		fputs("--", f);
	fputs(") opt=$prev ;;\n\t\tesac\n\tfi\n\tcase $opt in\n", f);
	for (i = 0; i < n; i++) {
		if (defs[i].name == NULL)
			continue;
		if (carg_of(t, &defs[i]) != CARG_WORDS &&
		    carg_of(t, &defs[i]) != CARG_ARCH)
			continue;
		fputc('\t', f);
		put_bash_names(f, &defs[i]);
		fputs(")\n\t\t_kleakscan_words '", f);
		put_words(f, t, &defs[i]);
		fputs("' ;;\n", f);
	}
	fputc('\t', f);
	if (put_bash_kind(f, t, CARG_FILE) > 0)
		fputs(")\n\t\t_kleakscan_paths -f ;;\n\t", f);
	if (put_bash_kind(f, t, CARG_DIR) > 0)
		fputs(")\n\t\t_kleakscan_paths -d ;;\n\t", f);
	fputs("?*)\n\t\t;;\n"
	    "\t*)\n"
	    "\t\tfor (( i = 1; i < COMP_CWORD; i++ )); do\n"
	    "\t\t\tif [[ ${COMP_WORDS[i]} == -- ]]; then\n"
	    "\t\t\t\t_kleakscan_paths -f\n"
	    "\t\t\t\treturn 0\n"
	    "\t\t\tfi\n"
	    "\t\tdone\n"
	    "\t\tif [[ $cur == -* ]]; then\n"
	    "\t\t\t_kleakscan_words '", f);
	k = 0;
	for (i = 0; i < n; i++) {
		if (defs[i].name == NULL)
			continue;
		if (k++ > 0)
			fputc(' ', f);
		fprintf(f, "--%s", defs[i].name);
	}
	for (i = 0; i < n; i++)
		if (defs[i].name != NULL && defs[i].val < 256)
			fprintf(f, " -%c", defs[i].val);
	fputs("'\n"
	    "\t\telse\n"
	    "\t\t\t_kleakscan_paths -f\n"
	    "\t\tfi\n"
	    "\t\t;;\n"
	    "\tesac\n"
	    "\tif [[ -n $pre ]]; then\n"
	    "\t\tCOMPREPLY=(\"${COMPREPLY[@]/#/$pre}\")\n"
	    "\tfi\n"
	    "\treturn 0\n}\n"
	    "complete -F _kleakscan " PROGNAME "\n", f);
}

/*
 * Write s inside a single-quoted zsh word as an _arguments explanation:
 * quotes closed and reopened, brackets and colons escaped.
 */
static void
put_zsh_help(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else {
			if (strchr("[]:\\", *s) != NULL)
				fputc('\\', f);
			fputc(*s, f);
		}
	}
}

/* Write the _arguments spec of one option. */
static void
put_zsh_spec(FILE *f, const struct ctab *t, const struct optdef *o)
{
	const char	*sfx;

	sfx = o->has_arg == required_argument ? "=" :
	    o->has_arg == optional_argument ? "=-" : "";
	/* '(-a --arch)'{-a+,--arch=}'[...' or '(--json)--json[...' */
	fputs("\t    '", f);
	if (repeatable(o))
		fputs("*", f);
	else if (o->val < 256)
		fprintf(f, "(-%c --%s)", o->val, o->name);
	else
		fprintf(f, "(--%s)", o->name);
	if (o->val < 256)
		fprintf(f, "'{-%c%s,--%s%s}'", o->val,
		    o->has_arg == required_argument ? "+" :
		    o->has_arg == optional_argument ? "-" : "", o->name, sfx);
	else
		fprintf(f, "--%s%s", o->name, sfx);
	fputc('[', f);
	put_zsh_help(f, o->help);
	fputc(']', f);
	if (o->has_arg != no_argument) {
		fputs(o->has_arg == optional_argument ? "::" : ":", f);
		put_zsh_help(f, o->arg != NULL ? o->arg : "ARG");
		fputc(':', f);
		switch (carg_of(t, o)) {
		case CARG_WORDS:
		case CARG_ARCH:
			fputc('(', f);
			put_words(f, t, o);
			fputc(')', f);
			break;
		case CARG_FILE:
			fputs("_files", f);
			break;
		case CARG_DIR:
			fputs("_files -/", f);
			break;
		default:
			fputc(' ', f);
			break;
		}
	}
	fputs("' \\\n", f);
}

/* The zsh script: an autoloadable _kleakscan that can also be sourced. */
static void
print_zsh(FILE *f, const struct ctab *t)
{
	size_t	i;

	fprintf(f, "#compdef %s\n"
	    "# zsh completion for %s, written by `%s --completion=zsh`\n"
	    "# (%s %s) from the option table --help prints: regenerate it,\n"
	    "# do not edit it.\n\n",
	    PROGNAME, PROGNAME, PROGNAME, PROGNAME, PACKAGE_VERSION);
	fputs("# Complete the options, their arguments and the inputs.\n"
	    "_kleakscan() {\n"
	    "\t_arguments -s -S : \\\n", f);
	for (i = 0; i < t->n; i++)
		if (t->defs[i].name != NULL)
			put_zsh_spec(f, t, &t->defs[i]);
	fputs("\t    '*:file or directory (- for standard input):_files'\n"
	    "}\n\n"
	    "# Autoloaded from fpath: complete now; sourced: register.\n"
	    "if [ \"$funcstack[1]\" = _kleakscan ]; then\n"
	    "\t_kleakscan \"$@\"\n"
	    "else\n"
	    "\tcompdef _kleakscan " PROGNAME "\n"
	    "fi\n", f);
}

/*
 * Print the completion script for shell ("bash" or "zsh") to f, from the n
 * options of defs and the word lists of words (ended by a NULL list).
 */
void
completion_print(FILE *f, const char *shell, const struct optdef *defs,
    size_t n, const struct optwords *words)
{
	struct ctab	t;

	t.defs = defs;
	t.n = n;
	t.words = words;
	if (strcmp(shell, "zsh") == 0)
		print_zsh(f, &t);
	else
		print_bash(f, &t);
}
