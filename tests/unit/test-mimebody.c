/*
 * test-mimebody.c - decoding the body of a text part (lib/mimebody.c):
 * format=flowed, charsets and CRLF line ends.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kleak.h"

#include "mime-harness.h"

/* format=flowed: soft lines join, quote marks of the next line go. */
static void
t_flowed(void **state)
{
	struct got g;
	struct kl_mime *m;

	(void)state;
	m = readall("Subject: f\nMessage-ID: <f@x>\n"
	    "Content-Type: text/plain; charset=utf-8; format=flowed\n\n"
	    "> GPR00: c000000000123456 \n> c000000000abcdef\n"
	    "-- \nsig\n", 0, &g);
	assert_string_equal(g.text, "> GPR00: c000000000123456 "
	    "c000000000abcdef\n-- \nsig\n");
	kl_mime_free(m);
	m = readall("Subject: f\nMessage-ID: <f@x>\n"
	    "Content-Type: text/plain; format=flowed; delsp=yes\n\n"
	    "ab \ncd\n", 0, &g);
	assert_string_equal(g.text, "abcd\n");
	kl_mime_free(m);
}

/* Windows-1252 and CRLF line ends. */
static void
t_charset(void **state)
{
	struct got g;
	struct kl_mime *m;

	(void)state;
	m = readall("Subject: c\r\nMessage-ID: <c@x>\r\n"
	    "Content-Type: text/plain; charset=windows-1252\r\n\r\n"
	    "\x80 \xa0x\r\n", 0, &g);
	assert_string_equal(g.text, "\xe2\x82\xac  x\n");
	kl_mime_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_flowed),
		cmocka_unit_test(t_charset),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
