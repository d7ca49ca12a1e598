/* candidate.c - placeholder until its owner lands it. */
#include "config.h"
#include "kleak.h"
#include "kleak-int.h"
const uint8_t kl_ctype[256];
size_t kl_cand_fast(const uint8_t *b, size_t l, size_t f, size_t t, unsigned w, struct kl_token *o, size_t m, size_t *n) { (void)b;(void)l;(void)f;(void)w;(void)o;(void)m; *n = t; return 0; }
int kl_hexval(const uint8_t *b, size_t l, uint64_t *v) { (void)b;(void)l; *v = 0; return 0; }
const uint8_t *kl_memmem(const uint8_t *h, size_t hl, const char *n, size_t nl) { (void)h;(void)hl;(void)n;(void)nl; return NULL; }
