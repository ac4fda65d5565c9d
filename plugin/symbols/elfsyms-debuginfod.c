// SPDX-License-Identifier: MIT
/*
 * A debug file from debuginfod (see elfsyms-extra.h). The server is another
 * party: what it sends is bounded in bytes and time, and kept only when it is
 * an ELF file of the build-id asked for. libdebuginfod writes it beside and
 * renames it into its cache (DEBUGINFOD_CACHE_PATH, else
 * $XDG_CACHE_HOME/debuginfod_client, else ~/.cache/debuginfod_client); that
 * directory is made 0700 here when missing, and refused when it is a link, or
 * another user's, or writable by others (who could place any file there).
 */
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <elfutils/debuginfod.h>

#include "elfsyms-extra.h"

/* One query's bounds and why it was stopped. */
struct query {
	struct timespec start;
	long max_bytes, max_seconds;
	long bytes;		/* the most seen downloaded */
	bool too_big, too_slow;
};

static long env_long(const char *name, long dflt)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return dflt;
	n = strtol(v, &end, 10);
	return *end || n <= 0 ? dflt : n;
}

static __typeof__(debuginfod_get_user_data) *get_data;

/* libdebuginfod calls this at least once a second while it waits; a nonzero
 * return stops the query. a: bytes downloaded once a server answers (a loop
 * count before); b: the body's announced size, or 0. */
static int progress(debuginfod_client *c, long a, long b)
{
	struct query *q = get_data(c);
	struct timespec now;

	if (!q)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (a > q->bytes)
		q->bytes = a;
	if (a > q->max_bytes || b > q->max_bytes)
		q->too_big = true;
	else if ((double)(now.tv_sec - q->start.tv_sec) + (now.tv_nsec - q->start.tv_nsec) / 1e9 >=
		 (double)q->max_seconds)
		q->too_slow = true;
	return q->too_big || q->too_slow;
}

/* libdebuginfod's cache directory, as it chooses it, into out. */
static bool cache_dir(char *out, size_t len, char *parent, size_t plen)
{
	const char *p = getenv("DEBUGINFOD_CACHE_PATH"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct stat st;
	int n;

	*parent = 0;
	if (p && *p)
		n = snprintf(out, len, "%s", p);
	else if (home && (n = snprintf(out, len, "%s/.debuginfod_client_cache", home)) > 0 && (size_t)n < len &&
		 !stat(out, &st))
		; /* its older place, still used when there */
	else if (xdg && *xdg) {
		snprintf(parent, plen, "%s", xdg);
		n = snprintf(out, len, "%s/debuginfod_client", xdg);
	} else if (home) {
		snprintf(parent, plen, "%s/.cache", home);
		n = snprintf(out, len, "%s/.cache/debuginfod_client", home);
	} else
		return false;
	return n > 0 && (size_t)n < len;
}

/* Whether dir is safe to take files from: made 0700 when missing, else a
 * directory of ours no one else may write. */
static bool cache_safe(const char *dir, const char *parent, const struct elfsyms_config *cfg)
{
	struct stat st;

	if (*parent)
		mkdir(parent, 0700);
	if (mkdir(dir, 0700) && errno != EEXIST) {
		elfsyms__note(cfg, "debuginfod: cannot make its cache directory %s (%s): not asked", dir, strerror(errno));
		return false;
	}
	if (lstat(dir, &st)) {
		elfsyms__note(cfg, "debuginfod: cache directory %s: %s: not asked", dir, strerror(errno));
		return false;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		elfsyms__note(cfg, "debuginfod: cache directory %s is %s: not asked (files there could be anyone's)", dir,
			      !S_ISDIR(st.st_mode) ? "not a directory (a symbolic link?)"
			      : st.st_uid != geteuid() ? "another user's" : "writable by others");
		return false;
	}
	return true;
}

/* Drop what the server gave from the cache, so that the next run asks again. */
static void forget(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (!strncmp(path, dir, n) && path[n] == '/')
		unlink(path);
}

int elfsyms__debuginfod(struct symsrc *out, const uint8_t *bid, size_t bid_size, const struct elfsyms_config *cfg)
{
	static void *lib;
	static bool tried;
	static int cache_state;	/* 1 safe, -1 refused, 0 not checked yet */
	__typeof__(debuginfod_begin) *begin;
	__typeof__(debuginfod_find_debuginfo) *find;
	__typeof__(debuginfod_end) *end;
	__typeof__(debuginfod_set_progressfn) *set_progress;
	__typeof__(debuginfod_set_user_data) *set_data;
	__typeof__(debuginfod_get_url) *get_url;
	debuginfod_client *client;
	struct query q = { .max_bytes = env_long("DEBUGINFOD_MAXSIZE", DEBUGINFOD_MAX_BYTES),
			   .max_seconds = env_long("DEBUGINFOD_MAXTIME", DEBUGINFOD_MAX_SECONDS) };
	char hex[41], dir[PATH_MAX], parent[PATH_MAX], from[512] = "its cache";
	char *path = NULL;
	struct stat st;
	int fd, ret;

	if (!bid_size || bid_size > 20)
		return -ENOENT;
	for (size_t i = 0; i < bid_size; i++)
		snprintf(hex + 2 * i, 3, "%02x", bid[i]);
	if (!tried) {
		tried = true;
		lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
	}
	if (!lib || !(begin = (__typeof__(begin))dlsym(lib, "debuginfod_begin")) ||
	    !(find = (__typeof__(find))dlsym(lib, "debuginfod_find_debuginfo")) ||
	    !(end = (__typeof__(end))dlsym(lib, "debuginfod_end")) ||
	    !(set_progress = (__typeof__(set_progress))dlsym(lib, "debuginfod_set_progressfn")) ||
	    !(set_data = (__typeof__(set_data))dlsym(lib, "debuginfod_set_user_data")) ||
	    !(get_url = (__typeof__(get_url))dlsym(lib, "debuginfod_get_url")) ||
	    !(get_data = (__typeof__(get_data))dlsym(lib, "debuginfod_get_user_data")))
		return -ENOSYS;
	/* checked once: a refused directory is said once, not for every file */
	if (!cache_dir(dir, sizeof(dir), parent, sizeof(parent)))
		return -EPERM;
	if (!cache_state)
		cache_state = cache_safe(dir, parent, cfg) ? 1 : -1;
	if (cache_state < 0)
		return -EPERM;
	if (!(client = begin()))
		return -ENOSYS;
	set_data(client, &q);
	set_progress(client, progress);
	clock_gettime(CLOCK_MONOTONIC, &q.start);
	fd = find(client, bid, (int)bid_size, &path);
	/* the server that answered; the ones asked when none did; else the file was cached */
	if (get_url(client))
		snprintf(from, sizeof(from), "%s", get_url(client));
	else if (fd < 0 || q.too_big || q.too_slow)
		snprintf(from, sizeof(from), "%s", getenv("DEBUGINFOD_URLS") ? getenv("DEBUGINFOD_URLS") : "");
	end(client);
	if (q.too_big || q.too_slow) {
		elfsyms__note(cfg, "debuginfod %s: build-id %s: stopped %s (bound: DEBUGINFOD_%s, else %ld %s): not used",
			      from, hex, q.too_big ? "past the bytes a debug file may take" : "after the time a query may take",
			      q.too_big ? "MAXSIZE" : "MAXTIME", q.too_big ? q.max_bytes : q.max_seconds,
			      q.too_big ? "bytes" : "s");
		if (fd >= 0)
			close(fd);
		free(path);
		return -EFBIG;
	}
	if (fd < 0) {
		free(path);
		return fd;
	}
	close(fd);
	/* the file itself, never a link to another: lstat, and it must be ours */
	if (lstat(path, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		elfsyms__note(cfg, "debuginfod %s: build-id %s: %s is not a regular file of this user's: not used", from,
			      hex, path);
		free(path);
		return -EPERM;
	}
	ret = symsrc__open(out, path, bid, bid_size);
	if (ret == OPEN_MISMATCH || ret == OPEN_BAD) {
		elfsyms__note(cfg, "debuginfod %s: build-id %s: the file it gave (%" PRIu64 " bytes) is %s: not used,"
			      " dropped from its cache", from, hex, (uint64_t)st.st_size,
			      ret == OPEN_BAD ? "not an ELF file" : "of another build-id");
		forget(path, dir);
	}
	free(path);
	if (ret != OPEN_OK || !out->symtab) {
		if (ret == OPEN_OK)
			symsrc__release(out);
		return -ENOENT;
	}
	return 0;
}
