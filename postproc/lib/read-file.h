/* SPDX-License-Identifier: MIT */
/* Reading a whole input file (a module, a .cwasm, a CLIF dump, a source file) into memory. */
#ifndef POSTPROC_READ_FILE_H
#define POSTPROC_READ_FILE_H

#include <stddef.h>
#include <stdint.h>

/* read_file() flags. */
enum {
	/*
	 * Also take a pipe, FIFO or socket (`--wasm <(zcat m.wasm.gz)`), read to
	 * its end and waiting for a writer as cat(1) would, in a buffer that
	 * never grows past max + 2 bytes. A device (/dev/zero, a terminal) is
	 * refused still. Without it only a regular file is read: the file is
	 * opened O_NONBLOCK, so a FIFO nobody writes to is refused at once
	 * instead of hanging the run.
	 */
	READ_FILE_PIPES = 1 << 0,
};

/*
 * The whole file at path into *buf (malloc()ed, NUL-terminated after its *len
 * bytes, so text can be read as a string), refusing anything over max bytes.
 * A regular file is read up to the size fstat() reports when it is opened (a
 * file that grows meanwhile stays bounded; one cut short is what was read),
 * and one over max is refused before any of it is read.
 *
 * Returns 0, or on failure leaves *buf NULL and *len 0, puts a message in err
 * (when errlen > 0) and returns:
 *   -errno   open(2) or fstat(2) failed          "PATH: <strerror>"
 *   -EISDIR  a directory                          "PATH: is a directory"
 *   -EINVAL  not a regular file, without PIPES    "PATH: not a regular file"
 *            a device, with PIPES                 "PATH: a character device, not a
 *                                                  regular file or a pipe"
 *   -EFBIG   larger than max                      "PATH: N bytes, larger than MAX_TEXT"
 *                                                 ("PATH: larger than MAX_TEXT" for a pipe)
 *   -ENOMEM                                       "PATH: out of memory"
 *   -EIO     read(2) failed                       "PATH+0xOFF: read failed: <strerror>"
 * max_text says max in words for the message ("1 GiB").
 */
int read_file(const char *path, size_t max, const char *max_text, unsigned flags, uint8_t **buf,
	      size_t *len, char *err, size_t errlen);

#endif
