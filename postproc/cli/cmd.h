/* SPDX-License-Identifier: MIT */
/* The commands (main.c's table): each takes its argv, argv[0] its name, and returns the exit status. */
#ifndef POSTPROC_CLI_CMD_H
#define POSTPROC_CLI_CMD_H

/* `hotblocks [options] [STREAM...]` (cmd-report.c): the report. */
int cmd_report(int argc, char **argv);

/* `hotblocks diff [options] BASE NEW` (cmd-diff.c): the comparison. */
int cmd_diff(int argc, char **argv);

#endif
