/*
 * test-maint.c - the recipients of a patch from a MAINTAINERS and a
 * .mailmap written for this test, each rule of get_maintainer.pl the C
 * reader mirrors: F: directories and globs, X: excludes, N: regexes,
 * K: keywords over the file's text, most specific first, reviewers,
 * lists (moderated in, subscribers-only out), .mailmap names and
 * addresses, names quoted, each person and list once, the chief
 * penguin out.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kleak.h"

static const char maint[] =
    "List of maintainers (written for kleakscan's tests)\n"
    "\n"
    "Descriptions of section entries:\n"
    "\tM: Mail patches to: FullName <address@domain>\n"
    "\n"
    "WIDGET CORE\n"
    "M:\tAnn Maint <ann@example.org>\n"
    "R:\tRob Review <rob@example.org>\n"
    "L:\twidget@lists.example.org\n"
    "L:\twidget-announce@lists.example.org (subscribers-only)\n"
    "S:\tMaintained\n"
    "F:\tdrivers/widget\n"
    "X:\tdrivers/widget/legacy.c\n"
    "\n"
    "WIDGET SERIAL DRIVER\n"
    "M:\tSam Serial <sam@example.org>\n"
    "M:\tAnn Maint <ANN@example.org>\n"
    "L:\tserial@lists.example.org (moderated for non-subscribers)\n"
    "S:\tOdd Fixes\n"
    "F:\tdrivers/widget/serial*.c\n"
    "\n"
    "WIDGET TRACING\n"
    "M:\tTom Trace <tom@old.example.org>\n"
    "S:\tMaintained\n"
    "N:\ttrace\n"
    "\n"
    "PRINTK CALLERS\n"
    "M:\tPeter J. Printk <pp@example.org>\n"
    "L:\tWIDGET@lists.example.org\n"
    "S:\tMaintained\n"
    "K:\t\\bwidget_dump_regs\\b\n"
    "\n"
    "THE REST\n"
    "M:\tLinus Torvalds <torvalds@linux-foundation.org>\n"
    "L:\tlinux-kernel@vger.kernel.org\n"
    "S:\tBuried alive in reporters\n"
    "F:\t*\n"
    "F:\t*/\n";

static const char mailmap[] =
    "# .mailmap written for kleakscan's tests\n"
    "Tom Trace <tom@example.org> <tom@old.example.org>\n"
    "Sam Serial-Smith <sam@example.org>\n";

/* drivers/widget is a directory of the tree. */
static int
isdir(void *arg, const char *p)
{
	(void)arg;
	return (strcmp(p, "drivers") == 0 || strcmp(p, "drivers/widget") == 0);
}

/* The recipients of file as one string, roles marked M, R or L. */
static char *
who(struct kl_maint *m, const char *file, const char *text)
{
	struct kl_error err = { 0 };
	struct kl_maint_list l;
	static char buf[2048];
	size_t i, n = 0;

	assert_int_equal(kl_maint_lookup(m, file, text, text != NULL ?
	    strlen(text) : 0, &l, &err), 0);
	buf[0] = '\0';
	for (i = 0; i < l.n; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%c %s",
		    i > 0 ? "; " : "", "MRL"[l.who[i].role], l.who[i].addr);
	kl_maint_list_free(&l);
	return (buf);
}

/* Each rule on its own file. */
static void
test_lookup(void **state)
{
	struct kl_error err = { 0 };
	struct kl_maint *m;

	(void)state;
	m = kl_maint_new(maint, strlen(maint), mailmap, strlen(mailmap),
	    isdir, NULL, &err);
	assert_non_null(m);
	/* F: a directory without its '/' (the tree says it is one). */
	assert_string_equal(who(m, "drivers/widget/core.c", NULL),
	    "M Ann Maint <ann@example.org>; R Rob Review <rob@example.org>; "
	    "L widget@lists.example.org; L linux-kernel@vger.kernel.org");
	/* The glob is deeper: first; Ann once (case folded, as first
	   met); the moderated list in; .mailmap's name for Sam. */
	assert_string_equal(who(m, "drivers/widget/serial_8250.c", NULL),
	    "M Sam Serial-Smith <sam@example.org>; "
	    "M Ann Maint <ANN@example.org>; R Rob Review <rob@example.org>; "
	    "L serial@lists.example.org; L widget@lists.example.org; "
	    "L linux-kernel@vger.kernel.org");
	/* X: the section is out; N: by the path, .mailmap's address. */
	assert_string_equal(who(m, "drivers/widget/legacy.c", NULL),
	    "L linux-kernel@vger.kernel.org");
	assert_string_equal(who(m, "kernel/trace/widget.c", NULL),
	    "M Tom Trace <tom@example.org>; L linux-kernel@vger.kernel.org");
	/* K: over the text; the list already there (case folded) once;
	   a name with a '.' quoted. */
	assert_string_equal(who(m, "drivers/widget/core.c",
	    "void f(void)\n{\n\twidget_dump_regs(w);\n}\n"),
	    "M Ann Maint <ann@example.org>; R Rob Review <rob@example.org>; "
	    "M \"Peter J. Printk\" <pp@example.org>; "
	    "L widget@lists.example.org; L linux-kernel@vger.kernel.org");
	assert_string_equal(who(m, "drivers/widget/core.c",
	    "void f(void)\n{\n\twidget_dump_regs_all(w);\n}\n"),
	    "M Ann Maint <ann@example.org>; R Rob Review <rob@example.org>; "
	    "L widget@lists.example.org; L linux-kernel@vger.kernel.org");
	/* A top-level file: F: * alone; the chief penguin is dropped. */
	assert_string_equal(who(m, "Makefile", NULL),
	    "L linux-kernel@vger.kernel.org");
	kl_maint_free(m);

	/* Without the directory, "drivers/widget" is a file pattern. */
	m = kl_maint_new(maint, strlen(maint), NULL, 0, NULL, NULL, &err);
	assert_non_null(m);
	assert_string_equal(who(m, "drivers/widget/core.c", NULL),
	    "L linux-kernel@vger.kernel.org");
	assert_string_equal(who(m, "drivers/widget.c", NULL),
	    "M Ann Maint <ann@example.org>; R Rob Review <rob@example.org>; "
	    "L widget@lists.example.org; L linux-kernel@vger.kernel.org");
	kl_maint_free(m);
}

/*
 * A list "address" without an '@' (fuzz-fix, regress/maint-list-no-at
 * .txt): get_maintainer.pl prints an empty line for it; here it is left
 * out, never an empty recipient.
 */
static void
test_list_no_at(void **state)
{
	struct kl_error err = { 0 };
	struct kl_maint *m;
	static const char t[] = "WIDGET CORE\nM:\tAnn Maint <ann@example.org>\n"
	    "L:<<=\twidget@lists.example.org\nF:\t*\nF:\t*/\n";

	(void)state;
	m = kl_maint_new(t, strlen(t), NULL, 0, NULL, NULL, &err);
	assert_non_null(m);
	assert_string_equal(who(m, "drivers/a.c", NULL),
	    "M Ann Maint <ann@example.org>");
	kl_maint_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_list_no_at),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
