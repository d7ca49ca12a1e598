/* engine.c - placeholder until its owner lands it. */
#include "config.h"
#include "kleak.h"
#include "kleak-int.h"
struct kl_engine *kl_engine_new(const struct kl_options *o, struct kl_error *e) { (void)o;(void)e; return NULL; }
void kl_engine_free(struct kl_engine *e) { (void)e; }
const char *kl_engine_pcre2_version(char *b, size_t n) { (void)n; return b; }
int kl_engine_jit(const struct kl_engine *e) { (void)e; return 0; }
