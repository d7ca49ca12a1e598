/* arch.c - placeholder until its owner lands it. */
#include "config.h"
#include "kleak.h"
#include "kleak-int.h"
const struct kl_arch *kl_arch_get(enum kl_arch_id id) { (void)id; return NULL; }
const struct kl_arch *kl_arch_byname(const char *s) { (void)s; return NULL; }
const char *kl_arch_name(enum kl_arch_id id) { (void)id; return "unknown"; }
int kl_arch_layout(enum kl_arch_id id, uint64_t po, struct kl_layout *l, struct kl_error *e) { (void)id;(void)po;(void)e; l->n = 0; l->arch = NULL; return 0; }
void kl_arch_lookup(const struct kl_layout *l, uint64_t v, struct kl_region_hit *h) { (void)l;(void)v; h->region = KL_REGION_NONE; h->reason = KL_SUP_NOT_KERNEL; h->row = NULL; h->flags = 0; h->severity = KL_SEV_NONE; h->arch = KL_ARCH_UNKNOWN; }
const char *kl_region_name(enum kl_region r) { (void)r; return "none"; }
const char *kl_severity_name(enum kl_severity s) { (void)s; return "none"; }
const char *kl_confidence_name(enum kl_confidence c) { (void)c; return "low"; }
