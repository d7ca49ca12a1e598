/* input.c - placeholder until its owner lands it. */
#include "config.h"
#include "kleak.h"
int kl_input_fd(int fd, const char *n, const struct kl_limits *l, const struct kl_input_ops *o, struct kl_error *e) { (void)fd;(void)n;(void)l;(void)o; kl_error_set(e, KL_EINVAL, 0, "not yet"); return -1; }
enum kl_unit_kind kl_input_sniff(const uint8_t *b, size_t n) { (void)b;(void)n; return KL_UNIT_TEXT; }
