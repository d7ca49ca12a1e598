/*
 * hex.c - hex digits: their values and runs of them, for the library and
 * the program alike.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "kleak.h"
#include "kleak-int.h"

/* Are the n bytes at p all hex digits? */
int
kl_hex_all(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!kl_isxdigit(p[i]))
			return (0);
	return (1);
}

/* The value of a hex digit, -1 if c is none. */
int
kl_hex_value(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	return (-1);
}
