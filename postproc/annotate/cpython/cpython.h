/* SPDX-License-Identifier: MIT */
/*
 * CPython's perf trampolines as their users know them
 * (test-data/jit-cpython312, jit-cpython313): CPython compiles no Python
 * code; with perf support on it runs each Python function through a small
 * trampoline of its own, named `py::QUALNAME:FILENAME`
 * (py::SequenceMatcher.find_longest_match:/usr/lib/python3.13/difflib.py),
 * one load per function, nothing to demangle, no data among its code, no
 * DEBUG_INFO.
 * * 3.12 `-X perf` (or PYTHONPERFSUPPORT=1) writes the trampolines' names to
 *   /tmp/perf-PID.map.
 * * 3.13 `-X perf_jit` writes a jitdump, /tmp/jit-PID.dump (not the working
 *   directory), whose header has e_machine 0 (and its timestamp in
 *   wall-clock µs): the plugin takes the machine from the recording
 *   (plugin/jit/dumps.h, dumps__settle_machines) and says so once. Its
 *   UNWINDING_INFO lets perf's DWARF unwinder go on through them.
 */
#ifndef POSTPROC_ANNOTATE_CPYTHON_H
#define POSTPROC_ANNOTATE_CPYTHON_H

#include "annotate/jit-runtime.h"

extern const struct jit_runtime jit_cpython;

#endif
