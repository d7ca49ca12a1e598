/*
 * error.c - struct kl_error helpers.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kleak.h"

/* Fill err with a code, an errno value and a formatted message. */
void
kl_error_set(struct kl_error *err, enum kl_errcode code, int errnum,
    const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return;
	err->code = code;
	err->errnum = errnum;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

/* Reset err to "no error". */
void
kl_error_clear(struct kl_error *err)
{
	if (err == NULL)
		return;
	memset(err, 0, sizeof(*err));
}
