/*
 * test-error.c - struct kl_error helpers.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "kleak.h"

/* kl_error_set formats the message and keeps code and errno. */
static void
t_set(void **state)
{
	struct kl_error e;

	(void)state;
	memset(&e, 0xff, sizeof(e));
	kl_error_clear(&e);
	assert_int_equal(e.code, KL_EOK);
	assert_int_equal(e.errnum, 0);
	assert_true(e.line == 0);
	assert_string_equal(e.msg, "");
	kl_error_set(&e, KL_ELIMIT, 28, "member %s over %d bytes", "a", 10);
	assert_int_equal(e.code, KL_ELIMIT);
	assert_int_equal(e.errnum, 28);
	assert_string_equal(e.msg, "member a over 10 bytes");
}

/* A long message is cut, NUL-terminated, never overflowing. */
static void
t_truncate(void **state)
{
	struct kl_error e;
	char big[1000];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	kl_error_set(&e, KL_EFORMAT, 0, "%s", big);
	assert_int_equal(strlen(e.msg), sizeof(e.msg) - 1);
}

/* NULL is accepted and ignored. */
static void
t_null(void **state)
{
	(void)state;
	kl_error_set(NULL, KL_EIO, 5, "ignored");
	kl_error_clear(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_set),
		cmocka_unit_test(t_truncate),
		cmocka_unit_test(t_null),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
