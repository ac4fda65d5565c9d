// SPDX-License-Identifier: MIT
/* The readers' error messages (see errf.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "errf.h"

int errf(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return rc;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return rc;
}

void verrf_at(char *err, size_t errlen, const char *name, uint64_t off, const char *fmt, va_list ap)
{
	int n;

	if (!err || !errlen)
		return;
	n = snprintf(err, errlen, "%s+0x%" PRIx64 ": ", name, off);
	if (n < 0 || (size_t)n >= errlen)
		return;
	vsnprintf(err + n, errlen - n, fmt, ap);
}

int errf_at(char *err, size_t errlen, int rc, const char *name, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrf_at(err, errlen, name, off, fmt, ap);
	va_end(ap);
	return rc;
}
