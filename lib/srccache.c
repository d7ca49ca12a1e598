/*
 * srccache.c - the on-disk cache of a built source index: saved to and
 * loaded from a cache file, checked by its key and a checksum before
 * it is trusted; kl_srcidx_open() uses it or builds and writes it.
 */
#include "config.h"

#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleak.h"
#include "kleak-int.h"
#include "srcidx-int.h"

/* Writer of a cache file. */
struct wbuf {
	uint8_t		*b;
	size_t		 n;
	size_t		 cap;
	int		 oom;
};

/* Append bytes to a writer. */
static void
wput(struct wbuf *w, const void *p, size_t n)
{
	if (w->oom || n == 0)
		return;
	if (w->n + n > w->cap) {
		size_t cap = w->cap ? w->cap : 1 << 20;
		uint8_t *nb;

		while (cap < w->n + n)
			cap *= 2;
		if ((nb = realloc(w->b, cap)) == NULL) {
			w->oom = 1;
			return;
		}
		w->b = nb;
		w->cap = cap;
	}
	memcpy(w->b + w->n, p, n);
	w->n += n;
}

/*
 * The cache image of an index: magic, key, counters, arena, sites, the
 * tree's other files (arena offsets and lengths), its directories, and
 * a checksum of all that.  Into *out (malloc'd), its length *len.
 */
int
kl_srcidx_save(const struct kl_srcidx *x, const char *key, uint8_t **out,
    size_t *len, struct kl_error *err)
{
	struct wbuf w = { NULL, 0, 0, 0 };
	uint64_t v, h;
	uint32_t kl = (uint32_t)strlen(key);

	wput(&w, SI_CACHE_MAGIC, 8);
	wput(&w, &kl, sizeof(kl));
	wput(&w, key, kl);
	wput(&w, &x->st, sizeof(x->st));
	v = x->alen;
	wput(&w, &v, sizeof(v));
	wput(&w, x->arena, x->alen);
	v = x->nsite;
	wput(&w, &v, sizeof(v));
	wput(&w, x->site, x->nsite * sizeof(*x->site));
	wput(&w, x->meta, sizeof(x->meta));
	wput(&w, x->metalen, sizeof(x->metalen));
	v = x->ndir;
	wput(&w, &v, sizeof(v));
	wput(&w, x->dir, x->ndir * sizeof(*x->dir));
	h = fnv(FNV0, w.b, w.oom ? 0 : w.n);
	wput(&w, &h, sizeof(h));
	if (w.oom) {
		free(w.b);
		kl_error_set(err, KL_ENOMEM, errno, "out of memory");
		return (-1);
	}
	*out = w.b;
	*len = w.n;
	return (0);
}

/*
 * An index from a cache image made for key; NULL (and err) when the
 * image is damaged, of another version or of another tree.  Every
 * offset is checked before it is used.
 */
struct kl_srcidx *
kl_srcidx_load(const void *data, size_t len, const char *key,
    struct kl_error *err)
{
	const uint8_t *b = data, *p;
	struct kl_srcidx *x;
	uint32_t kl;
	uint64_t alen, nsite, ndir, h, i;
	size_t need, dneed;

	if (len < 8 + 4 + 8 || memcmp(b, SI_CACHE_MAGIC, 8) != 0)
		goto bad;
	memcpy(&h, b + len - 8, 8);
	if (fnv(FNV0, b, len - 8) != h)
		goto bad;
	len -= 8;
	p = b + 8;
	memcpy(&kl, p, 4);
	p += 4;
	if (kl != strlen(key) || (size_t)(b + len - p) < kl ||
	    memcmp(p, key, kl) != 0)
		goto bad;
	p += kl;
	if ((size_t)(b + len - p) < sizeof(struct kl_srcidx_stats) + 8)
		goto bad;
	if ((x = kl_srcidx_new(err)) == NULL)
		return (NULL);
	memcpy(&x->st, p, sizeof(x->st));
	p += sizeof(x->st);
	memcpy(&alen, p, 8);
	p += 8;
	if (alen == 0 || alen > SI_ARENA_MAX || alen > (size_t)(b + len - p) ||
	    p[alen - 1] != '\0')
		goto badx;
	free(x->arena);
	if ((x->arena = malloc(alen)) == NULL)
		goto nomem;
	memcpy(x->arena, p, alen);
	x->alen = x->acap = alen;
	p += alen;
	if ((size_t)(b + len - p) < 8)
		goto badx;
	memcpy(&nsite, p, 8);
	p += 8;
	if (nsite > UINT32_MAX || kl_mul(nsite, sizeof(struct site), &need) !=
	    0 || need > (size_t)(b + len - p))
		goto badx;
	if (nsite > 0 && (x->site = malloc(need)) == NULL)
		goto nomem;
	if (nsite > 0)
		memcpy(x->site, p, need);
	x->nsite = x->csite = nsite;
	p += need;
	/* The tree's other files and its directories. */
	if ((size_t)(b + len - p) < sizeof(x->meta) + sizeof(x->metalen) + 8)
		goto badx;
	memcpy(x->meta, p, sizeof(x->meta));
	p += sizeof(x->meta);
	memcpy(x->metalen, p, sizeof(x->metalen));
	p += sizeof(x->metalen);
	memcpy(&ndir, p, 8);
	p += 8;
	if (ndir > UINT32_MAX || kl_mul(ndir, sizeof(uint32_t), &dneed) != 0 ||
	    dneed != (size_t)(b + len - p))
		goto badx;
	if (ndir > 0 && (x->dir = malloc(dneed)) == NULL)
		goto nomem;
	if (ndir > 0)
		memcpy(x->dir, p, dneed);
	x->ndir = x->cdir = ndir;
	for (i = 0; i < KL_SRCIDX_META_COUNT; i++)
		if (x->meta[i] != 0 && (x->meta[i] >= alen ||
		    x->metalen[i] >= alen - x->meta[i] ||
		    x->arena[x->meta[i] + x->metalen[i]] != '\0'))
			goto badx;
	for (i = 0; i < ndir; i++)
		if (x->dir[i] == 0 || x->dir[i] >= alen)
			goto badx;
	for (i = 0; i < nsite; i++) {
		const struct site *s = &x->site[i];

		if (s->file >= alen || s->func >= alen || s->fmt >= alen ||
		    s->fmtlen >= alen - s->fmt ||
		    x->arena[s->fmt + s->fmtlen] != '\0')
			goto badx;
	}
	x->st.cached = 1;
	if (kl_srcidx_build(x, err) != 0) {
		kl_srcidx_free(x);
		return (NULL);
	}
	return (x);
nomem:
	kl_srcidx_free(x);
	kl_error_set(err, KL_ENOMEM, errno, "out of memory");
	return (NULL);
badx:
	kl_srcidx_free(x);
bad:
	kl_error_set(err, KL_EFORMAT, 0, "cache damaged or stale");
	return (NULL);
}

/* Read a whole file (at most max bytes) into memory. */
static int
read_all(const char *path, uint8_t **out, size_t *len, size_t max)
{
	uint8_t *buf = NULL;
	size_t cap = 0;
	int fd, r;

	if ((fd = open(path, O_RDONLY)) < 0)
		return (-1);
	r = kl_srcidx_slurp(fd, &buf, &cap, len, max);
	close(fd);
	if (r != 0) {
		free(buf);
		return (-1);
	}
	*out = buf;
	return (0);
}

/*
 * The index of a tree, through a cache directory (NULL: none): a cache
 * file for the tree's key is used when it checks out, else the tree is
 * indexed and the cache written (a temporary file renamed).  *cached
 * says which.  The index is built.
 */
struct kl_srcidx *
kl_srcidx_open(const char *tree, const char *cachedir, int *cached,
    struct kl_error *err)
{
	struct kl_srcidx *x;
	char key[32], path[4096], tmp[4200];
	uint8_t *img = NULL;
	size_t len;
	int fd;

	*cached = 0;
	if (kl_srcidx_tree_key(tree, key, sizeof(key), err) != 0)
		return (NULL);
	if (cachedir != NULL && (size_t)snprintf(path, sizeof(path),
	    "%s/srcidx-%s", cachedir, key) < sizeof(path) &&
	    read_all(path, &img, &len, (size_t)SI_ARENA_MAX * 2) == 0) {
		x = kl_srcidx_load(img, len, key, NULL);
		free(img);
		img = NULL;
		if (x != NULL) {
			*cached = 1;
			return (x);
		}
		/* A damaged cache is rebuilt, never trusted. */
	}
	if ((x = kl_srcidx_new(err)) == NULL)
		return (NULL);
	if (kl_srcidx_add_tree(x, tree, err) != 0 ||
	    kl_srcidx_build(x, err) != 0) {
		kl_srcidx_free(x);
		return (NULL);
	}
	if (cachedir == NULL || (size_t)snprintf(path, sizeof(path),
	    "%s/srcidx-%s", cachedir, key) >= sizeof(path))
		return (x);
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
	if (kl_srcidx_save(x, key, &img, &len, NULL) == 0 &&
	    (fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0) {
		size_t off = 0;
		ssize_t w = 0;

		while (off < len && (w = write(fd, img + off, len - off)) > 0)
			off += (size_t)w;
		if (close(fd) != 0 || off != len || rename(tmp, path) != 0)
			unlink(tmp);
	}
	free(img);
	/* A cache that cannot be written costs time, not results. */
	x->st.cache_unwritten = access(path, R_OK) != 0;
	return (x);
}
