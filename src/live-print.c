/*
 * live-print.c - what a live run prints after its findings: the
 * --squash-by-* rows, the verdict section (the system's facts and what
 * they let users read) and the counts of the walk, as text or JSON Lines.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kleakscan.h"
#include "live.h"

/*
 * Print s as a JSON string, or null, as print-json.c prints strings:
 * through kl_esc_json(), bytes that are not UTF-8 text-escaped first.
 */
static void
json_s(const char *s)
{
	static struct buf	 text, esc;
	const char		*p = s;
	size_t			 n, k;

	if (s == NULL) {
		fputs("null", stdout);
		return;
	}
	n = strlen(s);
	if (!kl_utf8_valid((const uint8_t *)s, n)) {
		p = print_text_esc(&text, s, n);
		n = text.len;
	}
	k = kl_esc_json(NULL, 0, (const uint8_t *)p, n);
	buf_reserve(&esc, k + 1);
	(void)kl_esc_json(esc.p, esc.size, (const uint8_t *)p, n);
	printf("\"%s\"", esc.p);
}

/* One line of the verdict section: a fact and what it lets users read. */
static void
verdict_row(struct live *lv, int *first, const char *key, const char *val,
    const char *what)
{
	if (lv->cli->json) {
		printf("%s", *first ? "" : ",");
		json_s(key);
		printf(":{\"value\":");
		json_s(val);
		printf(",\"unprivileged\":");
		json_s(what);
		putchar('}');
	} else
		printf("live: %s=%s: %s\n", key, val, what);
	*first = 0;
}

/* The verdict section: the system's facts and what they let users read. */
void
live_print_verdict(struct live *lv)
{
	const struct facts	*fx = &lv->fx;
	char			 v[128], w[384];
	uint64_t		 base;
	int			 first = 1;

	if (lv->cli->json) {
		printf("{\"type\":\"live\",\"system\":");
		json_s(lv->root != NULL ? lv->root : "running");
		printf(",\"arch\":");
		json_s(fx->arch != KL_ARCH_AUTO ? kl_arch_name(fx->arch) :
		    NULL);
		printf(",\"machine\":");
		json_s(fx->machine[0] != '\0' ? fx->machine : NULL);
		printf(",\"release\":");
		json_s(fx->release[0] != '\0' ? fx->release : NULL);
		printf(",\"virtual_bits\":");
		if (fx->vbits > 0)
			printf("%d", fx->vbits);
		else
			fputs("null", stdout);
		printf(",\"paging\":");
		json_s(strcmp(fx->machine, "x86_64") != 0 || fx->la57 < 0 ?
		    NULL : fx->la57 ? "5-level" : "4-level");
		printf(",\"text_base\":");
		if (fx->have_text)
			printf("\"0x%" PRIx64 "\"", fx->text);
		else
			fputs("null", stdout);
		printf(",\"page_offset\":");
		if (fx->page_offset != 0)
			printf("\"0x%" PRIx64 "\"", fx->page_offset);
		else
			fputs("null", stdout);
		printf(",\"facts\":{");
	} else {
		printf("live: system %s, %s (%s), release %s",
		    lv->root != NULL ? "captured" : "running",
		    fx->machine[0] != '\0' ? fx->machine : "unknown",
		    fx->arch != KL_ARCH_AUTO ? kl_arch_name(fx->arch) :
		    "profile unknown",
		    fx->release[0] != '\0' ? fx->release : "unknown");
		if (fx->vbits > 0)
			printf(", %d-bit virtual addresses", fx->vbits);
		if (strcmp(fx->machine, "x86_64") == 0 && fx->la57 >= 0)
			printf(", %s paging", fx->la57 ? "5-level" :
			    "4-level");
		if (fx->page_offset != 0)
			printf(", PAGE_OFFSET 0x%" PRIx64, fx->page_offset);
		if (fx->have_text)
			printf(", text base 0x%" PRIx64 " (kallsyms %s)",
			    fx->text, fx->text_stext ? "_stext" : "_text");
		putchar('\n');
	}
	snprintf(v, sizeof(v), "%d", fx->kptr_restrict);
	verdict_row(lv, &first, "kptr_restrict", fx->kptr_restrict < 0 ?
	    "unknown" : v, fx->kptr_restrict < 0 ? "unknown" :
	    fx->kptr_restrict == 0 ? "%pK prints addresses to every reader "
	    "(kallsyms and modules: see perf_event_paranoid)" :
	    fx->kptr_restrict == 1 ? "%pK prints addresses only to readers "
	    "with CAP_SYSLOG; others see zeros" :
	    "%pK prints zeros to everyone, root too");
	snprintf(v, sizeof(v), "%d", fx->dmesg_restrict);
	verdict_row(lv, &first, "dmesg_restrict", fx->dmesg_restrict < 0 ?
	    "unknown" : v, fx->dmesg_restrict < 0 ? "unknown" :
	    fx->dmesg_restrict == 0 ? "every user reads the kernel log" :
	    "reading the kernel log needs CAP_SYSLOG");
	snprintf(v, sizeof(v), "%d", fx->perf_event_paranoid);
	verdict_row(lv, &first, "perf_event_paranoid", !fx->have_perf ?
	    "unknown" : v, !fx->have_perf ? "unknown" :
	    fx->perf_event_paranoid <= 1 ? (fx->kptr_restrict == 0 ?
	    "perf samples kernel addresses, and with kptr_restrict=0 "
	    "kallsyms and modules show addresses to every user" :
	    "perf samples kernel addresses") :
	    fx->perf_event_paranoid == 2 ? "perf measures user space only; "
	    "kallsyms and modules show addresses only with CAP_SYSLOG" :
	    "perf is closed to unprivileged users");
	verdict_row(lv, &first, "no_hash_pointers", fx->no_hash_pointers < 0 ?
	    "unknown" : fx->no_hash_pointers ? "on" : "off",
	    fx->no_hash_pointers < 0 ? "unknown" : fx->no_hash_pointers ?
	    "%p prints raw addresses everywhere" :
	    "%p prints hashed values");
	verdict_row(lv, &first, "lockdown", fx->lockdown[0] != '\0' ?
	    fx->lockdown : "unavailable",
	    strcmp(fx->lockdown, "confidentiality") == 0 ? "kernel memory "
	    "reads (kcore, BPF, perf) are refused, root too" :
	    strcmp(fx->lockdown, "integrity") == 0 ? "the running kernel "
	    "cannot be changed; reads are not restricted" :
	    "no restriction of reads");
	if (lv->root == NULL)
		verdict_row(lv, &first, "kernel_log", lv->klog < 0 ?
		    "unread" : lv->klog ? "klogctl" : "/dev/kmsg",
		    lv->klog < 0 ? "neither /dev/kmsg nor klogctl(2) could "
		    "be read" : lv->klog ?
		    "/dev/kmsg could not be opened: the ring read by "
		    "klogctl(2)" : "the ring read from its start");
	/* The slide, when kallsyms gives _text and a base is known. */
	if (facts_slide_base(fx, &base) == 0 && fx->text >= base) {
		snprintf(v, sizeof(v), "0x%" PRIx64, fx->text - base);
		snprintf(w, sizeof(w), "from kallsyms %s and %s; %s%s",
		    fx->text_stext ? "_stext" : "_text",
		    fx->have_map_text ? "the map" : "the default base",
		    !fx->kallsyms_known ? "who can read kallsyms: unknown" :
		    fx->kallsyms_everyone ? "every user reads it" :
		    "only privileged readers see it",
		    fx->have_map_text && fx->text == base ? "; kallsyms "
		    "holds the map's own addresses (KASLR off, or "
		    "--redact-style=deslide): nothing beyond the public map" :
		    "");
		verdict_row(lv, &first, "slide", v, w);
		if (fx->have_map_text)
			verdict_row(lv, &first, "map", fx->map,
			    "System.map used for the slide");
	} else
		verdict_row(lv, &first, "slide", "unknown", fx->have_text &&
		    fx->text_stext ? "kallsyms has _stext only, and no map "
		    "gives its link-time address" : fx->have_text ?
		    "no map, and no default base for this architecture" :
		    fx->have_syms ?
		    "kallsyms has no _text" : lv->root != NULL ? "the capture "
		    "holds no kallsyms with addresses" : "kallsyms shows no "
		    "addresses to this reader");
	if (lv->cli->json)
		printf("}}\n");
}

/* The counts of the walk: what was read, skipped, not read. */
void
live_print_counts(struct live *lv)
{
	static const char *const names[] = {
		"files", "dirs", "scanned", "binary", "raw_hits", "skipped",
		"symlinks", "outside_root", "unreadable", "vanished", "eio",
		"timeouts", "cut", "notes", "leaks_everyone",
		"leaks_privileged", "leaks_unknown",
	};
	uint64_t	vals[17];
	size_t		i;

	vals[0] = lv->files;
	vals[1] = lv->dirs;
	vals[2] = lv->scanned;
	vals[3] = lv->binary;
	vals[4] = lv->rawhits;
	vals[5] = lv->skipped;
	vals[6] = lv->symlinks;
	vals[7] = lv->outside;
	vals[8] = lv->unreadable;
	vals[9] = lv->vanished;
	vals[10] = lv->eio;
	vals[11] = lv->timeouts;
	vals[12] = lv->cut;
	vals[13] = lv->notes;
	vals[14] = lv->everyone;
	vals[15] = lv->privileged;
	vals[16] = lv->unknown;
	if (lv->cli->json) {
		printf("{\"type\":\"live_summary\",\"user\":");
		json_s(lv->root != NULL ? NULL : lv->user);
		printf(",\"complete\":%s", lv->stopped ? "false" : "true");
		for (i = 0; i < 17; i++)
			printf(",\"%s\":%" PRIu64, names[i], vals[i]);
		printf("}\n");
		return;
	}
	printf("live: %s", lv->stopped ? "stopped at --live-timeout" :
	    "complete");
	for (i = 0; i < 17; i++)
		printf(", %s %" PRIu64, names[i], vals[i]);
	putchar('\n');
}

/* Order squash rows by count, then key. */
static int
sqcmp(const void *a, const void *b)
{
	const struct squash	*x = a, *y = b;

	if (x->count != y->count)
		return (x->count > y->count ? -1 : 1);
	return (strcmp(x->key, y->key));
}

/* The --squash-by-* view, as leaking_addresses.pl prints it. */
void
live_print_squash(struct live *lv)
{
	const char	*by;
	size_t		 i;

	if (lv->cli == NULL ||
	    (!lv->cli->squash_by_path && !lv->cli->squash_by_filename))
		return;
	by = lv->cli->squash_by_filename ? "filename" : "path";
	if (lv->nsq > 1)
		qsort(lv->sq, lv->nsq, sizeof(*lv->sq), sqcmp);
	for (i = 0; i < lv->nsq; i++) {
		if (lv->cli->json) {
			printf("{\"type\":\"squash\",\"by\":\"%s\",\"key\":",
			    by);
			json_s(lv->sq[i].key);
			printf(",\"count\":%" PRIu64 ",\"example\":",
			    lv->sq[i].count);
			json_s(lv->sq[i].example);
			printf("}\n");
		} else {
			printf("[%" PRIu64 " %s] ", lv->sq[i].count,
			    print_name_esc(&lv->esc, lv->sq[i].key,
			    strlen(lv->sq[i].key), 0));
			printf("%s\n", print_text_esc(&lv->esc,
			    lv->sq[i].example, lv->sq[i].exlen));
		}
		free(lv->sq[i].key);
		free(lv->sq[i].example);
	}
	free(lv->sq);
	lv->sq = NULL;
	lv->nsq = 0;
}
