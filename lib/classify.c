/* classify.c - placeholder until its owner lands it. */
#include "config.h"
#include "kleak.h"
#include "kleak-int.h"
void kl_classify(const struct kl_layout *l, const struct kl_anchors *a, const struct kl_ctx *c, uint64_t v, struct kl_verdict *out) { struct kl_region_hit h; (void)a;(void)c; kl_arch_lookup(l, v, &h); *out = (struct kl_verdict){0}; out->region = h.region; out->severity = h.severity; out->suppressed = h.region == KL_REGION_NONE ? h.reason : KL_SUP_NONE; out->rule = "raw-value"; }
void kl_anchors_add(struct kl_anchors *a, enum kl_region r, uint64_t v) { (void)a;(void)r;(void)v; }
const char *kl_suppress_name(enum kl_suppress s) { (void)s; return "none"; }
