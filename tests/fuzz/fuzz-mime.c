/*
 * fuzz-mime.c - libFuzzer harness for the mail reader (lib/mime.c).
 *
 * The input is read as a mail container (an mbox when kl_mime_sniff()
 * says so, else one message), fed in pieces whose size the first byte
 * chooses.  Invariants: every decoded byte given to the text callback
 * is placed inside the input; a byte placed as itself (KL_MIME_LIT) is
 * that byte of the input, but for a line end; begin and end alternate;
 * writing a digit back (kl_mime_put) keeps the size of a copy of the
 * input.  A broken invariant aborts.
 *
 * Seeds (corpus/mime/): small hand-written mails (quoted-printable soft
 * breaks, base64, nested multipart, an mbox with >From lines) and a
 * linux-mips mail of ../shared/corpus/mail.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The state of one run. */
struct fz {
	struct kl_mime	*m;
	const uint8_t	*in;
	size_t		 n;
	uint8_t		*copy;
	uint64_t	 dec;		/* decoded bytes of the message */
	int		 open;
};

/* Abort unless c holds. */
static void
check(int c)
{
	if (!c)
		abort();
}

/* A message begins. */
static int
on_begin(void *arg, const struct kl_mime_msg *msg)
{
	struct fz *z = arg;

	check(!z->open);
	check(msg->offset <= z->n);
	check(msg->id == NULL || strlen(msg->id) <= KL_MIME_ID_MAX);
	z->open = 1;
	z->dec = 0;
	return (0);
}

/* Decoded text: every byte placed in the input. */
static int
on_text(void *arg, const uint8_t *p, size_t n)
{
	struct fz *z = arg;
	struct kl_mime_pos pos;
	size_t i;

	check(z->open);
	for (i = 0; i < n; i++) {
		check(kl_mime_place(z->m, z->dec + i, &pos) == 0);
		check(pos.offset < z->n || (pos.offset == z->n &&
		    p[i] == '\n'));
		check(pos.line >= 1 && pos.column >= 1);
		if (pos.kind == KL_MIME_LIT && p[i] != '\n')
			check(z->in[pos.offset] == p[i]);
		if (p[i] >= '0' && p[i] <= '9' && pos.offset < z->n)
			(void)kl_mime_put(z->m, z->dec + i, '0', z->copy, 0,
			    z->n);
	}
	z->dec += n;
	return (0);
}

/* A message ends. */
static int
on_end(void *arg, const struct kl_mime_msg *msg)
{
	struct fz *z = arg;

	(void)msg;
	check(z->open);
	z->open = 0;
	return (0);
}

/* Damage: it names a line. */
static int
on_error(void *arg, const struct kl_error *err)
{
	(void)arg;
	check(err->line >= 1 && err->msg[0] != '\0');
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kl_mime_ops ops;
	struct kl_error err;
	struct fz z;
	enum kl_mime_box box;
	size_t step, i, k;

	if (size < 1)
		return (0);
	step = (size_t)data[0] % 61 + 1;
	data++;
	size--;
	memset(&z, 0, sizeof(z));
	z.in = data;
	z.n = size;
	z.copy = malloc(size > 0 ? size : 1);
	check(z.copy != NULL);
	if (size > 0)
		memcpy(z.copy, data, size);
	memset(&ops, 0, sizeof(ops));
	ops.arg = &z;
	ops.begin = on_begin;
	ops.text = on_text;
	ops.end = on_end;
	ops.error = on_error;
	box = kl_mime_sniff(data, size);
	memset(&err, 0, sizeof(err));
	z.m = kl_mime_new(box == KL_MIME_NONE ? KL_MIME_MESSAGE : box, &ops,
	    &err);
	check(z.m != NULL);
	for (i = 0; i < size; i += k) {
		k = size - i < step ? size - i : step;
		check(kl_mime_feed(z.m, data + i, k, &err) == 0);
	}
	check(kl_mime_end(z.m, &err) == 0);
	check(!z.open);
	kl_mime_free(z.m);
	free(z.copy);
	return (0);
}
