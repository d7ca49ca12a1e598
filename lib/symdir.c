/*
 * symdir.c - picks the symbol map of a kernel release from a directory
 * of maps (System.map-RELEASE, kallsyms-RELEASE), loading each once.
 */
#include "config.h"

#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "symtab.h"

#define DIR_MAX		65536u

/*
 * A directory of maps, loaded lazily.  Why lazy: a directory may hold
 * maps of many kernels (5 MB and some 50 ms each), while a log names
 * one or two releases.  Why no lock: the library keeps no threading
 * policy; kl_symdir_get() changes the index (it loads and caches), so
 * callers that use one kl_symdir from several threads serialise their
 * calls to it (the program resolves releases before it starts workers).
 * The tables it returns are immutable and may be shared freely.
 */
struct dent {
	char			*release;
	char			*path;
	int			 rank;		/* 0 System.map, 1 compressed,
						   2 kallsyms */
	int			 tried;
	struct kl_symtab	*tab;
	struct kl_error		 err;
};

struct kl_symdir {
	struct dent	*e;
	size_t		 n;
};

/* Rank of a map file name; -1 when it is not one. */
static int
name_rank(const char *b)
{
	size_t n = strlen(b), i, k;
	int z = 0;

	for (i = 0; i < sizeof(zsuffix) / sizeof(zsuffix[0]); i++) {
		k = strlen(zsuffix[i]);
		if (n > k && strcmp(b + n - k, zsuffix[i]) == 0)
			z = 1;
	}
	if (strncmp(b, "System.map-", 11) == 0)
		return (z);
	if (strncmp(b, "kallsyms-", 9) == 0)
		return (2);
	return (-1);
}

/* Order of entries: by release. */
static int
dent_cmp(const void *a, const void *b)
{
	const struct dent *x = a, *y = b;

	return (strcmp(x->release, y->release));
}

/* Index the maps in dir: System.map-RELEASE[.z], kallsyms-RELEASE[.z]. */
struct kl_symdir *
kl_symdir_open(const char *dir, struct kl_error *err)
{
	struct kl_symdir *d;
	struct dirent *de;
	struct dent *e;
	char *rel, *path;
	size_t i, cap = 0, n;
	DIR *dp;
	int rank;

	kl_error_clear(err);
	if ((dp = opendir(dir)) == NULL) {
		kl_sym_seterr(err, KL_EIO, errno, 0, strerror(errno), dir);
		return (NULL);
	}
	if ((d = calloc(1, sizeof(*d))) == NULL)
		goto nomem;
	while ((de = readdir(dp)) != NULL) {
		if ((rank = name_rank(de->d_name)) == -1)
			continue;
		if (kl_sym_release_of(de->d_name, &rel) == -1)
			goto nomem;
		if (rel == NULL)
			continue;
		for (i = 0; i < d->n && strcmp(d->e[i].release, rel) != 0; i++)
			;
		if (i < d->n && d->e[i].rank <= rank) {
			free(rel);
			continue;
		}
		n = strlen(dir) + strlen(de->d_name) + 2;
		if ((path = malloc(n)) == NULL) {
			free(rel);
			goto nomem;
		}
		snprintf(path, n, "%s/%s", dir, de->d_name);
		if (i < d->n) {
			free(d->e[i].release);
			free(d->e[i].path);
		} else {
			if (d->n >= DIR_MAX) {
				free(rel);
				free(path);
				closedir(dp);
				kl_symdir_free(d);
				kl_sym_seterr(err, KL_ELIMIT, 0, 0,
				    "too many maps", dir);
				return (NULL);
			}
			if (d->n == cap) {
				cap = cap == 0 ? 16 : cap * 2;
				if ((e = realloc(d->e, cap * sizeof(*e))) ==
				    NULL) {
					free(rel);
					free(path);
					goto nomem;
				}
				d->e = e;
			}
			i = d->n++;
		}
		memset(&d->e[i], 0, sizeof(d->e[i]));
		d->e[i].release = rel;
		d->e[i].path = path;
		d->e[i].rank = rank;
	}
	closedir(dp);
	if (d->n > 1)
		qsort(d->e, d->n, sizeof(*d->e), dent_cmp);
	return (d);
nomem:
	closedir(dp);
	kl_symdir_free(d);
	kl_sym_seterr(err, KL_ENOMEM, ENOMEM, 0, "out of memory", dir);
	return (NULL);
}

/* Number of releases in the index. */
size_t
kl_symdir_count(const struct kl_symdir *d)
{
	return (d->n);
}

/* The i-th release, in strcmp order, or NULL. */
const char *
kl_symdir_release(const struct kl_symdir *d, size_t i)
{
	return (i < d->n ? d->e[i].release : NULL);
}

/* The map of release, loaded on first use (see above on threads). */
const struct kl_symtab *
kl_symdir_get(struct kl_symdir *d, const char *release, struct kl_error *err)
{
	struct dent key, *e;

	kl_error_clear(err);
	key.release = (char *)(uintptr_t)release;
	e = d->n > 0 ? bsearch(&key, d->e, d->n, sizeof(*d->e), dent_cmp) :
	    NULL;
	if (e == NULL) {
		kl_sym_seterr(err, KL_EIO, ENOENT, 0,
		    "no symbol map for this release", release);
		return (NULL);
	}
	if (!e->tried) {
		e->tried = 1;
		e->tab = kl_sym_load(e->path, &e->err);
	}
	if (e->tab == NULL && err != NULL)
		*err = e->err;
	return (e->tab);
}

/* The file of release's map in the directory, or NULL. */
const char *
kl_symdir_path(const struct kl_symdir *d, const char *release)
{
	struct dent key, *e;

	key.release = (char *)(uintptr_t)release;
	e = d->n > 0 ? bsearch(&key, d->e, d->n, sizeof(*d->e), dent_cmp) :
	    NULL;
	return (e != NULL ? e->path : NULL);
}

/* Free the index and every table it loaded. */
void
kl_symdir_free(struct kl_symdir *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->n; i++) {
		free(d->e[i].release);
		free(d->e[i].path);
		kl_sym_free(d->e[i].tab);
	}
	free(d->e);
	free(d);
}

