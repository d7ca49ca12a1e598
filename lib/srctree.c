/*
 * srctree.c - walks a kernel tree (a directory, or a tarball read in
 * place through libarchive, one member at a time) and hands each C
 * source file to the scanner (srclex.c), the tree's MAINTAINERS,
 * .mailmap and top Makefile to the index (kl_srcidx_add_meta()) and
 * its directories too; reads chosen files of a tree back; the key of a
 * tree for the cache.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleak.h"
#include "kleak-int.h"
#include "srcidx-int.h"

/* Is the name one the indexer reads (a .c or .h file)? */
static int
wanted(const char *name)
{
	size_t n = strlen(name);

	return (n > 2 && name[n - 2] == '.' &&
	    (name[n - 1] == 'c' || name[n - 1] == 'h'));
}

/*
 * Is a path (relative to the tree's top) user-space code whose printf
 * formats never reach the kernel log (tools/, scripts/)?
 */
static int
userspace(const char *rel)
{
	return (strncmp(rel, "tools/", 6) == 0 ||
	    strncmp(rel, "scripts/", 8) == 0);
}

/* Read a whole file of at most max bytes into *buf; -1 with errno. */
int
kl_srcidx_slurp(int fd, uint8_t **buf, size_t *cap, size_t *len,
    size_t max)
{
	ssize_t r;
	uint8_t *nb;

	*len = 0;
	for (;;) {
		if (*len == *cap) {
			size_t nc = *cap ? *cap * 2 : 1 << 20;

			if (*cap > max) {
				errno = EFBIG;
				return (-1);
			}
			if ((nb = realloc(*buf, nc)) == NULL)
				return (-1);
			*buf = nb;
			*cap = nc;
		}
		r = read(fd, *buf + *len, *cap - *len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		if (r == 0)
			return (0);
		*len += (size_t)r;
		if (*len > max) {
			errno = EFBIG;
			return (-1);
		}
	}
}

/* A directory walk. */
struct walk {
	struct kl_srcidx *x;
	uint8_t		*buf;
	size_t		 cap;
	char		 path[4096];
	size_t		 root;		/* length of the root and its '/' */
	uint64_t	 key;		/* sum of per-file hashes */
	uint64_t	 nkey;
	int		 keyonly;
};

/* Compare names for qsort. */
static int
namecmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* Walk the directory w->path (of length plen); -1 on a fatal error. */
static int
walk_dir(struct walk *w, size_t plen, int depth, struct kl_error *err)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL, **nn;
	size_t n = 0, cap = 0, i, nl;
	int rc = 0;

	if (depth > SI_DEPTH_MAX) {
		w->x->st.skip_unreadable++;
		return (0);
	}
	if ((d = opendir(w->path)) == NULL) {
		w->x->st.skip_unreadable++;
		return (0);
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			if ((nn = realloc(names, cap * sizeof(*nn))) == NULL)
				goto nomem;
			names = nn;
		}
		if ((names[n] = strdup(de->d_name)) == NULL)
			goto nomem;
		n++;
	}
	closedir(d);
	d = NULL;
	if (n > 0)
		qsort(names, n, sizeof(*names), namecmp);
	for (i = 0; i < n && rc == 0; i++) {
		struct stat sb;

		nl = strlen(names[i]);
		if (plen + 1 + nl + 2 > sizeof(w->path)) {
			w->x->st.skip_unreadable++;
			continue;
		}
		w->path[plen] = '/';
		memcpy(w->path + plen + 1, names[i], nl + 1);
		if (lstat(w->path, &sb) != 0) {
			w->x->st.skip_unreadable++;
			continue;
		}
		if (S_ISDIR(sb.st_mode)) {
			memcpy(w->path + plen + 1 + nl, "/", 2);
			if (userspace(w->path + w->root)) {
				w->path[plen + 1 + nl] = '\0';
				continue;
			}
			w->path[plen + 1 + nl] = '\0';
			if (!w->keyonly && kl_srcidx_add_dir(w->x, w->path +
			    w->root, strlen(w->path + w->root), err) != 0) {
				rc = -1;
				break;
			}
			rc = walk_dir(w, plen + 1 + nl, depth + 1, err);
		}
		else if (S_ISREG(sb.st_mode) && (wanted(names[i]) ||
		    kl_srcidx_meta_name(w->path + w->root) >= 0)) {
			const char *rel = w->path + w->root;
			uint64_t h;

			h = fnv(FNV0, rel, strlen(rel) + 1);
			h = fnv(h, &sb.st_size, sizeof(sb.st_size));
			h = fnv(h, &sb.st_mtim, sizeof(sb.st_mtim));
			w->key += h;
			w->nkey++;
			if (!w->keyonly) {
				int fd;
				size_t len;

				if (sb.st_size > KL_SRCIDX_FILE_MAX) {
					w->x->st.skip_huge++;
					continue;
				}
				if ((fd = open(w->path, O_RDONLY)) < 0) {
					w->x->st.skip_unreadable++;
					continue;
				}
				if (kl_srcidx_slurp(fd, &w->buf, &w->cap, &len,
				    KL_SRCIDX_FILE_MAX) != 0) {
					if (errno == EFBIG)
						w->x->st.skip_huge++;
					else if (errno == ENOMEM) {
						close(fd);
						goto nomem;
					} else
						w->x->st.skip_unreadable++;
					close(fd);
					continue;
				}
				close(fd);
				rc = wanted(names[i]) ?
				    kl_srcidx_add_source(w->x, rel, w->buf,
				    len, err) :
				    kl_srcidx_add_meta(w->x, rel, w->buf, len,
				    err);
			}
		}
	}
	w->path[plen] = '\0';
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return (rc);
nomem:
	if (d != NULL)
		closedir(d);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	kl_error_set(err, KL_ENOMEM, errno, "out of memory");
	return (-1);
}

/* Start a walk of the directory root. */
static int
walk_init(struct walk *w, struct kl_srcidx *x, const char *root,
    struct kl_error *err)
{
	size_t n = strlen(root);

	memset(w, 0, sizeof(*w));
	w->x = x;
	while (n > 1 && root[n - 1] == '/')
		n--;
	if (n + 2 > sizeof(w->path)) {
		kl_error_set(err, KL_EINVAL, 0, "path too long");
		return (-1);
	}
	memcpy(w->path, root, n);
	w->path[n] = '\0';
	w->root = n + 1;
	return (0);
}

/* Strip the first component of a tarball member name ("linux-6.1/"). */
static const char *
member_rel(const char *name)
{
	const char *s;

	while (name[0] == '.' && name[1] == '/')
		name += 2;
	s = strchr(name, '/');
	return (s != NULL && s[1] != '\0' ? s + 1 : name);
}

/*
 * A libarchive reader of the tarball at fd (or, fd -1, at path): every
 * compression, tar, cpio and zip.  NULL with err.
 */
static struct archive *
tar_open(const char *path, int fd, struct kl_error *err)
{
	struct archive *a;
	int r;

	if ((a = archive_read_new()) == NULL) {
		kl_error_set(err, KL_ENOMEM, errno, "out of memory");
		return (NULL);
	}
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_zip_streamable(a);
	archive_read_support_format_cpio(a);
	r = fd >= 0 ? archive_read_open_fd(a, fd, 1 << 20) :
	    archive_read_open_filename(a, path, 1 << 20);
	if (r != ARCHIVE_OK) {
		kl_error_set(err, KL_EFORMAT, 0, "%s: not an archive: %s",
		    path, archive_error_string(a));
		archive_read_free(a);
		return (NULL);
	}
	return (a);
}

/* Index every .c and .h member of a tarball, streaming. */
static int
add_tarball(struct kl_srcidx *x, int fd, const char *path,
    struct kl_error *err)
{
	struct archive *a;
	struct archive_entry *e;
	uint8_t *buf = NULL, *nb;
	size_t cap = 0, len;
	int r, rc = 0;

	if ((a = tar_open(path, fd, err)) == NULL)
		return (-1);
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK ||
	    r == ARCHIVE_WARN) {
		const char *name = archive_entry_pathname(e);
		int64_t size = archive_entry_size(e);
		la_ssize_t got;
		const char *rel, *slash;

		if (name == NULL || userspace(rel = member_rel(name)))
			continue;
		/* The member's directory, or the member itself. */
		if (rel != name && (slash = archive_entry_filetype(e) ==
		    AE_IFDIR ? rel + strlen(rel) : strrchr(rel, '/')) !=
		    NULL && (rc = kl_srcidx_add_dir(x, rel,
		    (size_t)(slash - rel), err)) != 0)
			break;
		if (archive_entry_filetype(e) != AE_IFREG ||
		    (!wanted(name) && kl_srcidx_meta_name(rel) < 0))
			continue;
		if (size < 0 || size > KL_SRCIDX_FILE_MAX) {
			x->st.skip_huge++;
			continue;
		}
		if ((size_t)size + 1 > cap) {
			size_t nc = cap ? cap : 1 << 20;

			while (nc < (size_t)size + 1)
				nc *= 2;
			if ((nb = realloc(buf, nc)) == NULL) {
				kl_error_set(err, KL_ENOMEM, errno,
				    "out of memory");
				rc = -1;
				break;
			}
			buf = nb;
			cap = nc;
		}
		len = 0;
		while (len < (size_t)size &&
		    (got = archive_read_data(a, buf + len, (size_t)size -
		    len)) > 0)
			len += (size_t)got;
		if (len != (size_t)size) {
			/* A member cut short: never index half of it. */
			x->st.skip_unreadable++;
			if (archive_errno(a) != 0 && got < 0)
				break;
			continue;
		}
		if ((rc = wanted(name) ? kl_srcidx_add_source(x, rel, buf, len,
		    err) : kl_srcidx_add_meta(x, rel, buf, len, err)) != 0)
			break;
	}
	if (rc == 0 && r != ARCHIVE_EOF && r != ARCHIVE_OK &&
	    r != ARCHIVE_WARN) {
		kl_error_set(err, KL_EFORMAT, 0, "%s: %s", path,
		    archive_error_string(a) ? archive_error_string(a) :
		    "archive damaged");
		rc = -1;
	}
	archive_read_free(a);
	free(buf);
	return (rc);
}

/*
 * Index a kernel tree: a directory, or an archive (a tarball of any
 * compression libarchive knows) whose members are read in place.
 */
int
kl_srcidx_add_tree(struct kl_srcidx *x, const char *path,
    struct kl_error *err)
{
	struct stat sb;
	struct walk w;
	int fd, rc;

	if (stat(path, &sb) != 0) {
		kl_error_set(err, KL_EIO, errno, "%s: %s", path,
		    strerror(errno));
		return (-1);
	}
	if (S_ISDIR(sb.st_mode)) {
		if (walk_init(&w, x, path, err) != 0)
			return (-1);
		rc = walk_dir(&w, strlen(w.path), 0, err);
		free(w.buf);
		return (rc);
	}
	if ((fd = open(path, O_RDONLY)) < 0) {
		kl_error_set(err, KL_EIO, errno, "%s: %s", path,
		    strerror(errno));
		return (-1);
	}
	rc = add_tarball(x, fd, path, err);
	close(fd);
	return (rc);
}

/* The name i of a sorted list of n, or -1. */
static long
name_at(const char *const *names, size_t n, const char *rel)
{
	size_t lo = 0, hi = n, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = strcmp(names[mid], rel)) == 0)
			return ((long)mid);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (-1);
}

/*
 * Read chosen files of a tree (a directory, or a tarball in one pass):
 * names[0..n), sorted, relative to the top, into data[i] (malloc'd) and
 * len[i]; a file not found or over KL_SRCIDX_FILE_MAX stays NULL.  -1
 * with err when the tree cannot be read or memory ran out.
 */
int
kl_srcidx_read_files(const char *tree, const char *const *names, size_t n,
    uint8_t **data, size_t *len, struct kl_error *err)
{
	struct archive *a;
	struct archive_entry *e;
	struct stat sb;
	char path[4096];
	size_t cap, got, i;
	long k;
	int fd, r, rc = 0;
	la_ssize_t g;

	for (i = 0; i < n; i++) {
		data[i] = NULL;
		len[i] = 0;
	}
	if (stat(tree, &sb) != 0) {
		kl_error_set(err, KL_EIO, errno, "%s: %s", tree,
		    strerror(errno));
		return (-1);
	}
	if (S_ISDIR(sb.st_mode)) {
		for (i = 0; i < n; i++) {
			cap = 0;
			if ((size_t)snprintf(path, sizeof(path), "%s/%s", tree,
			    names[i]) >= sizeof(path) ||
			    (fd = open(path, O_RDONLY)) < 0)
				continue;
			if (kl_srcidx_slurp(fd, &data[i], &cap, &len[i],
			    KL_SRCIDX_FILE_MAX) != 0) {
				free(data[i]);
				data[i] = NULL;
				len[i] = 0;
				if (errno == ENOMEM) {
					close(fd);
					goto nomem;
				}
			}
			close(fd);
		}
		return (0);
	}
	if ((a = tar_open(tree, -1, err)) == NULL)
		return (-1);
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK ||
	    r == ARCHIVE_WARN) {
		const char *name = archive_entry_pathname(e);
		int64_t size = archive_entry_size(e);

		if (name == NULL || archive_entry_filetype(e) != AE_IFREG ||
		    (k = name_at(names, n, member_rel(name))) < 0 ||
		    data[k] != NULL || size < 0 || size > KL_SRCIDX_FILE_MAX)
			continue;
		if ((data[k] = malloc((size_t)size + 1)) == NULL) {
			archive_read_free(a);
			goto nomem;
		}
		for (got = 0; got < (size_t)size && (g = archive_read_data(a,
		    data[k] + got, (size_t)size - got)) > 0;)
			got += (size_t)g;
		if (got != (size_t)size) {
			free(data[k]);
			data[k] = NULL;
			continue;
		}
		len[k] = got;
	}
	if (r != ARCHIVE_EOF) {
		kl_error_set(err, KL_EFORMAT, 0, "%s: %s", tree,
		    archive_error_string(a) ? archive_error_string(a) :
		    "archive damaged");
		rc = -1;
	}
	archive_read_free(a);
	return (rc);
nomem:
	for (i = 0; i < n; i++) {
		free(data[i]);
		data[i] = NULL;
	}
	kl_error_set(err, KL_ENOMEM, errno, "out of memory");
	return (-1);
}

/*
 * The cache key of a tree: for a directory, the names, sizes and
 * modification times of its .c and .h files; for a file, its path,
 * size, inode and modification time.  Written as hex into key.
 */
int
kl_srcidx_tree_key(const char *path, char *key, size_t keylen,
    struct kl_error *err)
{
	struct stat sb;
	struct kl_srcidx *x;
	struct walk w;
	uint64_t h;
	char *real;
	int rc;

	if (stat(path, &sb) != 0 || (real = realpath(path, NULL)) == NULL) {
		kl_error_set(err, KL_EIO, errno, "%s: %s", path,
		    strerror(errno));
		return (-1);
	}
	h = fnv(FNV0, real, strlen(real) + 1);
	free(real);
	if (S_ISDIR(sb.st_mode)) {
		if ((x = kl_srcidx_new(err)) == NULL)
			return (-1);
		if (walk_init(&w, x, path, err) != 0) {
			kl_srcidx_free(x);
			return (-1);
		}
		w.keyonly = 1;
		rc = walk_dir(&w, strlen(w.path), 0, err);
		kl_srcidx_free(x);
		if (rc != 0)
			return (-1);
		h = fnv(h, "d", 1);
		h = fnv(h, &w.key, sizeof(w.key));
		h = fnv(h, &w.nkey, sizeof(w.nkey));
	} else {
		h = fnv(h, "f", 1);
		h = fnv(h, &sb.st_size, sizeof(sb.st_size));
		h = fnv(h, &sb.st_ino, sizeof(sb.st_ino));
		h = fnv(h, &sb.st_mtim, sizeof(sb.st_mtim));
	}
	h = fnv(h, SI_CACHE_MAGIC, sizeof(SI_CACHE_MAGIC));
	if (keylen < 17) {
		kl_error_set(err, KL_EINVAL, 0, "key buffer too small");
		return (-1);
	}
	snprintf(key, keylen, "%016llx", (unsigned long long)h);
	return (0);
}
