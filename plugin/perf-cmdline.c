// SPDX-License-Identifier: MIT
/* perf script's own command line, read from inside the plugin (see perf-cmdline.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf-cmdline.h"

/* perf script's options that drop samples before filter_event sees them;
 * each may be given as `--opt value` or `--opt=value`. */
static const char *const sample_filters[] = {
	"--time", "--pid", "--tid", "-C", "--cpu", "-c", "--comms", "-S", "--symbols",
	"--dsos", "--guestmount", "--switch-on", "--switch-off",
};

int perf_cmdline__parse(struct perf_cmdline *c, const char *args, size_t len)
{
	/* A copy with a NUL after the last argument, whether it had one or not. */
	char *buf = malloc(len + 1);
	const char *input = NULL;

	memset(c, 0, sizeof(*c));
	if (!buf)
		return -ENOMEM;
	memcpy(buf, args, len);
	buf[len] = 0;
	for (char *a = buf; a < buf + len; a += strlen(a) + 1) {
		char *next = a + strlen(a) + 1;
		bool has_next = next < buf + len;

		if ((!strcmp(a, "-i") || !strcmp(a, "--input")) && has_next)
			input = next;
		else if (!strncmp(a, "--input=", 8))
			input = a + 8;
		else if (!strncmp(a, "-i", 2) && a[2] && a[1] != '-')
			input = a + 2;
		for (size_t f = 0; f < sizeof(sample_filters) / sizeof(sample_filters[0]); f++) {
			size_t n = strlen(sample_filters[f]);

			if (!strncmp(a, sample_filters[f], n) && (a[n] == 0 || a[n] == '='))
				c->filters = true;
		}
	}
	if (input && !(c->input = strdup(input))) {
		free(buf);
		return -ENOMEM;
	}
	free(buf);
	return 0;
}

int perf_cmdline__read(struct perf_cmdline *c)
{
	char buf[8192];
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	return perf_cmdline__parse(c, buf, n > 0 ? (size_t)n : 0);
}

void perf_cmdline__release(struct perf_cmdline *c)
{
	free(c->input);
	memset(c, 0, sizeof(*c));
}

bool perf_cmdline__stdin_is_pipe(void)
{
	struct stat st;

	return !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode);
}
