// SPDX-License-Identifier: MIT
/* The stream's destination (see output.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/message.h"
#include "output.h"

/* Why out=FILE (whose file is st) may not be written, or NULL. */
static const char *input_named(const struct output *o, const struct stat *st)
{
	static char why[PATH_MAX + 64];
	struct stat in;

	if (strcmp(o->perf_data, "-") && atomic_file__is_recording(st, o->perf_data))
		return "the input perf.data";
	if (!fstat(STDIN_FILENO, &in) && S_ISREG(in.st_mode) && atomic_file__same(&in, st))
		return "perf's standard input";
	for (size_t i = 0; o->dumps && i < o->dumps->nr; i++) {
		if (!fstat(o->dumps->files[i].jd->fd, &in) && atomic_file__same(&in, st)) {
			snprintf(why, sizeof(why), "the jitdump %s", o->dumps->files[i].jd->path);
			return why;
		}
	}
	return NULL;
}

/* The writer's guard: out=path is refused when it is an input. */
static int refuse_input(const char *path, const struct stat *st, void *ctx)
{
	const char *why = input_named(ctx, st);

	if (!why)
		return 0;
	message__print("error", MESSAGE_LINES, "out=%s is %s; refusing to overwrite it\n", path, why);
	return 1;
}

/* Open out=FILE into o->file: 0, or -1 after saying why not. */
static int open_file(struct output *o)
{
	int ret;

	o->guard = (struct atomic_file_guard){ refuse_input, o };
	ret = atomic_file__open(&o->file, o->path, &o->guard, 0);
	if (ret < 0)
		message__print("error", MESSAGE_LINES, "cannot write %s: %s\n", o->path, strerror(-ret));
	return ret ? -1 : 0;
}

void output__init(struct output *o, const char *path, const char *perf_data, const struct dumps *dumps)
{
	*o = (struct output){ .path = path, .perf_data = perf_data, .dumps = dumps };
}

void output__release(struct output *o)
{
	atomic_file__release(&o->file);
}

int output__open(struct output *o)
{
	output__release(o);
	if (!o->path)
		return 0;
	if (open_file(o) < 0)
		return -1;
	/* A file is written only at the end (its new file was made and is
	 * removed: a missing directory or a forbidden one failed now); what is
	 * written in place stays open, as standard output. */
	if (o->file.tmp)
		atomic_file__release(&o->file);
	return 0;
}

/* Close out=FILE and rename it into place once the stream is in it (ret 0). */
static int commit_file(struct output *o, int ret)
{
	int err = atomic_file__close(&o->file);

	if (err && !ret) {
		message__print("error", MESSAGE_LINES, "writing %s failed: %s\n", o->path, strerror(-err));
		ret = -EIO;
	}
	if (!ret && (err = atomic_file__commit(&o->file))) {
		if (err < 0)
			message__print("error", MESSAGE_LINES, "writing %s failed: %s\n", o->path, strerror(-err));
		ret = -EIO;
	}
	atomic_file__release(&o->file);
	return ret;
}

int output__write(struct output *o, const struct stream_section_inputs *in)
{
	const char *path = o->path;
	struct stream_section s;
	FILE *f = stdout;
	int ret = stream_section__assemble(&s, in);

	if (ret < 0)
		goto out;
	/* Made a link to an input since output__open: still refused. */
	if (path && !o->file.f && open_file(o) < 0) {
		ret = -EIO;
		goto out;
	}
	if (path)
		f = o->file.f;
	ret = stream_writer__write(f, &s.header, s.objs, s.objs_nr, s.counts, s.counts_nr);
	if (!ret && fflush(f))
		ret = -EIO;
	if (ret < 0)
		message__print("error", MESSAGE_LINES, "writing the stream to %s failed: %s\n",
			path ? path : "standard output", ret == -ENOMEM ? "out of memory" : strerror(errno));
	if (path)
		ret = commit_file(o, ret);
out:
	stream_section__release(&s);
	return ret;
}
