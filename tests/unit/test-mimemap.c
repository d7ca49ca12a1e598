/*
 * test-mimemap.c - the map from decoded bytes back to stored ones
 * (lib/mimemap.c): where a quoted-printable or base64 byte is stored,
 * and writing a token back in its encoding.
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

static const char qp[] =
    "Subject: oops\n"
    "Message-ID: <qp@x>\n"
    "Content-Transfer-Encoding: quoted-printable\n"
    "\n"
    "NIP: =C2=A0c0000000012=\n"
    "34567 a=3Db\n";

/* QP: a soft break joins a token; every byte maps to its stored place. */
static void
t_qp(void **state)
{
	struct got g;
	struct kl_mime *m;
	struct kl_mime_pos pos;
	uint8_t buf[sizeof(qp)];
	const char *tok;
	uint64_t d, base;

	(void)state;
	m = readall(qp, 0, &g);
	assert_string_equal(g.text, "NIP: \xc2\xa0" "c000000001234567 a=b\n");
	assert_int_equal(g.begins, 1);
	assert_string_equal(g.ids[0], "qp@x");
	assert_int_equal(g.lines[0], 1);
	assert_int_equal(g.nerr, 0);
	tok = strstr(g.text, "c0000");
	d = (uint64_t)(tok - g.text);
	/* 'c' is on line 5, column 12; '3' after the soft break: 6:1. */
	assert_int_equal(kl_mime_place(m, d, &pos), 0);
	assert_int_equal(pos.line, 5);
	assert_int_equal(pos.column, 12);
	assert_int_equal(pos.kind, KL_MIME_LIT);
	assert_int_equal(pos.offset, (uint64_t)(strstr(qp, "c0000") - qp));
	assert_int_equal(kl_mime_place(m, d + 11, &pos), 0);
	assert_int_equal(pos.line, 6);
	assert_int_equal(pos.column, 1);
	/* The no-break space was "=C2=A0": its bytes map to the escapes. */
	assert_int_equal(kl_mime_place(m, 5, &pos), 0);
	assert_int_equal(pos.kind, KL_MIME_QP);
	assert_int_equal(pos.column, 6);
	/* Zero the token in place: the soft break stays. */
	memcpy(buf, qp, sizeof(qp));
	base = 0;
	for (size_t i = 0; i < 16; i++)
		assert_int_equal(kl_mime_put(m, d + i, '0', buf, base,
		    sizeof(qp) - 1), 0);
	assert_non_null(strstr((char *)buf, "NIP: =C2=A000000000000=\n"
	    "00000 a=3Db\n"));
	/* The '=' of "=3D" is an escape: written back as one. */
	tok = strchr(g.text, '=');
	assert_int_equal(kl_mime_put(m, (uint64_t)(tok - g.text), 'X', buf,
	    base, sizeof(qp) - 1), 0);
	assert_non_null(strstr((char *)buf, "a=58b\n"));
	assert_int_equal(kl_mime_stats(m)->messages, 1);
	assert_int_equal(kl_mime_stats(m)->text, 1);
	kl_mime_free(m);
}

static const char b64[] =
    "Subject: b\n"
    "Message-ID: <b64@x>\n"
    "Content-Type: text/plain; charset=us-ascii\n"
    "Content-Transfer-Encoding: base64\n"
    "\n"
    /* "RIP: ffffffff81000000\nok\n", 20 characters a line */
    "UklQOiBmZmZmZmZmZjgx\n"
    "MDAwMDAwCm9rCg==\n";

/* base64: decoded, placed at its quads, rewritten quad by quad. */
static void
t_base64(void **state)
{
	struct got g, g2;
	struct kl_mime *m, *m2;
	struct kl_mime_pos pos;
	char buf[sizeof(b64)];
	const char *tok;
	uint64_t d;
	size_t i;

	(void)state;
	m = readall(b64, 3, &g);
	assert_string_equal(g.text, "RIP: ffffffff81000000\nok\n");
	assert_int_equal(g.nerr, 0);
	tok = strstr(g.text, "ffff");
	d = (uint64_t)(tok - g.text);
	/* Decoded byte 5 is the 3rd byte of the 2nd quad of line 6. */
	assert_int_equal(kl_mime_place(m, d, &pos), 0);
	assert_int_equal(pos.kind, KL_MIME_B64);
	assert_int_equal(pos.line, 6);
	assert_int_equal(pos.column, 5);
	/* Byte 17 is on line 7 (the 20-character line holds 15). */
	assert_int_equal(kl_mime_place(m, d + 12, &pos), 0);
	assert_int_equal(pos.line, 7);
	assert_int_equal(pos.column, 1);
	memcpy(buf, b64, sizeof(b64));
	for (i = 0; i < 16; i++)
		assert_int_equal(kl_mime_put(m, d + i, '0', (uint8_t *)buf,
		    0, sizeof(b64) - 1), 0);
	assert_int_equal(strlen(buf), sizeof(b64) - 1);
	/* Headers and line lengths unchanged; it decodes to zeros. */
	assert_memory_equal(buf, b64, strstr(b64, "\n\n") - b64 + 2);
	assert_int_equal(strchr(strstr(buf, "\n\n") + 2, '\n') -
	    strstr(buf, "\n\n"), 22);
	m2 = readall(buf, 0, &g2);
	assert_string_equal(g2.text, "RIP: 0000000000000000\nok\n");
	kl_mime_free(m);
	kl_mime_free(m2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_qp),
		cmocka_unit_test(t_base64),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
