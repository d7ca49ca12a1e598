/*
 * test-mime.c - the mail reader (lib/mime.c): containers, messages and
 * the parts of a MIME body.  Each case is a small hand-written mail
 * pinning one rule; the real mails of ../shared/corpus/mail are tested
 * by tests/cli/mail.sh.
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

/* Sniffing: an mbox, a message, and what is not mail. */
static void
t_sniff(void **state)
{
#define S(s)	kl_mime_sniff((const uint8_t *)(s), sizeof(s) - 1)
	(void)state;
	assert_int_equal(S("From a@b Thu Jan  1 00:00:00 1970\n"
	    "Subject: x\n\nbody\n"), KL_MIME_MBOX);
	assert_int_equal(S("Subject: oops\nMessage-ID: <a@b>\n\nbody\n"),
	    KL_MIME_MESSAGE);
	assert_int_equal(S("Subject: oops\r\n"
	    "Content-Type: text/plain;\r\n charset=utf-8\r\n\r\n"),
	    KL_MIME_MESSAGE);
	/* One header-like line is not enough; logs are not mail. */
	assert_int_equal(S("Date: Mon\n[    0.000000] Linux version\n"),
	    KL_MIME_NONE);
	assert_int_equal(S("[    0.000000] Linux version 6.1\n"),
	    KL_MIME_NONE);
	assert_int_equal(S("From here on\nthe log\n"), KL_MIME_NONE);
	assert_int_equal(S(" Subject: x\nDate: y\n"), KL_MIME_NONE);
	assert_int_equal(kl_mime_sniff(NULL, 4), KL_MIME_NONE);
#undef S
}

static const char multi[] =
    "Subject: m\n"
    "Message-ID: <multi@x>\n"
    "Content-Type: multipart/mixed; boundary=\"AA\"\n"
    "\n"
    "preamble 1111111111111111\n"
    "--AA\n"
    "Content-Type: text/plain\n"
    "\n"
    "one\n"
    "--AA\n"
    "Content-Type: image/png\n"
    "Content-Transfer-Encoding: base64\n"
    "\n"
    "iVBORw0KGgo=\n"
    "--AA\n"
    "Content-Type: message/rfc822\n"
    "\n"
    "Subject: inner\n"
    "Message-ID: <inner@x>\n"
    "Content-Type: multipart/alternative; boundary=BB\n"
    "\n"
    "--BB\n"
    "Content-Type: text/html; charset=iso-8859-1\n"
    "Content-Transfer-Encoding: quoted-printable\n"
    "\n"
    "<p>NIP:&nbsp;c0000000=A0<b>x</b></p>caf=E9\n"
    "--BB--\n"
    "--AA\n"
    "Content-Type: application/octet-stream; name=\"dmesg.txt\"\n"
    "Content-Transfer-Encoding: base64\n"
    "\n"
    "WyAgMS4wXSBvawo=\n"
    "--AA--\n"
    "epilogue 2222222222222222\n";

/* Multipart, nested message, HTML, charsets, attachments by kind. */
static void
t_multipart(void **state)
{
	struct got g;
	struct kl_mime *m;

	(void)state;
	m = readall(multi, 0, &g);
	assert_string_equal(g.text, "one\nNIP: c0000000 x\ncaf\xc3\xa9\n"
	    "[  1.0] ok\n");
	assert_int_equal(g.begins, 1);
	assert_string_equal(g.ids[0], "multi@x");
	assert_int_equal(g.nerr, 0);
	assert_int_equal(kl_mime_stats(m)->parts, 4);
	assert_int_equal(kl_mime_stats(m)->text, 3);
	assert_int_equal(kl_mime_stats(m)->binary, 1);
	kl_mime_free(m);
}

static const char mbox[] =
    "From a@b Thu Jan  1 00:00:00 1970\n"
    "Subject: one\n"
    "Message-ID: <one@x>\n"
    "\n"
    ">From the log:\n"
    "x From y\n"
    "From a line that is not a separator\n"
    "\n"
    "From b@c Thu Jan  1 00:00:00 1970\n"
    "Subject: two, no Message-ID\n"
    "Content-Type: multipart/mixed; boundary=CC\n"
    "\n"
    "--CC\n"
    "\n"
    "UklQ:!\n"
    "\n"
    "From c@d Thu Jan  1 00:00:00 1970\n"
    "Subject: three\n"
    "Message-ID: <three@x>\n"
    "Content-Transfer-Encoding: base64\n"
    "\n"
    "UklQ*Cg\n";

/* mbox: From lines, >From unescaped, damage named per message. */
static void
t_mbox(void **state)
{
	struct got g, g1;
	struct kl_mime *m;
	size_t step;

	(void)state;
	m = readall(mbox, 0, &g);
	assert_int_equal(g.begins, 3);
	assert_int_equal(g.ends, 3);
	assert_string_equal(g.ids[0], "one@x");
	assert_string_equal(g.ids[1], "-");
	assert_string_equal(g.ids[2], "three@x");
	assert_int_equal(g.lines[0], 1);
	assert_int_equal(g.lines[1], 9);
	assert_int_equal(g.lines[2], 17);
	assert_string_equal(g.text, "From the log:\nx From y\n"
	    "From a line that is not a separator\n\n"
	    "UklQ:!\n\nRIP\n");
	/* Message two: its multipart never closes; three: bad base64. */
	assert_int_equal(g.nerr, 2);
	assert_string_equal(g.err[0], "missing closing MIME boundary");
	assert_int_equal(g.errline[0], 17);
	assert_string_equal(g.err[1], "invalid base64");
	assert_int_equal(g.errline[1], 22);
	kl_mime_free(m);
	/* Byte by byte, and in odd pieces: the same. */
	for (step = 1; step < 8; step += 3) {
		m = readall(mbox, step, &g1);
		assert_string_equal(g1.text, g.text);
		assert_int_equal(g1.begins, 3);
		assert_int_equal(g1.nerr, 2);
		kl_mime_free(m);
	}
}

/* A part header cut by the end of the input, and a long line. */
static void
t_cut(void **state)
{
	struct got g;
	struct kl_mime *m;
	char *big;
	size_t n = 3 * KL_MIME_LINE_MAX, h;

	(void)state;
	m = readall("Subject: c\nMessage-ID: <cut@x>\n"
	    "Content-Type: multipart/mixed; boundary=Z\n\n--Z\n"
	    "Content-Type: text/pl", 0, &g);
	assert_int_equal(g.begins, 1);
	assert_int_equal(g.ends, 1);
	assert_int_equal(g.nerr, 1);
	assert_string_equal(g.err[0], "missing closing MIME boundary");
	kl_mime_free(m);
	big = malloc(n + 64);
	assert_non_null(big);
	strcpy(big, "Subject: l\nMessage-ID: <long@x>\n\n");
	h = strlen(big);
	memset(big + h, 'a', n);
	big[h + n] = '\0';
	strcat(big, "\nend\n");
	/* Read in pieces, not an error: 8bit bodies may hold such lines. */
	m = readall(big, 1000, &g);
	assert_int_equal(g.nerr, 0);
	assert_int_equal(g.len, n + 1 + 4);
	kl_mime_free(m);
	free(big);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_sniff),
		cmocka_unit_test(t_multipart),
		cmocka_unit_test(t_mbox),
		cmocka_unit_test(t_cut),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
