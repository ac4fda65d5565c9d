/* SPDX-License-Identifier: MIT */
/* From input to output, the same for every command (pipeline.h). */
#include <errno.h>

#include "output-file.h"
#include "pipeline.h"

int pipeline__read(struct stream *s, char *const *files, int n)
{
	char err[1024];
	int i, ret;

	for (i = 0; i < (n ? n : 1); i++)
		if (cli__read_stream(s, n ? files[i] : "-", NULL, err, sizeof(err)))
			return message__error("%s", err);
	if ((ret = stream__finish(s)))
		return message__error(ret == -ERANGE ? "the samples of one offset, summed over all"
				      " inputs, overflow 64 bits" : "out of memory");
	if (cli__stream_inputs(s))
		return message__error("out of memory");
	return 0;
}

int pipeline__write(const struct pipeline *p)
{
	struct render_opts ro = { 0 };
	struct output_file out;
	int ret;

	p->notes(p->model, false);
	if ((ret = output_file__open(&out, p->output)))
		return ret == -EEXIST ? EXIT_USAGE : EXIT_INPUT;
	ro.color = (p->format->needs & FORMAT_COLOR) && cli__use_color(p->color, out.f);
	ret = p->render(out.f, p->model, p->format, &ro);
	p->notes(p->model, true);
	ret = output_file__commit(&out, ret);
	return !ret ? EXIT_OK : ret == -EEXIST ? EXIT_USAGE : EXIT_INPUT;
}
