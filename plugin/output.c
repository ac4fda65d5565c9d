// SPDX-License-Identifier: MIT
/* The stream's destination (see output.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "run.h"
#include "stream-assemble.h"

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Why out=FILE (whose stat is st) may not be written, or NULL. */
static const char *input_named(const struct run *run, const struct stat *st)
{
	static char why[PATH_MAX + 64];
	struct stat in;

	if (strcmp(run->perf_data, "-") && !stat(run->perf_data, &in)) {
		if (same_file(&in, st))
			return "the input perf.data";
		/* perf record --threads writes a directory whose perf.data is DIR/data. */
		snprintf(why, sizeof(why), "%s/data", run->perf_data);
		if (S_ISDIR(in.st_mode) && !stat(why, &in) && same_file(&in, st))
			return "the input perf.data";
	}
	if (!fstat(STDIN_FILENO, &in) && S_ISREG(in.st_mode) && same_file(&in, st))
		return "perf's standard input";
	for (size_t i = 0; i < run->dumps.nr; i++) {
		if (!fstat(run->dumps.files[i].jd->fd, &in) && same_file(&in, st)) {
			snprintf(why, sizeof(why), "the jitdump %s", run->dumps.files[i].jd->path);
			return why;
		}
	}
	return NULL;
}

int output__open(struct run *run)
{
	const char *path = run->opts.out_path, *why;
	struct stat st;
	int fd;

	run->out_fd = -1;
	if (!path)
		return 0;
	if (!stat(path, &st) && (why = input_named(run, &st))) {
		fprintf(stderr, "hotblocks: error: out=%s is %s; refusing to overwrite it\n", path, why);
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "hotblocks: error: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* Created meanwhile as a link to an input: still refused. */
	if ((why = input_named(run, &st))) {
		fprintf(stderr, "hotblocks: error: out=%s is %s; refusing to overwrite it\n", path, why);
		close(fd);
		return -1;
	}
	run->out_fd = fd;
	return 0;
}

int output__write(struct run *run)
{
	const char *path = run->opts.out_path;
	struct stream_section s;
	FILE *f = stdout;
	int ret = stream_section__assemble(&s, run);

	if (ret < 0)
		goto out;
	if (run->out_fd >= 0) {
		struct stat st;

		/* A longer old file must not keep a tail of its own. */
		if ((!fstat(run->out_fd, &st) && S_ISREG(st.st_mode) && ftruncate(run->out_fd, 0) < 0) ||
		    !(f = fdopen(run->out_fd, "w"))) {
			fprintf(stderr, "hotblocks: error: cannot write %s: %s\n", path, strerror(errno));
			ret = -errno;
			goto out;
		}
		run->out_fd = -1;	/* f owns it now */
	}
	ret = stream_writer__write(f, &s.header, s.objs, s.objs_nr, s.counts, s.counts_nr);
	if (!ret && fflush(f))
		ret = -EIO;
	if (ret < 0)
		fprintf(stderr, "hotblocks: error: writing the stream to %s failed: %s\n",
			path ? path : "standard output", ret == -ENOMEM ? "out of memory" : strerror(errno));
	if (f != stdout && fclose(f) && !ret) {
		fprintf(stderr, "hotblocks: error: writing %s failed: %s\n", path, strerror(errno));
		ret = -EIO;
	}
out:
	stream_section__release(&s);
	return ret;
}
