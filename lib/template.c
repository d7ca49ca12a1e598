/*
 * template.c - message templates, their class and fingerprint.
 *
 * A template is the message as the kernel formatted it, with every part
 * that changes between two runs of the same printk replaced by a
 * printf-like placeholder, so that one call site gives one template on
 * every boot, host, slide, kernel and log format:
 *
 *   framing      what is left of a prefix in front of the message: mail
 *                quotes ("> ", ">> "), printk's "** N printk messages
 *                dropped ** ", then what kl_frame_line() finds
 *                (timestamps, caller ids, syslog and journal headers);
 *                blanks are squeezed to one space, trimmed at both ends
 *   %x           a hex number: 0x and digits, or a run of hex digits
 *                standing alone with 8 digits or more, or with fewer
 *                and a letter a-f among them or a leading zero ("0018")
 *   %d           a run of decimal digits standing alone, under 8 digits,
 *                not zero-padded
 *   %pS          sym+0xoff/0xsize (a "? " before it and a " [module]"
 *                after it dropped), and the symbol after a [<%x>] or
 *                [%x] frame address (what follows it dropped, but for an
 *                arm " from [<%x>] (...)")
 *   %s           the task after "Comm: ", "comm: ", "comm=", "by task ",
 *                "held by ", "Process ", "task " (to a blank, or to the
 *                last '/' of a "task/pid"), the cache after "the cache "
 *                and "in cache ", the rest after "Not tainted " and
 *                "Tainted: ", a lockdep class and usage "(%s){%s}" after
 *                "#%d: "
 *   %*ph         four or more two-digit hex bytes in a row (dumps,
 *                KASAN shadow rows, Code: lines; "[fc]", "<0f>" too)
 *   %%           a percent sign of the message
 *   kallsyms     a whole "ADDR T symbol [module]" line is "%px %c %s"
 *
 * "Standing alone" means not inside a word: the bytes around are not
 * letters, digits or '_'.  A template is at most KL_TPL_MAX bytes; a
 * longer one, or one of a line the scanner cut, ends (or starts) with
 * "...".  The fingerprint is the SipHash-2-4, keyed with the 16 ASCII
 * bytes "kleakscan/tpl/v1", of the class name, a NUL and the template,
 * written as 16 lower-case hex digits; it stays the same across
 * releases unless the man page says otherwise.
 */
#include "config.h"

#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

#define QUOTE_ROUNDS	4	/* prefixes taken off (quotes: all) */
#define DUMP_MIN	4	/* bytes in a row that make a dump */
#define LONG_HEX	8	/* digits that make a run hex whatever */
#define DROPPED		" printk messages dropped ** "

static const uint8_t fp_key[KL_PK_KEYLEN] = "kleakscan/tpl/v1";

static const char *const tc_names[KL_TC_COUNT] = {
	"pointer", "leak-source", "report", "register", "frame", "file",
	"layout",
};

/* Keys after which a name is printed, and where it ends. */
struct tkey {
	const char	*s;
	size_t		 len;
	int		 rest;		/* the name runs to the message end */
	int		 slash;		/* a '/' ends the name too */
};
#define TK(s, r, sl) { (s), sizeof(s) - 1, (r), (sl) }
static const struct tkey tkeys[] = {
	TK("Comm: ", 0, 0), TK("comm: ", 0, 0), TK("comm=", 0, 0),
	TK("by task ", 0, 1), TK("held by ", 0, 1), TK("Process ", 0, 1),
	TK("task ", 0, 1),
	TK("the cache ", 0, 0), TK("in cache ", 0, 0), TK("Not tainted ", 1, 0),
	TK("Tainted: ", 1, 0),
};

/* The output of a template under construction. */
struct tout {
	struct kl_template	*t;
	int			 full;
};

/* Is c a word byte: letter, digit or '_'? */
static int
is_word(uint8_t c)
{
	return (kl_isalnum(c) || c == '_');
}

/* Is c a byte of a symbol name? */
static int
is_sym(uint8_t c)
{
	return (is_word(c) || c == '.' || c == '$');
}

/* Is c a blank? */
static int
is_blank(uint8_t c)
{
	return (c == ' ' || c == '\t');
}

/* Append n bytes, or mark the template cut. */
static void
put(struct tout *o, const void *s, size_t n)
{
	struct kl_template *t = o->t;

	if (o->full)
		return;
	if (n > KL_TPL_MAX - 3 - t->len) {
		o->full = 1;
		return;
	}
	memcpy(t->text + t->len, s, n);
	t->len += n;
}

/* Append a NUL-terminated string. */
static void
puts_(struct tout *o, const char *s)
{
	put(o, s, strlen(s));
}

/* Does the output end with s[0..n)?  Its first byte rules most out. */
static inline int
ends_n(const struct tout *o, const char *s, size_t n)
{
	return (o->t->len >= n && o->t->text[o->t->len - n] == s[0] &&
	    memcmp(o->t->text + o->t->len - n, s, n) == 0);
}

/* ends_n() and put() of a string literal: its length is known. */
#define ENDS(o, lit)	ends_n((o), (lit), sizeof(lit) - 1)
#define PUTS(o, lit)	put((o), (lit), sizeof(lit) - 1)

/* The end of a hex run from i. */
static size_t
hex_end(const uint8_t *p, size_t n, size_t i)
{
	while (i < n && kl_isxdigit(p[i]))
		i++;
	return (i);
}

/* The end of a dump byte at i ("fc", "[fc]", "<0f>"), or 0. */
static size_t
dump_byte(const uint8_t *p, size_t n, size_t i)
{
	uint8_t close = 0;

	if (i < n && (p[i] == '[' || p[i] == '<')) {
		close = p[i] == '[' ? ']' : '>';
		i++;
	}
	if (i + 2 > n || !kl_isxdigit(p[i]) || !kl_isxdigit(p[i + 1]))
		return (0);
	i += 2;
	if (close != 0) {
		if (i >= n || p[i] != close)
			return (0);
		i++;
	}
	if (i < n && !is_blank(p[i]))
		return (0);
	return (i);
}

/* The end of a dump of DUMP_MIN bytes or more from i, or 0. */
static size_t
dump_run(const uint8_t *p, size_t n, size_t i)
{
	size_t e, k = 0, last = 0;

	while ((e = dump_byte(p, n, i)) != 0) {
		k++;
		last = e;
		if (e < n && p[e] == ' ' && e + 1 < n)
			i = e + 1;
		else
			break;
	}
	return (k >= DUMP_MIN ? last : 0);
}

/* The end of sym+0xoff(/0xsize) at i, or 0. */
static size_t
sym_off(const uint8_t *p, size_t n, size_t i)
{
	size_t j = i, k;

	while (j < n && is_sym(p[j]))
		j++;
	if (j == i || j + 3 >= n || p[j] != '+' || p[j + 1] != '0' ||
	    (p[j + 2] | 0x20) != 'x' || !kl_isxdigit(p[j + 3]))
		return (0);
	j = hex_end(p, n, j + 3);
	if (j + 3 < n && p[j] == '/' && p[j + 1] == '0' &&
	    (p[j + 2] | 0x20) == 'x' && kl_isxdigit(p[j + 3]))
		j = hex_end(p, n, j + 3);
	if (j < n && is_word(p[j]))
		return (0);
	/* A module: " [ext4]". */
	if (j + 2 < n && p[j] == ' ' && p[j + 1] == '[') {
		for (k = j + 2; k < n && (is_sym(p[k]) || p[k] == '-'); k++)
			;
		if (k > j + 2 && k < n && p[k] == ']' &&
		    (k + 1 == n || is_blank(p[k + 1])))
			j = k + 1;
	}
	return (j);
}

/*
 * After a symbol at e: skip a source location " dir/file.c:123" and a
 * " [inline]" (syzkaller's symbolised reports).  Returns the new end.
 */
static size_t
src_loc(const uint8_t *p, size_t n, size_t e)
{
	size_t j = e + 1, k, colon = 0, dot = 0;

	if (e >= n || p[e] != ' ')
		return (e);
	for (; j < n && !is_blank(p[j]); j++)
		if (p[j] == ':')
			colon = j;
		else if (p[j] == '.' || p[j] == '/')
			dot = 1;
		else if (!is_sym(p[j]) && p[j] != '-')
			return (e);
	if (colon == 0 || !dot || colon + 1 == j)
		return (e);
	for (k = colon + 1; k < j; k++)
		if (p[k] < '0' || p[k] > '9')
			return (e);
	if (j + 9 <= n && memcmp(p + j, " [inline]", 9) == 0)
		j += 9;
	return (j);
}

/*
 * An s390 disassembly line of show_code() (arch/s390/kernel/dis.c):
 * "Krnl Code: 00000000b05ec32e: c0e500187331  brasl %r14,..." and its
 * continuations "  >00000000b05ec33c: ec76fed8007c  cgij ...".  The
 * instruction text varies with the code, not with the call: the
  * template keeps "[Krnl Code: ]%x: ..." and ends there (a marker '>' or
 * '#' goes).  Returns 2 for a line with "Krnl Code:" (or "User Code:",
 * which a kernel report prints too), 1 for a continuation, 0 for none.
 */
static size_t
s390_code(const uint8_t *p, size_t n)
{
	size_t i = 0, k, e;

	if (n > 10 && (memcmp(p, "Krnl Code:", 10) == 0 ||
	    memcmp(p, "User Code:", 10) == 0))
		i = 10;
	k = i;
	if (i < n && (p[i] == '>' || p[i] == '#' || p[i] == ' '))
		i++;
	if (hex_end(p, n, i) != i + 16 || i + 18 > n || p[i + 16] != ':' ||
	    p[i + 17] != ' ')
		return (0);
	/* The instruction, 2, 4 or 6 bytes, then blanks and a mnemonic. */
	i += 18;
	e = hex_end(p, n, i);
	if (e - i != 4 && e - i != 8 && e - i != 12)
		return (0);
	i = e;
	if (i < n && p[i] == '\t')
		i++;
	else if (i + 1 < n && p[i] == ' ' && p[i + 1] == ' ')
		i += 2;
	else
		return (0);
	while (i < n && is_blank(p[i]))
		i++;
	if (i >= n || p[i] < 'a' || p[i] > 'z')
		return (0);
	return (k > 0 ? 2 : 1);
}

/* Is the message a kallsyms or System.map line: "ADDR T name [mod]"? */
static int
kallsyms(const uint8_t *p, size_t n)
{
	size_t i, j;

	i = hex_end(p, n, 0);
	if ((i != 8 && i != 16) || i + 3 > n || p[i] != ' ' ||
	    !((p[i + 1] | 0x20) >= 'a' && (p[i + 1] | 0x20) <= 'z') ||
	    (i + 2 < n && p[i + 2] != ' '))
		return (0);
	if (i + 2 >= n)
		return (0);
	j = i + 3;
	if (j >= n)
		return (0);
	while (j < n && !is_blank(p[j]))
		j++;
	while (j < n && is_blank(p[j]))
		j++;
	if (j == n)
		return (1);
	if (p[j] != '[' || p[n - 1] != ']')
		return (0);
	for (j++; j < n - 1; j++)
		if (is_blank(p[j]))
			return (0);
	return (1);
}

/* Take quotes and framing off the front of p[0..*n); trim the end. */
static const uint8_t *
unframe(const uint8_t *p, size_t *np)
{
	struct kl_frame fr;
	const uint8_t *d;
	size_t n = *np;
	int round;

	while (n > 0 && (is_blank(p[n - 1]) || p[n - 1] == '\r' ||
	    p[n - 1] == '\n'))
		n--;
	for (round = 0; round < QUOTE_ROUNDS; round++) {
		while (n > 0 && (p[0] == '>' || is_blank(p[0]))) {
			p++;
			n--;
		}
		if (n > 3 && memcmp(p, "** ", 3) == 0 && (d = kl_memmem(p, n,
		    DROPPED, sizeof(DROPPED) - 1)) != NULL) {
			d += sizeof(DROPPED) - 1;
			n -= (size_t)(d - p);
			p = d;
			continue;
		}
		kl_frame_line(p, n, KL_LINE_PLAIN, KL_FORMAT_AUTO, &fr);
		if (fr.msg == 0 || fr.msg > n)
			break;
		p += fr.msg;
		n -= fr.msg;
	}
	while (n > 0 && is_blank(p[0])) {
		p++;
		n--;
	}
	*np = n;
	return (p);
}

/* A number standing alone at p[i..j): %x or %d. */
static void
number(struct tout *o, const uint8_t *p, size_t i, size_t j)
{
	size_t k;
	int letter = 0;

	for (k = i; k < j; k++)
		if (p[k] > '9')
			letter = 1;
	puts_(o, letter || j - i >= LONG_HEX || (j - i >= 2 && p[i] == '0') ?
	    "%x" : "%d");
}

/* The frame symbol after "[<%x>] ": its end in p, the rest dropped. */
static size_t
frame_sym(struct tout *o, const uint8_t *p, size_t n, size_t i)
{
	size_t j;

	if (i + 1 < n && p[i] == '?' && p[i + 1] == ' ')
		i += 2;
	if (i < n && p[i] == '(') {
		for (j = i + 1; j < n && p[j] != ')' && !is_blank(p[j]); j++)
			;
		if (j >= n || p[j] != ')' || j == i + 1)
			return (0);
		PUTS(o, "(%pS)");
		j++;
	} else {
		for (j = i; j < n && is_sym(p[j]); j++)
			;
		if (j == i)
			return (0);
		if (j < n && !is_blank(p[j]) && p[j] != '+')
			return (0);
		while (j < n && !is_blank(p[j]))
			j++;
		PUTS(o, "%pS");
	}
	o->t->flags |= KL_TPL_FRAME;
	/* arm: "[<%x>] (%pS) from [<%x>] (%pS)" goes on. */
	if (j + 6 <= n && memcmp(p + j, " from ", 6) == 0)
		return (j);
	return (n);
}

/*
 * A lockdep held lock: after "#%d: %x " or "#%d: ", the class name and
 * usage "(&mm->mmap_sem){++++}" are "(%s){%s}".  Returns the end, or 0.
 */
static size_t
lock_name(struct tout *o, const uint8_t *p, size_t n, size_t i)
{
	const uint8_t *b, *c;

	if (!(o->t->len == 5 && memcmp(o->t->text, "#%d: ", 5) == 0) &&
	    !(o->t->len == 8 && memcmp(o->t->text, "#%d: %x ", 8) == 0) &&
	    !(o->t->len == 3 && memcmp(o->t->text, "%x ", 3) == 0))
		return (0);
	if ((b = kl_memmem(p + i, n - i, "){", 2)) == NULL ||
	    (c = memchr(b, '}', (size_t)(p + n - b))) == NULL)
		return (0);
	PUTS(o, "(%s){%s}");
	return ((size_t)(c - p) + 1);
}

/* Try the name keys at i; returns the end of the name, or 0. */
static size_t
key_name(struct tout *o, const uint8_t *p, size_t n, size_t i)
{
	const struct tkey *k;
	size_t x, j, e;

	for (x = 0; x < sizeof(tkeys) / sizeof(tkeys[0]); x++) {
		k = &tkeys[x];
		if (!ends_n(o, k->s, k->len))
			continue;
		if (o->t->len > k->len && is_word((uint8_t)o->t->text[
		    o->t->len - k->len - 1]))
			continue;
		if (k->rest) {
			PUTS(o, "%s");
			return (n);
		}
		for (j = i; j < n && !is_blank(p[j]); j++)
			;
		/* "swapper/1/0": the task is up to the last '/'. */
		if (k->slash)
			for (e = j; e > i; e--)
				if (p[e - 1] == '/') {
					j = e - 1;
					break;
				}
		/* "task %x" and "task: " are not task names. */
		if (j == i || (j - i >= 2 && p[i] == '0' &&
		    (p[i + 1] | 0x20) == 'x'))
			return (0);
		PUTS(o, "%s");
		return (j);
	}
	return (0);
}

/*
 * The template of a message p[0..n), as kl_template_make() says, but
 * without the fingerprint (kl_template_finding() computes it once, for
 * the class it finds).
 */
static void
build(const uint8_t *p, size_t n, unsigned fflags, struct kl_template *t)
{
	struct tout o;
	size_t i, j, e;
	int space = 0, wb;

	memset(t, 0, sizeof(*t));
	o.t = t;
	o.full = 0;
	if (fflags & KL_F_HEAD_CUT) {
		/* Start at a word: the cut falls anywhere. */
		for (i = 0; i < n && !is_blank(p[i]); i++)
			;
		p += i;
		n -= i;
		PUTS(&o, "...");
		t->flags |= KL_TPL_CUT;
	} else
		p = unframe(p, &n);
	if (n > 0 && kallsyms(p, n)) {
		PUTS(&o, "%px %c %s");
		t->flags |= KL_TPL_KALLSYMS;
		n = 0;
	} else if ((e = s390_code(p, n)) != 0) {
		if (e > 1) {
			put(&o, p, 10);		/* "Krnl Code:", "User Code:" */
			PUTS(&o, " ");
		}
		PUTS(&o, "%x: ...");
		n = 0;
	}
	for (i = 0; i < n && !o.full;) {
		if (is_blank(p[i])) {
			space = 1;
			i++;
			continue;
		}
		/* A no-break space (UTF-8 C2 A0) of a mail client is one. */
		if (p[i] == 0xc2 && i + 1 < n && p[i + 1] == 0xa0) {
			space = 1;
			i += 2;
			continue;
		}
		if (space && t->len > 0)
			put(&o, " ", 1);
		space = 0;
		wb = i == 0 || !is_word(p[i - 1]);
		if ((e = key_name(&o, p, n, i)) != 0) {
			i = e;
			continue;
		}
		if (wb && (ENDS(&o, "[<%x>] ") || ENDS(&o, "[%x] ")) &&
		    (o.t->len == 7 || o.t->len == 5 || ENDS(&o, " [<%x>] ") ||
		    ENDS(&o, " [%x] ") || ENDS(&o, ":[<%x>] ")) &&
		    (e = frame_sym(&o, p, n, i)) != 0) {
			i = e;
			continue;
		}
		if (p[i] == '(' && (e = lock_name(&o, p, n, i)) != 0) {
			i = e;
			continue;
		}
		if (wb && (e = dump_run(p, n, i)) != 0) {
			PUTS(&o, "%*ph");
			t->flags |= KL_TPL_DUMP;
			i = e;
			continue;
		}
		if (wb && (e = sym_off(p, n, i)) != 0) {
			if (ENDS(&o, "? "))
				t->len -= 2;
			else if (t->len == 1 && t->text[0] == '?')
				t->len = 0;
			PUTS(&o, "%pS");
			i = src_loc(p, n, e);
			continue;
		}
		if (wb && p[i] == '0' && i + 2 < n &&
		    (p[i + 1] | 0x20) == 'x' &&
		    kl_isxdigit(p[i + 2])) {
			j = hex_end(p, n, i + 2);
			if (j == n || !is_word(p[j])) {
				put(&o, p + i, 2);
				PUTS(&o, "%x");
				i = j;
				continue;
			}
		}
		if (wb && kl_isxdigit(p[i])) {
			j = hex_end(p, n, i);
			if (j == n || !is_word(p[j])) {
				size_t k;
				int digit = 0;

				for (k = i; k < j; k++)
					if (p[k] <= '9')
						digit = 1;
				if (digit || j - i == 2 || j - i >= LONG_HEX) {
					number(&o, p, i, j);
					i = j;
					continue;
				}
			}
		}
		if (is_word(p[i])) {
			for (j = i; j < n && is_word(p[j]); j++)
				;
			put(&o, p + i, j - i);
			i = j;
			continue;
		}
		if (p[i] == '%')
			put(&o, "%%", 2);
		else
			put(&o, p + i, 1);
		i++;
	}
	if (o.full || (fflags & KL_F_TAIL_CUT)) {
		memcpy(t->text + t->len, "...", 3);
		t->len += 3;
		t->flags |= KL_TPL_CUT;
	}
	t->text[t->len] = '\0';
	t->tclass = KL_TC_POINTER;
}

/*
 * Make the template of a message p[0..n): flags KL_F_HEAD_CUT and
 * KL_F_TAIL_CUT say the scanner cut the line.  Sets text, len, flags;
 * the class is KL_TC_POINTER and the fingerprint is computed for it.
 */
void
kl_template_make(const uint8_t *p, size_t n, unsigned fflags,
    struct kl_template *t)
{
	build(p, n, fflags, t);
	kl_template_fingerprint(t);
}

/* Does the template hold s? */
static int
has(const struct kl_template *t, const char *s)
{
	return (kl_memmem((const uint8_t *)t->text, t->len, s, strlen(s)) !=
	    NULL);
}

/*
 * Has the template a letter outside its placeholders?  One without is a
 * raw dump of memory or a stack ("%x: %x %x %x"), part of a report.
 */
static int
worded(const struct kl_template *t)
{
	size_t i;

	for (i = 0; i < t->len; i++) {
		if (t->text[i] == '%') {
			if (i + 1 < t->len && t->text[i + 1] == '%')
				i++;
			else
				while (i + 1 < t->len && (kl_isalnum((uint8_t)
				    t->text[i + 1]) || t->text[i + 1] == '*'))
					i++;
			continue;
		}
		if (((uint8_t)t->text[i] | 0x20) >= 'a' &&
		    ((uint8_t)t->text[i] | 0x20) <= 'z')
			return (1);
	}
	return (0);
}

/* Is s one of the NULL-ended list? */
static int
one_of(const char *s, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(s, *list) == 0)
			return (1);
	return (0);
}

/* Does s hold one of the NULL-ended list? */
static int
holds(const char *s, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strstr(s, *list) != NULL)
			return (1);
	return (0);
}

/*
 * Does the template start with a register label and a hex value: a
 * short label (x19, r7, sp, RAX, R08, GPR00, $ 4, epc) then ':' and %x?
 */
static int
reg_start(const struct kl_template *t)
{
	static const char *const words[] = {
		"PC is at", "LR is at", "Krnl PSW", "Krnl GPRS", "NIP ",
		"LR [", "epc ", "era ", "status: ", "badaddr: ", "cause: ",
		NULL,
	};
	const char *s = t->text, *const *w;
	size_t i = 0, lo = 0, up = 0, dg = 0;

	for (w = words; *w != NULL; w++)
		if (strncmp(s, *w, strlen(*w)) == 0)
			return (1);
	if (s[0] == '$') {
		i = 1;
		lo = 1;
	}
	for (; s[i] >= 'a' && s[i] <= 'z'; i++)
		lo++;
	for (; s[i] >= 'A' && s[i] <= 'Z'; i++)
		up++;
	for (; s[i] == '_' || (s[i] >= 'A' && s[i] <= 'Z'); i++)
		up++;
	if (s[i] == ' ' && s[0] == '$')
		i++;
	if (s[i] == '%' && s[i + 1] == 'd')
		i += 2, dg++;
	for (; s[i] >= '0' && s[i] <= '9'; i++)
		dg++;
	if (!((lo >= 1 && lo <= 2 && up == 0) || (up >= 1 && up <= 8 &&
	    lo == 0)) || dg > 2)
		return (0);
	if (s[i] == ' ')
		i++;
	if (s[i] != ':' && s[i] != '=')
		return (0);
	i++;
	if (s[i] == ' ')
		i++;
	if (s[i] == '0' && s[i + 1] == 'x')
		i += 2;
	return (s[i] == '%' && s[i + 1] == 'x');
}

/*
 * The class of a template: from the finding's region and rule, the leak
 * source its line matched (or NULL), then the template's shape.
 */
enum kl_tclass
kl_template_class(const struct kl_template *t, const char *rule,
    enum kl_region region, const struct kl_leak_entry *src)
{
	static const char *const file_ids[] = {
		"proc-modules", "vmallocinfo", "printk-formats",
		"timer-list-base", NULL,
	};
	static const char *const reg_rules[] = {
		"register", "stack-pointer", "pc", "percpu", NULL,
	};
	static const char *const reg_ids[] = {
		"gprs", "regs", "-rsp", "-sp", "pc-lr", "epc-ra", "pc-ra",
		"nip", "rip", "gs-base", "cr3", "exception-stack",
		"stack-limit", NULL,
	};
	static const char *const rep_rules[] = {
		"struct-page", "object-address", "dump-row", "fault-address",
		NULL,
	};
	static const char *const rep_ids[] = {
		"kasan-", "kfence-", "kmemleak-", "lockdep-", "fault-",
		"page-table", "pgd", "pte", NULL,
	};
	static const char *const rep_words[] = {
		"KASAN", "KFENCE", "kmemleak", "buggy address", "lock held",
		"locks held", "lockdep", "Redzone ", "Padding ", "Object ",
		"Slab ", "page:", "raw: ", "head: ", "unreferenced object",
		"INFO: ", "BUG: ", "Unable to handle", "unable to handle",
		"paging request", "%*ph", "(%s){%s}", NULL,
	};

	if (rule == NULL)
		rule = "";
	if (region == KL_REGION_LAYOUT ||
	    (src != NULL && src->class == KL_LCLASS_LAYOUT))
		return (KL_TC_LAYOUT);
	if ((t->flags & KL_TPL_KALLSYMS) ||
	    (src != NULL && one_of(src->id, file_ids)))
		return (KL_TC_FILE);
	if (strcmp(rule, "frame") == 0 || (t->flags & KL_TPL_FRAME))
		return (KL_TC_FRAME);
	if (one_of(rule, reg_rules) ||
	    (src != NULL && holds(src->id, reg_ids)) || reg_start(t))
		return (KL_TC_REGISTER);
	if (one_of(rule, rep_rules) ||
	    (src != NULL && holds(src->id, rep_ids)))
		return (KL_TC_REPORT);
	for (size_t i = 0; rep_words[i] != NULL; i++)
		if (has(t, rep_words[i]))
			return (KL_TC_REPORT);
	if (!worded(t))
		return (KL_TC_REPORT);
	if (src != NULL)
		return (KL_TC_LEAK_SOURCE);
	return (KL_TC_POINTER);
}

/* Compute the hash and fingerprint of t from its class and text. */
void
kl_template_fingerprint(struct kl_template *t)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t buf[32 + KL_TPL_MAX + 1];
	const char *name;
	size_t n;
	int i;

	name = kl_tclass_name(t->tclass);
	n = strlen(name);
	memcpy(buf, name, n);
	buf[n++] = '\0';
	memcpy(buf + n, t->text, t->len);
	n += t->len;
	t->hash = kl_pk_siphash(buf, n, fp_key);
	for (i = 0; i < KL_FP_LEN; i++)
		t->fp[i] = hex[(t->hash >> (60 - 4 * i)) & 0xf];
	t->fp[KL_FP_LEN] = '\0';
}

/*
 * The template of a finding (its line's message, from lmsg), classed
 * with the leak source its line matched (or NULL).
 */
void
kl_template_finding(const struct kl_finding *f,
    const struct kl_leak_entry *src, struct kl_template *t)
{
	size_t m = f->lmsg <= f->llen ? f->lmsg : f->llen;

	if (f->ltext == NULL) {
		build(NULL, 0, 0, t);
		m = 0;
	} else
		build(f->ltext + m, f->llen - m, f->flags, t);
	t->tclass = kl_template_class(t, f->rule, f->region, src);
	kl_template_fingerprint(t);
}

/* The name of a class. */
const char *
kl_tclass_name(enum kl_tclass c)
{
	if ((unsigned)c >= KL_TC_COUNT)
		return ("pointer");
	return (tc_names[c]);
}

/* The class named s; -1 when none is. */
int
kl_tclass_parse(const char *s, enum kl_tclass *c)
{
	int i;

	for (i = 0; i < KL_TC_COUNT; i++)
		if (strcmp(s, tc_names[i]) == 0) {
			*c = (enum kl_tclass)i;
			return (0);
		}
	return (-1);
}

/* Is p[0..n) a month name, "Jan" to "Dec"? */
static int
month(const uint8_t *p, size_t n)
{
	static const char m[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	size_t i;

	if (n != 3)
		return (0);
	for (i = 0; i < 36; i += 3)
		if (memcmp(p, m + i, 3) == 0)
			return (1);
	return (0);
}

/*
 * The host a syslog prefix names: line[0..msg) is the prefix the framer
 * found.  RFC 3164 and journalctl short ("Dec  4 10:00:00 host kernel:"),
 * RFC 3339 ("2024-01-02T03:04:05+00:00 host kernel:") and RFC 5424
 * ("<6>1 TS host app ...").  Returns 1 and the host's span, or 0.
 */
int
kl_template_host(const uint8_t *p, size_t msg, size_t *off, size_t *len)
{
	size_t tok[8][2], nt = 0, i = 0, j, want;

	while (i < msg && nt < 8) {
		while (i < msg && is_blank(p[i]))
			i++;
		for (j = i; j < msg && !is_blank(p[j]); j++)
			;
		if (j > i) {
			tok[nt][0] = i;
			tok[nt][1] = j - i;
			nt++;
		}
		i = j;
	}
	if (nt < 2)
		return (0);
	if (month(p + tok[0][0], tok[0][1]))
		want = 3;
	else if (p[tok[0][0]] == '<' && tok[0][1] >= 4 &&
	    p[tok[0][0] + tok[0][1] - 1] == '1')
		want = 2;
	else if (tok[0][1] >= 19 && kl_isxdigit(p[tok[0][0]]) &&
	    p[tok[0][0] + 4] == '-' && p[tok[0][0] + 10] == 'T')
		want = 1;
	else
		return (0);
	if (want >= nt)
		return (0);
	/* The host is followed by the tag: "kernel:" and the like. */
	*off = tok[want][0];
	*len = tok[want][1];
	for (i = 0; i < *len; i++)
		if (!is_word(p[*off + i]) && p[*off + i] != '-' &&
		    p[*off + i] != '.')
			return (0);
	return (*len > 0);
}

/*
 * Mask the addresses of p[0..n) in place: in every hex run of 8 digits
 * or more standing alone (after an optional 0x), keep the leading 'f'
 * digits and the one after them, which name the region, and write 'x'
 * for the rest: ffffffff81234567 -> ffffffff8xxxxxxx, ffff888012345678
 * -> ffff8xxxxxxxxxxx, c0123456 -> cxxxxxxx.  Returns the digits masked.
 */
size_t
kl_mask_addr(uint8_t *p, size_t n)
{
	size_t i = 0, j, k, s, masked = 0;

	while (i < n) {
		if (!is_word(p[i]) || (i > 0 && is_word(p[i - 1]))) {
			i++;
			continue;
		}
		s = i;
		if (p[i] == '0' && i + 1 < n && (p[i + 1] | 0x20) == 'x')
			s = i + 2;
		j = hex_end(p, n, s);
		if (j - s >= LONG_HEX && (j == n || !is_word(p[j]))) {
			for (k = s; k < j && (p[k] | 0x20) == 'f'; k++)
				;
			if (k < j)
				k++;
			for (; k < j; k++, masked++)
				p[k] = 'x';
		}
		while (j < n && is_word(p[j]))
			j++;
		i = j;
	}
	return (masked);
}
