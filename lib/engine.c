/*
 * engine.c - what every scanner shares: frozen options and the PCRE2
 * reference pattern, compiled and JIT-compiled once before any thread
 * starts.  Scanners get their own match data (kl_engine_mdata).
 */
#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

/*
 * The reference definition of a candidate: a maximal hex run of 8 or 16
 * digits, optionally after a bounded 0x/0X, bounded by non-alphanumeric
 * bytes or by rsyslog's escape of a control byte ("#012" newline, "#011"
 * tab, "#015" carriage return) glued to its front.  Group 1 is the
 * optional prefix, group 2 the digits.
 */
static const char cand_pattern[] =
    "(?:(?<![0-9A-Za-z])|(?<=#01[125]))(?:(0[xX])(?=[0-9A-Fa-f]))?"
    "([0-9A-Fa-f]{16}|[0-9A-Fa-f]{8})(?![0-9A-Za-z])";

struct kl_engine {
	struct kl_options	 opt;
	pcre2_code		*re;
	int			 jit;
};

/* Compile the reference pattern; returns NULL and fills err on failure. */
struct kl_engine *
kl_engine_new(const struct kl_options *opt, struct kl_error *err)
{
	struct kl_engine *e;
	PCRE2_UCHAR msg[128];
	PCRE2_SIZE erroff;
	int rc;

	if ((e = calloc(1, sizeof(*e))) == NULL) {
		kl_error_set(err, KL_ENOMEM, 0, "out of memory");
		return (NULL);
	}
	e->opt = *opt;
	if (opt->page_offset != 0) {
		struct kl_layout l;

		/* Reject a bad --page-offset now, not silently per input. */
		if (kl_arch_layout(opt->arch == KL_ARCH_AUTO ? KL_ARCH_I386 :
		    opt->arch, opt->page_offset, &l, err) == -1) {
			free(e);
			return (NULL);
		}
	}
	if (e->opt.window == 0)
		e->opt.window = 1024 * 1024;
	if (e->opt.window < 64)
		e->opt.window = 64;
	e->re = pcre2_compile((PCRE2_SPTR)cand_pattern, PCRE2_ZERO_TERMINATED,
	    0, &rc, &erroff, NULL);
	if (e->re == NULL) {
		pcre2_get_error_message(rc, msg, sizeof(msg));
		kl_error_set(err, KL_EPCRE, 0, "pcre2: %s at %zu", (char *)msg,
		    (size_t)erroff);
		free(e);
		return (NULL);
	}
	/*
	 * JIT may be refused (no executable memory): fall back quietly.
	 * KLEAKSCAN_NO_JIT=1 (a test hook) interprets, for valgrind, which
	 * cannot follow the JIT's code.
	 */
	e->jit = getenv("KLEAKSCAN_NO_JIT") == NULL &&
	    pcre2_jit_compile(e->re, PCRE2_JIT_COMPLETE) == 0;
	return (e);
}

/* Free an engine (after every scanner using it is gone). */
void
kl_engine_free(struct kl_engine *e)
{
	if (e == NULL)
		return;
	pcre2_code_free(e->re);
	free(e);
}

/* The options the engine was made with. */
const struct kl_options *
kl_engine_options(const struct kl_engine *e)
{
	return (&e->opt);
}

/* Is the reference pattern JIT-compiled? */
int
kl_engine_jit(const struct kl_engine *e)
{
	return (e != NULL && e->jit);
}

/* The PCRE2 library version, written to buf. */
const char *
kl_engine_pcre2_version(char *buf, size_t sz)
{
	if (sz == 0)
		return (buf);
	if (pcre2_config(PCRE2_CONFIG_VERSION, NULL) > (int)sz) {
		buf[0] = '\0';
		return (buf);
	}
	pcre2_config(PCRE2_CONFIG_VERSION, buf);
	return (buf);
}

/* Match data for one scanner (one thread). */
void *
kl_engine_mdata(const struct kl_engine *e)
{
	return (pcre2_match_data_create_from_pattern(e->re, NULL));
}

/* Free match data from kl_engine_mdata. */
void
kl_engine_mdata_free(void *md)
{
	pcre2_match_data_free(md);
}

/*
 * The reference finder: same contract as kl_cand_fast().  Lookbehind
 * sees bytes before from, as the fast finder does.
 */
size_t
kl_cand_pcre2(const struct kl_engine *e, void *mdv, const uint8_t *buf,
    size_t len, size_t from, unsigned widths, struct kl_token *out,
    size_t max, size_t *next)
{
	pcre2_match_data *md = mdv;
	PCRE2_SIZE *ov;
	size_t n = 0, s, dl;
	int rc;

	while (from < len) {
		rc = pcre2_match(e->re, buf, len, from, 0, md, NULL);
		if (rc < 0)
			break;
		ov = pcre2_get_ovector_pointer(md);
		s = ov[4];
		dl = ov[5] - ov[4];
		if ((dl == 16 && (widths & 2)) || (dl == 8 && (widths & 1))) {
			if (n == max) {
				*next = ov[0];
				return (n);
			}
			out[n].start = s;
			out[n].len = dl;
			out[n].prefix = ov[2] != PCRE2_UNSET;
			(void)kl_hexval(buf + s, dl, &out[n].value);
			n++;
		}
		from = ov[1];
	}
	*next = len;
	return (n);
}
