/*
 * live.h - the state of a --live or --live-root run, handed down from
 * live.c to the files that read the system (live-reader.c, live-walk.c,
 * live-captured.c, live-facts.c, live-audit.c) and print it
 * (live-print.c).  Their prototypes are in kleakscan.h.
 */
#ifndef LIVE_H
#define LIVE_H

#include <sys/types.h>
#include <sys/utsname.h>

#include <limits.h>
#include <stdint.h>
#include <time.h>

#include "kleakscan.h"

#define LIVE_FILE_MAX		(64u * 1024 * 1024)	/* bytes per file */
#define LIVE_FILE_SECS		10			/* seconds per file */
#define LIVE_FACT_MAX		(64u * 1024)
#define LIVE_HEXRUN		8	/* shortest address worth a scan */
#define LIVE_FAULTS		8

/*
 * Faults a test can make a reader meet (KLEAKSCAN_TEST_LIVE_FAULT, a
 * comma-separated list of KIND:SUFFIX, and "kmsg"): a read that hangs, a
 * file that never ends, one that vanished, EIO, EACCES; /dev/kmsg that
 * cannot be opened.  Only reader processes meet them.
 */
enum fkind {
	FK_HANG = 1,		/* the read never returns */
	FK_ENDLESS,		/* the file never ends (/dev/zero) */
	FK_ENOENT,
	FK_EIO,
	FK_EACCES,
	FK_KMSG,		/* /dev/kmsg cannot be opened */
};

/* A reader process and its socket. */
struct reader {
	pid_t		 pid;
	int		 fd;
	int		 drop;		/* drops privileges to uid/gid */
};

/* What a reader sends back before the bytes. */
struct rhead {
	int32_t		 err;		/* errno, 0 */
	uint32_t	 flags;		/* RF_* */
	uint64_t	 len;
};
#define RF_CUT		0x1		/* stopped at LIVE_FILE_MAX */
#define RF_KLOGCTL	0x2		/* the log came from klogctl(2) */
#define RF_NOTREG	0x4		/* not a regular file: not read */

/* One read of a file. */
struct rdata {
	int		 ok;		/* the reader answered */
	int		 timeout;	/* it did not, and was replaced */
	struct rhead	 h;
	char		*p;
	size_t		 size;
};

/* One key of --squash-by-path or --squash-by-filename. */
struct squash {
	char		*key;
	uint64_t	 count;
	char		*example;	/* the first line, raw */
	size_t		 exlen;
};

/* The facts of the system the verdict section tells. */
struct facts {
	char		 machine[sizeof(((struct utsname *)0)->machine)];
	char		 release[sizeof(((struct utsname *)0)->release)];
	int		 kptr_restrict;		/* -1: unknown */
	int		 dmesg_restrict;
	int		 perf_event_paranoid;
	int		 have_perf;
	int		 no_hash_pointers;	/* -1 unknown */
	char		 lockdown[64];
	int		 vbits;			/* cpuinfo virtual bits, 0 */
	int		 la57;			/* 1: flag la57, 0: not, -1 */
	enum kl_arch_id	 arch;
	/* The symbol table (privileged kallsyms, else a map). */
	int		 have_syms;
	uint64_t	 lo, hi;		/* kernel symbol range */
	uint64_t	 text;			/* _text in kallsyms */
	int		 have_text;
	int		 text_stext;		/* ...its _stext: no _text */
	uint64_t	 page_offset;		/* arm, i386, ppc32; 0 */
	int		 machine_derived;	/* machine from the arch */
	uint64_t	 map_text;		/* _text in the map */
	int		 have_map_text;
	uint64_t	 map_stext;		/* _stext in the map */
	int		 have_map_stext;
	char		 map[PATH_MAX];
	struct kl_symtab *symtab;		/* the map, loaded */
	int		 kallsyms_everyone;	/* unprivileged sees values */
	int		 kallsyms_known;
};

/* A fact file of a captured archive, kept by the first pass. */
struct afact {
	char		*path;		/* system path */
	struct buf	 b;
};

/* The state of a live run. */
struct live {
	const struct cli	*cli;
	int			(*scan)(const char *, int);
	const char		*root;		/* --live-root, or NULL */
	int			 root_dir;	/* root is a directory */
	int			 asroot;	/* euid 0 on --live */
	uid_t			 uid;		/* --live-user */
	gid_t			 gid;
	const char		*user;
	struct reader		 priv, unpriv;
	int			 memfd;
	time_t			 deadline;	/* 0: none */
	int			 stopped;	/* the time bound was reached */
	pid_t			 ownpid;
	struct facts		 fx;
	struct buf		 esc;
	struct buf		 names;		/* path names with hex runs */
	struct buf		 unames;	/* those every user can list */
	/* The unit being scanned. */
	int			 active;
	const char		*who;		/* fixed answer, or NULL */
	const char		*why;
	/* unprivileged values, sorted */
	uint64_t		*vals;
	size_t			 nvals, avals;
	int			 uerr;		/* unprivileged read errno */
	mode_t			 mode;
	int			 is_kmsg;
	int			 sc;		/* a supportconfig */
	int			 sclog;		/* its kernel log is scanned */
	int			 sysunit;	/* of the system's present
						   state: its slide applies */
	char			 whybuf[96];
	char			 sym[256];
	int			 secs;		/* per-file bound */
	int			 inreader;	/* this is a reader process */
	int			 klog;		/* the log: 0 kmsg, 1 klogctl,
						   -1 not read */
	struct {
		enum fkind	 kind;
		const char	*suffix;
	}			 fault[LIVE_FAULTS];
	size_t			 nfault;
	/* Counters for the summary. */
	uint64_t		 files, dirs, scanned, binary, rawhits;
	uint64_t		 skipped, symlinks, outside, unreadable;
	uint64_t		 vanished, eio, timeouts, cut, notes;
	uint64_t		 everyone, privileged, unknown;
	/* --squash-by-*. */
	struct squash		*sq;
	size_t			 nsq, asq, lastsq;
	/* The fact files of a captured archive or supportconfig. */
	struct afact		*afacts;
	size_t			 nafacts;
	struct buf		 amap;		/* the archive's System.map */
};
#endif /* LIVE_H */
