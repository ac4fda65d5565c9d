// SPDX-License-Identifier: MIT
/* The stream's destination (see output.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/message.h"
#include "output.h"

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Why out=FILE (whose stat is st) may not be written, or NULL. */
static const char *input_named(const struct output *o, const struct stat *st)
{
	static char why[PATH_MAX + 64];
	struct stat in;

	if (strcmp(o->perf_data, "-") && !stat(o->perf_data, &in)) {
		if (same_file(&in, st))
			return "the input perf.data";
		/* perf record --threads writes a directory whose perf.data is DIR/data. */
		snprintf(why, sizeof(why), "%s/data", o->perf_data);
		if (S_ISDIR(in.st_mode) && !stat(why, &in) && same_file(&in, st))
			return "the input perf.data";
	}
	if (!fstat(STDIN_FILENO, &in) && S_ISREG(in.st_mode) && same_file(&in, st))
		return "perf's standard input";
	for (size_t i = 0; o->dumps && i < o->dumps->nr; i++) {
		if (!fstat(o->dumps->files[i].jd->fd, &in) && same_file(&in, st)) {
			snprintf(why, sizeof(why), "the jitdump %s", o->dumps->files[i].jd->path);
			return why;
		}
	}
	return NULL;
}

/* The file out=path replaces: a symlink's target (the link stays), else path. malloc()ed. */
static char *target_of(const char *path)
{
	struct stat st;
	char *real;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode) && (real = realpath(path, NULL)))
		return real;
	return strdup(path);
}

/*
 * A new file beside target for the stream, with the mode (and, for root, the
 * owner) of the file it replaces, else 0666 less the umask; its name in tmp.
 * The descriptor, or -errno with tmp empty.
 */
static int create_beside(const char *target, char tmp[PATH_MAX])
{
	const char *slash = strrchr(target, '/'), *base = slash ? slash + 1 : target;
	struct stat st;
	mode_t mode;
	int fd;

	if (snprintf(tmp, PATH_MAX, "%.*s.%.200s.XXXXXX", (int)(base - target), target, base) >= PATH_MAX) {
		tmp[0] = '\0';
		return -ENAMETOOLONG;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		tmp[0] = '\0';	/* not ours, whatever name the template holds now */
		return -errno;
	}
	if (!stat(target, &st)) {
		mode = st.st_mode & 07777;
		if (!geteuid() && (st.st_uid || st.st_gid) && fchown(fd, st.st_uid, st.st_gid) < 0)
			goto fail;
	} else {
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	}
	if (fchmod(fd, mode) == 0)
		return fd;
fail:
	mode = (mode_t)errno;
	close(fd);
	unlink(tmp);
	tmp[0] = '\0';
	return -(int)mode;
}

static int refused(const char *path, const char *why)
{
	message__say("hotblocks: error: out=%s is %s; refusing to overwrite it\n", path, why);
	return -1;
}

/* out=path is refused when it is an input: 0, or -1 after saying so. */
static int refuse_input(const struct output *o, const char *path)
{
	struct stat st;
	const char *why;

	if (stat(path, &st) || !(why = input_named(o, &st)))
		return 0;
	return refused(path, why);
}

void output__init(struct output *o, const char *path, const char *perf_data, const struct dumps *dumps)
{
	*o = (struct output){ .path = path, .perf_data = perf_data, .dumps = dumps, .fd = -1 };
}

void output__release(struct output *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
}

int output__open(struct output *o)
{
	const char *path = o->path, *why;
	char tmp[PATH_MAX];
	struct stat st;
	char *target;
	int fd;

	output__release(o);
	if (!path)
		return 0;
	if (refuse_input(o, path) < 0)
		return -1;
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		/* /dev/null, a FIFO, a terminal: written in place, as standard output. */
		fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0 || fstat(fd, &st) < 0) {
			message__say("hotblocks: error: cannot write %s: %s\n", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		/* Replaced meanwhile by a link to an input: still refused. */
		if ((why = input_named(o, &st))) {
			close(fd);
			return refused(path, why);
		}
		o->fd = fd;
		return 0;
	}
	/* A file is written only at the end; a missing directory or a forbidden one fails now. */
	if (!(target = target_of(path)))
		fd = -ENOMEM;
	else if (!stat(target, &st) && access(target, W_OK) < 0)
		fd = -errno;	/* its owner made it read-only */
	else
		fd = create_beside(target, tmp);
	free(target);
	if (fd < 0) {
		message__say("hotblocks: error: cannot write %s: %s\n", path, strerror(-fd));
		return -1;
	}
	close(fd);
	unlink(tmp);
	return 0;
}

/*
 * out=FILE: the stream goes to a new file beside it, renamed over it once
 * complete, so a run that fails leaves the earlier file as it was.
 */
static FILE *open_file(struct output *o, char **target, char tmp[PATH_MAX])
{
	const char *path = o->path;
	FILE *f;
	int fd;

	if (o->fd >= 0) {
		f = fdopen(o->fd, "w");
		if (f)
			o->fd = -1;	/* f owns it now */
		else
			message__say("hotblocks: error: cannot write %s: %s\n", path, strerror(errno));
		return f;
	}
	/* Made a link to an input since start(): still refused. */
	if (refuse_input(o, path) < 0)
		return NULL;
	*target = target_of(path);
	fd = *target ? create_beside(*target, tmp) : -ENOMEM;
	if (fd >= 0 && !(f = fdopen(fd, "w"))) {
		close(fd);
		unlink(tmp);
		tmp[0] = '\0';
		fd = -ENOMEM;
	}
	if (fd < 0) {
		message__say("hotblocks: error: cannot write %s: %s\n", path, strerror(-fd));
		return NULL;
	}
	return f;
}

int output__write(struct output *o, const struct stream_section_inputs *in)
{
	const char *path = o->path;
	char *target = NULL, tmp[PATH_MAX] = "";
	struct stream_section s;
	FILE *f = stdout;
	int ret = stream_section__assemble(&s, in);

	if (ret < 0)
		goto out;
	if (path && !(f = open_file(o, &target, tmp))) {
		ret = -EIO;
		goto out;
	}
	ret = stream_writer__write(f, &s.header, s.objs, s.objs_nr, s.counts, s.counts_nr);
	if (!ret && fflush(f))
		ret = -EIO;
	if (ret < 0)
		message__say("hotblocks: error: writing the stream to %s failed: %s\n",
			path ? path : "standard output", ret == -ENOMEM ? "out of memory" : strerror(errno));
	if (f != stdout && fclose(f) && !ret) {
		message__say("hotblocks: error: writing %s failed: %s\n", path, strerror(errno));
		ret = -EIO;
	}
	if (tmp[0] && !ret && rename(tmp, target) < 0) {
		message__say("hotblocks: error: writing %s failed: %s\n", path, strerror(errno));
		ret = -EIO;
	}
	if (tmp[0] && ret)
		unlink(tmp);
out:
	free(target);
	stream_section__release(&s);
	return ret;
}
