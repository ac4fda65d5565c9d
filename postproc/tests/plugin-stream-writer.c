// SPDX-License-Identifier: MIT
/*
 * Test support: the plugin's stream writer, built into the post-processor's
 * tests so that a test can write a stream exactly as hotblocks.so does and
 * read it back with postproc's reader (test-stream-roundtrip.c). It needs
 * nothing but libc; its includes resolve next to it, in plugin/.
 */
#include "../../plugin/stream-writer.c"
