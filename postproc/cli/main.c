/* SPDX-License-Identifier: MIT */
/* hotblocks: its commands, by name; without one, the report. */
#include <string.h>

#include "cmd.h"
#include "lib/util.h"

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "diff", cmd_diff },
};

int main(int argc, char **argv)
{
	for (size_t i = 0; argc > 1 && i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	return cmd_report(argc, argv);
}
