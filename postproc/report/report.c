/* SPDX-License-Identifier: MIT */
/* The report's wire names (report.h). */
#include "lib/util.h"
#include "report.h"

const char *report__edge_kind_name(enum report_edge_kind kind)
{
	static const char *const names[] = {
		[REPORT_EDGE_FALLTHROUGH] = "fallthrough",
		[REPORT_EDGE_TAKEN] = "taken",
		[REPORT_EDGE_CASE] = "case",
	};

	return (unsigned)kind < ARRAY_SIZE(names) ? names[kind] : "?";
}
