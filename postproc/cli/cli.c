/* SPDX-License-Identifier: MIT */
/* What the commands share (cli.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "annotate/annotate.h"
#include "cli.h"
#include "lib/inputs.h"
#include "lib/term.h"
#include "output-file.h"
#include "render/formats.h"

size_t cli__parse_count(const char *opt, const char *arg)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno || v >= SIZE_MAX)
		message__usage_error("%s needs a non-negative integer, not '%s'", opt, arg);
	return (size_t)v;
}

void cli__parse_kinds(const char *arg, unsigned *kinds)
{
	if (stream__parse_kinds(arg, kinds))
		message__usage_error("--kind takes jit, native or kernel (or a comma list of them),"
				     " not '%s'", arg);
}

int cli__keep_kinds(struct stream *s, unsigned kinds)
{
	/* every kind is no filter: the report stays the one without it */
	if (!kinds || kinds == STREAM_KINDS_ALL)
		return 0;
	return stream__keep_kinds(s, kinds) ? message__error("out of memory") : 0;
}

int cli__parse_color(const char *arg)
{
	int mode = cli__color_mode(arg);

	if (mode < 0)
		message__usage_error("--color takes auto, always or never, not '%s'", arg);
	return mode;
}

int cli__color_mode(const char *arg)
{
	static const struct {
		const char *name;
		enum cli_color mode;
	} modes[] = {
		{ "auto", CLI_COLOR_AUTO },
		{ "always", CLI_COLOR_ALWAYS },
		{ "never", CLI_COLOR_NEVER },
	};

	if (!arg)
		return CLI_COLOR_ALWAYS;
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		if (!strcmp(arg, modes[i].name))
			return modes[i].mode;
	return -1;
}

bool cli__use_color(enum cli_color mode, FILE *out)
{
	const char *no_color = getenv("NO_COLOR");

	if (mode == CLI_COLOR_NEVER)
		return false;
	if (mode == CLI_COLOR_ALWAYS)
		return true;
	/* https://no-color.org: set and not empty disables colour by default. */
	return out == stdout && isatty(STDOUT_FILENO) && !(no_color && *no_color);
}

/*
 * What a file that failed to read as a stream is instead, judged by its first
 * bytes, for a message that says what to do: the usual slip is to give
 * hotblocks the recording itself.
 */
static const char *other_format(FILE *f, const char *path, char *buf, size_t len)
{
	unsigned char m[8];
	struct stat st;

	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || fseek(f, 0, SEEK_SET) ||
	    fread(m, 1, sizeof(m), f) != sizeof(m))
		return NULL;
	if (!memcmp(m, "PERFILE2", 8) || !memcmp(m, "2ELIFREP", 8) || !memcmp(m, "PERFFILE", 8))
		snprintf(buf, len, "%s is a perf.data recording, not a hotblocks stream: make the stream"
			 " with perf script -i %s --dlfilter hotblocks.so | hotblocks (or run perf"
			 " hotblocks report -i %s)", path, path, path);
	else if (!memcmp(m, "DTiJ", 4) || !memcmp(m, "JiTD", 4))
		snprintf(buf, len, "%s is a jitdump, not a hotblocks stream: the plugin reads it;"
			 " run perf script -i perf.data --dlfilter hotblocks.so | hotblocks", path);
	else if (!memcmp(m, "\177ELF", 4))
		snprintf(buf, len, "%s is an ELF file, not a hotblocks stream (a wasmtime .cwasm goes"
			 " with --cwasm; streams come from perf script --dlfilter hotblocks.so)", path);
	else if (!memcmp(m, "\0asm", 4))
		snprintf(buf, len, "%s is a WebAssembly module, not a hotblocks stream (it goes with"
			 " --wasm; streams come from perf script --dlfilter hotblocks.so)", path);
	else
		return NULL;
	return buf;
}

int cli__read_stream(struct stream *s, const char *path, const char *name, char *err,
		     size_t errlen)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "r");
	int ret;

	if (!name)
		name = is_stdin ? CLI_STDIN_NAME : path;
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	/* Standard input too, when it is a file (hotblocks -o a.hbs <a.hbs). */
	if (inputs_note_fd(fileno(f), name))
		ret = -ENOMEM;
	else
		ret = stream__read(s, f, name, err, errlen);
	if (ret && ret != -ENOMEM && !is_stdin)
		other_format(f, path, err, errlen);
	else if (ret && ret != -ENOMEM && !strncmp(err, CLI_STDIN_NAME ":1: ", 11))
		/* Not a stream from its first line: perf script without the plugin? */
		snprintf(err + strlen(err), errlen - strlen(err),
			 "; hotblocks reads what perf script --dlfilter hotblocks.so writes");
	if (!is_stdin)
		fclose(f);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory reading %s", name);
	return ret;
}

/* inputs_note_path(path, "<what> <path>"), if path is set. */
static int input_named(const char *what, const char *path)
{
	char *text;
	int ret;

	if (!path)
		return 0;
	if (asprintf(&text, "%s %s", what, path) < 0)
		return -ENOMEM;
	ret = inputs_note_path(path, text);
	free(text);
	return ret;
}

void cli__check_output(const char *output, char *const *streams, int nstreams,
			const struct annot_inputs *annot, int sides)
{
	/* No stream named: standard input is read. */
	int ret = nstreams ? 0 : inputs_note_fd(STDIN_FILENO, CLI_STDIN_NAME);

	for (int i = 0; i < nstreams && !ret; i++)
		ret = strcmp(streams[i], "-") ? input_named("the input stream", streams[i]) :
		      inputs_note_fd(STDIN_FILENO, CLI_STDIN_NAME);
	for (int s = 0; s < sides && !ret; s++)
		if (!(ret = input_named("the --cwasm file", annot[s].cwasm)) &&
		    !(ret = input_named("the --wasm file", annot[s].wasm)) &&
		    !(ret = input_named("the V8 code listing", annot[s].v8_code)))
			ret = input_named("a file of the --clif directory", annot[s].clif_dir);
	if (ret) {
		message__error("out of memory");
		exit(EXIT_INPUT);
	}
	if (output_file__check(output))
		exit(EXIT_USAGE);
}

int cli__stream_inputs(const struct stream *s)
{
	struct strset seen = { 0 };
	char *what;
	int ret = 0;

	for (size_t i = 0; i < s->runs_nr && !ret; i++) {
		const struct stream_run *r = &s->runs[i];

		if (r->input && strcmp(r->input, "-")) {
			if (asprintf(&what, "the recording %s that %s was made from", r->input,
				     r->origin) < 0)
				return -ENOMEM;
			ret = inputs_note_path(r->input, what);
			free(what);
		}
		for (size_t j = 0; j < r->jitdumps_nr && !ret; j++) {
			if (asprintf(&what, "the jitdump %s that %s was made from", r->jitdumps[j],
				     r->origin) < 0)
				return -ENOMEM;
			ret = inputs_note_path(r->jitdumps[j], what);
			free(what);
		}
	}
	for (size_t i = 0; i < s->objects_nr && !ret; i++) {
		const struct stream_object *o = &s->objects[i];
		const char *path = o->path;
		size_t seen_nr = seen.nr;

		/* Many objects come from one file: each file is looked at once. */
		if (!path || !*path)
			continue;
		if (!strset_add(&seen, path)) {
			ret = -ENOMEM;
			break;
		}
		if (seen.nr == seen_nr)
			continue;
		if (asprintf(&what, "the %s %s that %s was made from",
			     o->kind == HB_KIND_JIT ? "jitdump" : "code file", path, o->origin) < 0) {
			ret = -ENOMEM;
			break;
		}
		ret = inputs_note_path(path, what);
		free(what);
	}
	strset_release(&seen);
	return ret;
}

bool cli__stdin_is_piped(void)
{
	struct stat st;

	return !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode);
}

void cli__set_format(const struct output_format **format, const struct output_format *f, const char *file,
		     const char **format_file)
{
	if (*format && *format != f)
		message__usage_error("--%s and --%s are two outputs; choose one", (*format)->option,
				 f->option);
	*format = f;
	if (file && !*file)
		message__usage_error("--%s= needs a file name", f->option);
	if (file)
		*format_file = file;
}

void cli__output_file(const char **output, const char *format_file)
{
	if (format_file && *output && strcmp(format_file, *output))
		message__usage_error("two output files, '%s' and '%s'; give one", format_file, *output);
	if (format_file)
		*output = format_file;
}
