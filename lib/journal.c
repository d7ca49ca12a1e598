/* journal.c - placeholder until its owner lands it. */
#include "config.h"
#include "kleak.h"
struct kl_journal *kl_journal_new(enum kl_unit_kind k, const struct kl_journal_ops *o, struct kl_error *e) { (void)k;(void)o; kl_error_set(e, KL_EINVAL, 0, "not yet"); return NULL; }
int kl_journal_feed(struct kl_journal *j, const void *b, size_t n, struct kl_error *e) { (void)j;(void)b;(void)n;(void)e; return -1; }
int kl_journal_end(struct kl_journal *j, struct kl_error *e) { (void)j;(void)e; return -1; }
void kl_journal_free(struct kl_journal *j) { (void)j; }
