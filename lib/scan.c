/* scan.c - placeholder until its owner lands it. */
#include "config.h"
#include "kleak.h"
#include "kleak-int.h"
struct kl_scan *kl_scan_new(const struct kl_engine *e, const struct kl_sink *s, struct kl_error *err) { (void)e;(void)s;(void)err; return NULL; }
int kl_scan_feed(struct kl_scan *s, const void *b, size_t l, struct kl_error *e) { (void)s;(void)b;(void)l;(void)e; return 0; }
int kl_scan_end(struct kl_scan *s, struct kl_error *e) { (void)s;(void)e; return 0; }
void kl_scan_reset(struct kl_scan *s) { (void)s; }
const struct kl_stats *kl_scan_stats(const struct kl_scan *s) { (void)s; return NULL; }
void kl_scan_free(struct kl_scan *s) { (void)s; }
