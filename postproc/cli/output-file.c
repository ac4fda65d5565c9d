/* SPDX-License-Identifier: MIT */
/* Outputs that never replace an input (output-file.h), written by the plugin's writer. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/inputs.h"
#include "message.h"
#include "output-file.h"

int output_file__check(const char *path)
{
	char *what;
	int ret = inputs_which(path, &what);

	if (ret < 0)
		return message__error("out of memory");
	if (!ret)
		return 0;
	message__error("the output %s is %s: refusing to overwrite it", path, what);
	free(what);
	return -EEXIST;
}

/* The writer's guard (> 0: refused, said why): the inputs noted so far,
 * which inputs_which looks up by the path. */
static int refuse_input(const char *path, const struct stat *st, void *ctx)
{
	(void)st;
	(void)ctx;
	return -output_file__check(path);
}

static const struct atomic_file_guard inputs_guard = { refuse_input, NULL };

int output_file__open(struct output_file *of, const char *path)
{
	int ret;

	*of = (struct output_file){ .path = path, .f = stdout };
	if (!path)
		return 0;
	ret = atomic_file__open(&of->file, path, &inputs_guard, ATOMIC_FILE_SIGNALS);
	of->f = of->file.f;
	if (ret > 0)
		return -ret;
	if (ret < 0) {
		message__error("%s: %s", path, strerror(-ret));
		return -1;
	}
	return 0;
}

int output_file__commit(struct output_file *of, int written)
{
	const char *name = of->path ? of->path : "<stdout>";
	int ret = 0, err;

	if (written == -ENOMEM)
		ret = message__error("out of memory");
	else if (written == -E2BIG)
		/* render-html.c: the page would pass --page-budget with no function in it */
		ret = message__error("%s: no page fits --page-budget: its script, style and summary"
				     " alone take more; give it more room (default 8M)", name);
	else if (written || fflush(of->f) || ferror(of->f))
		ret = message__error("%s: write error", name);
	if (of->f != stdout && atomic_file__close(&of->file) && !ret)
		ret = message__error("%s: write error", name);
	of->f = NULL;
	if (!ret && (err = atomic_file__commit(&of->file)))
		ret = err > 0 ? -err : message__error("%s: %s", name, strerror(-err));
	atomic_file__release(&of->file);
	return ret;
}
