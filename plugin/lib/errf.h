/* SPDX-License-Identifier: MIT */
/* The readers' error messages, the one formatter of both programs: "NAME+0xOFF: what". */
#ifndef PLUGIN_LIB_ERRF_H
#define PLUGIN_LIB_ERRF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The readers' error messages, one line each, into err (nothing when err is
 * NULL or errlen is 0); both return rc, so a reader can `return errf(...)`.
 * errf_at() starts the line with "NAME+0xOFF: ", the byte offset in the
 * named file where the bad input is, which is how every reader of a binary
 * file points at a problem.
 */
int errf(char *err, size_t errlen, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int errf_at(char *err, size_t errlen, int rc, const char *name, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void verrf_at(char *err, size_t errlen, const char *name, uint64_t off, const char *fmt,
	      va_list ap) __attribute__((format(printf, 5, 0)));

#endif
