/* SPDX-License-Identifier: MIT */
/*
 * Work run on one long-lived thread other than the caller's, the caller
 * waiting for it. The helper thread is started at the first call and runs to
 * the end of the process, so that the calling thread starts one thread in
 * all, whatever the work starts in turn.
 *
 * Why: glibc gives a thread's next allocations the chunks it freed last
 * (its tcache), whichever thread allocated them, and the thread that starts
 * threads frees the memory of those that ended before (their cached stacks'
 * thread-local blocks). Work that starts threads, run here, leaves the
 * caller's heap as it was; a caller whose later results depend on the order
 * of its heap's addresses (Graphviz's layout does) then gets the same results
 * however many threads the work used.
 */
#ifndef POSTPROC_LIB_OFFTHREAD_H
#define POSTPROC_LIB_OFFTHREAD_H

/* Run fn(arg) on the helper thread and wait until it returns; when no thread
 * can be had, fn(arg) runs here. Not for two callers at once. */
void offthread__run(void (*fn)(void *arg), void *arg);

#endif
