/*
 * leaks.c - the known leak sources: message shapes that disclose kernel
 * addresses or layout, read from a data file (data/leak-sources, by
 * leaks-parse.c), each compiled once (JIT when allowed), indexed by their
 * keys and matched per thread.
 *
 * Every entry names a literal key its lines must hold.  A matcher looks
 * for all keys in one pass over the message (a table of the rarest
 * byte pair of each key, then a compare), and runs only the patterns
 * of the entries whose key it saw: a line with no leak shape costs one
 * table look-up per byte, and never reaches PCRE2.
 */
#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleak.h"
#include "kleak-int.h"
#include "leaks-int.h"

struct kl_leakmatch {
	const struct kl_leakdb *db;
	pcre2_match_data *md;
	uint64_t	*run;		/* entries to run, one bit each */
	size_t		 words;
};

/*
 * The 256 commonest byte pairs of the text files of ../shared/corpus
 * (boot logs, oops reports, syslogs), commonest first: an anchor pair
 * among them would stop the search on most lines.
 */
static const char common_pairs[] =
	    "00  ff[ 0x] :  00 /0er+0in 1re fte][ 210e 01x1le==2080ed"
	    "aloronatesnestde C R c0]02.0 s tckd oc0.seti T1]lo, ac a"
	    "17co r16110:40en [88 3ntt ce22_s (14 4? ta181303 ?etf812"
	    ".1300415ro ps 5060tr dx2itan b1.liheomlln as236419nd8 ec"
	    "05240870e_mear29ra4890:0ngio4.21 8us8133 iis0726--272]un"
	    ".2ea> 31ad7]8]9]4]geri28093]t_6.em6]casy5]th34icl 2._c82"
	    "36 l 5.31 ch06rt e44328438ctr 7 25el57890/55.566f ss86ve"
	    "35752 to3.41c0439859.742ut.43794 6__5868x37.45468356 n.8"
	    "ab63495.7276 7ma _39ev9.ouot6596 u.6pak_735251pr7154.9bl"
	    "ul538.78";

/*
 * How often a byte shows up in log text, roughly: blanks, framing
 * punctuation and the common letters are everywhere, the rarer letters
 * less, capitals and the rest seldom.  Only the speed of a search
 * depends on it: any pair of a key finds every line holding the key.
 */
static unsigned
byte_freq(uint8_t c)
{
	if (c == ' ')
		return (20);
	/* timestamps, "0x", "key: value" */
	if (c == ':' || c == '[' || c == ']' || c == '0' || c == '.' ||
	    c == 'x')
		return (14);
	if ((c >= '1' && c <= '9') || c == '_' ||
	    (c != '\0' && strchr("etaoinsrhldcu", c) != NULL))
		return (10);
	if (c >= 'a' && c <= 'z')
		return (strchr("vkjqz", c) != NULL ? 4 : 7);
	if (c == '-' || c == '(' || c == ')' || c == ',' || c == '/' ||
	    c == '=' || c == '\t')
		return (6);
	if (c >= 'A' && c <= 'Z')
		return (4);
	return (2);
}

/*
 * What the byte pair a b costs as an anchor: its rank among the common
 * pairs (the commonest costs most), else less than any of them, by how
 * often its bytes show up.
 */
static unsigned
pair_cost(uint8_t a, uint8_t b)
{
	size_t i, n = sizeof(common_pairs) - 1;

	for (i = 0; i + 1 < n; i += 2)
		if ((uint8_t)common_pairs[i] == a &&
		    (uint8_t)common_pairs[i + 1] == b)
			return (1000 + (unsigned)(n - i));
	return (byte_freq(a) * byte_freq(b));
}

/* Order anchor pairs (qsort's comparison). */
static int
cmp_gram(const void *a, const void *b)
{
	const struct kgram *x = a, *y = b;

	if (x->gram != y->gram)
		return (x->gram < y->gram ? -1 : 1);
	return (x->key < y->key ? -1 : x->key > y->key);
}

/* The byte pair at b as one native 16-bit load. */
static inline uint16_t
pair(const uint8_t *b)
{
	uint16_t g;

	memcpy(&g, b, sizeof(g));
	return (g);
}

/* How many bits of the wk words a are set. */
static size_t
popcount_words(const uint64_t *a, size_t wk)
{
	size_t i, n = 0;

	for (i = 0; i < wk; i++)
		n += (size_t)__builtin_popcountll(a[i]);
	return (n);
}

/* How many bits a | b has. */
static size_t
popcount_or(const uint64_t *a, const uint64_t *b, size_t wk)
{
	size_t i, n = 0;

	for (i = 0; i < wk; i++)
		n += (size_t)__builtin_popcountll(a[i] | b[i]);
	return (n);
}

/* How much a first byte counts when groups are merged: how common. */
static size_t
byte_weight(uint8_t c)
{
	if (c == ' ' || c == '\t')
		return (8);
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		return (4);
	if (c >= '0' && c <= '9')
		return (2);
	return (1);
}

/*
 * Line groups: the first byte of a message rules out the anchored
 * entries that cannot start with it, and the keys all of whose entries
 * are ruled out.  Bytes that leave the same keys form a group; while
 * there are more than eight, the two whose merging adds the fewest
 * keys to look for (weighted by byte_weight()) are merged.  A pair is
 * looked at only when it anchors a key of the message's group.  Also
 * the entries each first byte leaves (eallow).
 */
static int
build_groups(struct kl_leakdb *db, struct kl_error *err)
{
	uint64_t *sig = NULL;
	size_t wk = (db->nk + 63) / 64 + 1, i, j, c, a, b, ng = 0;
	size_t gof[256], cnt[256], best, cost, pa, pb, pu;
	struct lkey *k;

	db->words = (db->n + 63) / 64;
	if ((db->eallow = calloc(256 * db->words, sizeof(uint64_t))) ==
	    NULL || (sig = calloc(256 * wk, sizeof(uint64_t))) == NULL) {
		free(sig);
		kl_leaks_nomem(err);
		return (-1);
	}
	for (i = 0; i < db->n; i++)
		for (c = 0; c < 256; c++)
			if (in_set(db->e[i].fb, (uint8_t)c))
				db->eallow[c * db->words + i / 64] |=
				    (uint64_t)1 << (i % 64);
	/* Group g's keys at sig[g * wk]; first one group per byte. */
	for (j = 0; j < db->nk; j++) {
		k = &db->k[j];
		for (i = 0; i < k->nent; i++)
			for (c = 0; c < 4; c++)
				k->fb[c] |= db->e[k->ent[i]].fb[c];
	}
	for (c = 0; c < 256; c++) {
		uint64_t *t = &sig[ng * wk];

		for (j = 0; j < db->nk; j++)
			if (in_set(db->k[j].fb, (uint8_t)c))
				t[j / 64] |= (uint64_t)1 << (j % 64);
		for (a = 0; a < ng; a++)
			if (memcmp(&sig[a * wk], t, wk * sizeof(*t)) == 0)
				break;
		if (a == ng) {
			cnt[ng] = 0;
			ng++;
		} else
			memset(t, 0, wk * sizeof(*t));
		gof[c] = a;
		cnt[a] += byte_weight((uint8_t)c);
	}
	while (ng > 8) {
		best = SIZE_MAX;
		pa = pb = 0;
		for (a = 0; a < ng; a++)
			for (b = a + 1; b < ng; b++) {
				pu = popcount_or(&sig[a * wk], &sig[b * wk],
				    wk);
				cost = (pu - popcount_words(&sig[a * wk], wk)) *
				    cnt[a] + (pu - popcount_words(&sig[b * wk],
				    wk)) * cnt[b];
				if (cost < best) {
					best = cost;
					pa = a;
					pb = b;
				}
			}
		/* b into a; the last group takes b's place. */
		for (i = 0; i < wk; i++)
			sig[pa * wk + i] |= sig[pb * wk + i];
		cnt[pa] += cnt[pb];
		ng--;
		memcpy(&sig[pb * wk], &sig[ng * wk], wk * sizeof(*sig));
		cnt[pb] = cnt[ng];
		for (c = 0; c < 256; c++)
			if (gof[c] == pb)
				gof[c] = pa;
			else if (gof[c] == ng)
				gof[c] = pb;
	}
	for (c = 0; c < 256; c++)
		db->lgroup[c] = (uint8_t)(1u << gof[c]);
	for (a = 0; a < ng; a++)
		for (j = 0; j < db->nk; j++)
			if ((sig[a * wk + j / 64] >> (j % 64)) & 1)
				db->has[db->k[j].gram] |= (uint8_t)(1u << a);
	free(sig);
	return (0);
}

/* Build the key table and the pair table. */
static int
build_keys(struct kl_leakdb *db, struct kl_error *err)
{
	struct lkey *k;
	size_t i, j, p;
	unsigned best, f;

	if ((db->k = calloc(db->n, sizeof(*db->k))) == NULL ||
	    (db->byg = calloc(db->n, sizeof(*db->byg))) == NULL) {
		kl_leaks_nomem(err);
		return (-1);
	}
	db->minkey = SIZE_MAX;
	for (i = 0; i < db->n; i++) {
		const char *s = db->e[i].pub.key;

		for (j = 0; j < db->nk; j++)
			if (strcmp(db->k[j].s, s) == 0)
				break;
		k = &db->k[j];
		if (j == db->nk) {
			db->nk++;
			k->s = s;
			k->len = strlen(s);
			best = UINT32_MAX;
			for (p = 0; p + 1 < k->len; p++) {
				f = pair_cost((uint8_t)s[p],
				    (uint8_t)s[p + 1]);
				if (f < best) {
					best = f;
					k->at = p;
				}
			}
			k->gram = pair((const uint8_t *)s + k->at);
			if (k->len < db->minkey)
				db->minkey = k->len;
			if ((k->ent = calloc(db->n, sizeof(*k->ent))) == NULL) {
				kl_leaks_nomem(err);
				return (-1);
			}
		}
		k->ent[k->nent++] = i;
	}
	for (j = 0; j < db->nk; j++) {
		db->byg[j].gram = db->k[j].gram;
		db->byg[j].key = j;
	}
	qsort(db->byg, db->nk, sizeof(*db->byg), cmp_gram);
	for (j = db->nk; j > 0; j--)
		db->first[db->byg[j - 1].gram] = (uint16_t)j;
	return (build_groups(db, err));
}

/* Free a database. */
void
kl_leakdb_free(struct kl_leakdb *db)
{
	size_t i, j;

	if (db == NULL)
		return;
	for (i = 0; i < db->n; i++) {
		struct lentry *le = &db->e[i];

		free((char *)le->pub.id);
		free((char *)le->pub.key);
		free((char *)le->pub.pattern);
		free((char *)le->pub.explain);
		if (le->pub.fixed != NULL)
			free((char *)le->pub.fixed);
		for (j = 0; j < le->ngroups; j++)
			free(le->g[j].name);
		pcre2_code_free(le->re);
	}
	if (db->k != NULL)
		for (i = 0; i < db->nk; i++)
			free(db->k[i].ent);
	free(db->k);
	free(db->byg);
	free(db->eallow);
	free(db->e);
	pcre2_match_context_free(db->mctx);
	free(db);
}

/*
 * Parse and compile a leak-sources file held in memory; name is used in
 * error messages ("name:line: what").
 */
struct kl_leakdb *
kl_leakdb_load_mem(const void *buf, size_t len, const char *name,
    struct kl_error *err)
{
	struct kl_leakdb *db;
	size_t i;

	if (name == NULL)
		name = "leak-sources";
	if (len > LEAKDB_FILE_MAX) {
		kl_leaks_seterr(err, name, 0, "larger than %u bytes",
		    LEAKDB_FILE_MAX);
		return (NULL);
	}
	if ((db = calloc(1, sizeof(*db))) == NULL ||
	    (db->e = calloc(LEAKDB_MAX, sizeof(*db->e))) == NULL) {
		free(db);
		kl_leaks_nomem(err);
		return (NULL);
	}
	if (kl_leaks_parse(db, buf, len, name, err) == -1 ||
	    build_keys(db, err) == -1) {
		kl_leakdb_free(db);
		return (NULL);
	}
	if ((db->mctx = pcre2_match_context_create(NULL)) == NULL) {
		kl_leakdb_free(db);
		kl_leaks_nomem(err);
		return (NULL);
	}
	(void)pcre2_set_match_limit(db->mctx, MATCH_LIMIT);
	(void)pcre2_set_depth_limit(db->mctx, DEPTH_LIMIT);
	db->jit = 1;
	for (i = 0; i < db->n; i++)
		if (!db->e[i].jit)
			db->jit = 0;
	return (db);
}

/*
 * Load a leak-sources file; NULL loads the installed one
 * (PKGDATADIR/leak-sources).
 */
struct kl_leakdb *
kl_leakdb_load(const char *path, struct kl_error *err)
{
	struct kl_leakdb *db;
	struct stat sb;
	uint8_t *buf;
	size_t len = 0;
	ssize_t r;
	int fd;

	if (path == NULL)
		path = PKGDATADIR "/leak-sources";
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		kl_error_clear(err);
		kl_error_set(err, KL_EIO, errno, "%s: %s", path,
		    strerror(errno));
		return (NULL);
	}
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    sb.st_size > (off_t)LEAKDB_FILE_MAX) {
		kl_error_clear(err);
		if (sb.st_size > (off_t)LEAKDB_FILE_MAX)
			kl_error_set(err, KL_ELIMIT, 0, "%s: larger than "
			    "%u bytes", path, LEAKDB_FILE_MAX);
		else
			kl_error_set(err, KL_EIO, errno, "%s: not a regular "
			    "file", path);
		close(fd);
		return (NULL);
	}
	if ((buf = malloc((size_t)sb.st_size + 1)) == NULL) {
		close(fd);
		kl_leaks_nomem(err);
		return (NULL);
	}
	/* read what is there, up to one byte past the size fstat gave */
	while (len <= (size_t)sb.st_size) {
		r = read(fd, buf + len, (size_t)sb.st_size + 1 - len);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			kl_error_clear(err);
			kl_error_set(err, KL_EIO, errno, "%s: %s", path,
			    strerror(errno));
			free(buf);
			close(fd);
			return (NULL);
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (len > (size_t)sb.st_size) {
		kl_error_clear(err);
		kl_error_set(err, KL_EIO, 0, "%s: changed while read", path);
		free(buf);
		return (NULL);
	}
	db = kl_leakdb_load_mem(buf, len, path, err);
	free(buf);
	return (db);
}

/* Number of entries. */
size_t
kl_leakdb_count(const struct kl_leakdb *db)
{
	return (db == NULL ? 0 : db->n);
}

/* Entry i, in file order; NULL past the end. */
const struct kl_leak_entry *
kl_leakdb_entry(const struct kl_leakdb *db, size_t i)
{
	return (db == NULL || i >= db->n ? NULL : &db->e[i].pub);
}

/*
 * Can a message starting with byte c match entry i (the first-byte
 * filter of kl_leak_match(), for tests)?  1 or 0.
 */
int
kl_leakdb_first_ok(const struct kl_leakdb *db, size_t i, uint8_t c)
{
	return (db != NULL && i < db->n && in_set(db->e[i].fb, c));
}

/* Are all patterns JIT-compiled? */
int
kl_leakdb_jit(const struct kl_leakdb *db)
{
	return (db != NULL && db->jit);
}

/* A matcher for one thread. */
struct kl_leakmatch *
kl_leakmatch_new(const struct kl_leakdb *db)
{
	struct kl_leakmatch *m;

	if ((m = calloc(1, sizeof(*m))) == NULL)
		return (NULL);
	m->db = db;
	m->words = (db->n + 63) / 64;
	if ((m->run = calloc(m->words, sizeof(*m->run))) == NULL ||
	    (m->md = pcre2_match_data_create(db->maxcap + 1, NULL)) == NULL) {
		kl_leakmatch_free(m);
		return (NULL);
	}
	return (m);
}

/* Free a matcher. */
void
kl_leakmatch_free(struct kl_leakmatch *m)
{
	if (m == NULL)
		return;
	pcre2_match_data_free(m->md);
	free(m->run);
	free(m);
}

/* Read a captured value as its group says. */
static void
read_value(const uint8_t *b, size_t n, enum vkind kind,
    struct kl_leak_value *v)
{
	uint64_t x = 0, mul;
	size_t i = 0;
	int d;

	v->value = 0;
	v->overflow = 1;
	if (kind == VK_HEX) {
		if (n >= 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X'))
			i = 2;
		if (i == n)
			return;
		for (; i < n; i++) {
			if (!kl_isxdigit(b[i]) || (x >> 60) != 0)
				return;
			d = b[i] <= '9' ? b[i] - '0' : (b[i] | 0x20) - 'a' + 10;
			x = x << 4 | (uint64_t)d;
		}
	} else {
		if (n == 0)
			return;
		for (; i < n; i++) {
			if (b[i] < '0' || b[i] > '9' ||
			    x > (UINT64_MAX - 9) / 10)
				return;
			x = x * 10 + (uint64_t)(b[i] - '0');
		}
		mul = kind == VK_KB ? 1024 : kind == VK_MB ? 1048576 : 1;
		if (x > UINT64_MAX / mul)
			return;
		x *= mul;
	}
	v->value = x;
	v->overflow = 0;
}

/* Run entry i on msg; fill h when it matches.  Returns 1 on a match. */
static int
run_entry(struct kl_leakmatch *m, size_t i, const uint8_t *msg, size_t len,
    struct kl_leak_hit *h)
{
	const struct lentry *le = &m->db->e[i];
	PCRE2_SIZE *ov;
	size_t j, s, e;
	int rc;

	if (le->jit)
		rc = pcre2_jit_match(le->re, msg, len, 0, 0, m->md,
		    m->db->mctx);
	else
		rc = pcre2_match(le->re, msg, len, 0, 0, m->md, m->db->mctx);
	if (rc < 0)
		return (0);
	if (h == NULL)
		return (1);
	ov = pcre2_get_ovector_pointer(m->md);
	h->entry = &le->pub;
	h->off = ov[0];
	h->len = ov[1] - ov[0];
	h->nvalues = 0;
	for (j = 0; j < le->ngroups; j++) {
		struct kl_leak_value *v = &h->v[h->nvalues];

		s = ov[2 * le->g[j].num];
		e = ov[2 * le->g[j].num + 1];
		if (s == PCRE2_UNSET || (int)le->g[j].num >= rc)
			continue;
		v->name = le->g[j].name;
		v->off = s;
		v->len = e - s;
		read_value(msg + s, e - s, le->g[j].kind, v);
		h->nvalues++;
	}
	return (1);
}

/*
 * The keys whose anchor pair is at msg[q]: mark the entries of those
 * that are there.  Returns 1 when one is.
 */
static int
check_keys(struct kl_leakmatch *m, size_t q, const uint8_t *msg, size_t len)
{
	const struct kl_leakdb *db = m->db;
	const struct lkey *k;
	uint16_t g = pair(msg + q);
	size_t i, j, start;
	int found = 0;

	for (i = db->first[g] - 1u; i < db->nk && db->byg[i].gram == g; i++) {
		k = &db->k[db->byg[i].key];
		if (q < k->at || !in_set(k->fb, msg[0]))
			continue;
		start = q - k->at;
		if (k->len > len - start || msg[start] != (uint8_t)k->s[0] ||
		    memcmp(msg + start, k->s, k->len) != 0)
			continue;
		for (j = 0; j < k->nent; j++)
			m->run[k->ent[j] / 64] |=
			    (uint64_t)1 << (k->ent[j] % 64);
		found = 1;
	}
	return (found);
}

/*
 * Match one message (a line's message part, without its newline)
 * against every entry.  Fills up to max hits in file order and returns
 * how many entries matched (which may be more than max).
 */
int
kl_leak_match(struct kl_leakmatch *m, const uint8_t *msg, size_t len,
    struct kl_leak_hit *hits, size_t max)
{
	const struct kl_leakdb *db = m->db;
	const uint64_t *allow;
	size_t p, q, i, w;
	int found = 0, n = 0;
	uint8_t lg;

	if (len < db->minkey || len == 0)
		return (0);
	/* Only the keys a message starting with msg[0] may need. */
	lg = db->lgroup[msg[0]];
	/*
	 * One pass: the pair at every offset, four offsets a step with
	 * one branch; a step that holds an anchor is looked at again.
	 */
	for (p = 0; p + 1 < len; p += 4) {
		if (p + 5 <= len && ((db->has[pair(msg + p)] |
		    db->has[pair(msg + p + 1)] | db->has[pair(msg + p + 2)] |
		    db->has[pair(msg + p + 3)]) & lg) == 0)
			continue;
		for (q = p; q < p + 4 && q + 1 < len; q++)
			if (db->has[pair(msg + q)] & lg)
				found |= check_keys(m, q, msg, len);
	}
	if (!found)
		return (0);
	allow = &db->eallow[(size_t)msg[0] * db->words];
	for (w = 0; w < m->words; w++) {
		m->run[w] &= allow[w];
		while (m->run[w] != 0) {
			i = w * 64 + (size_t)__builtin_ctzll(m->run[w]);
			m->run[w] &= m->run[w] - 1;
			if (run_entry(m, i, msg, len,
			    (size_t)n < max ? &hits[n] : NULL))
				n++;
		}
	}
	return (n);
}

/*
 * The reference: every entry's pattern on msg, no key filter.  Same
 * contract as kl_leak_match (for tests and the fuzzer).
 */
int
kl_leak_match_all(struct kl_leakmatch *m, const uint8_t *msg, size_t len,
    struct kl_leak_hit *hits, size_t max)
{
	size_t i;
	int n = 0;

	for (i = 0; i < m->db->n; i++)
		if (run_entry(m, i, msg, len,
		    (size_t)n < max ? &hits[n] : NULL))
			n++;
	return (n);
}
