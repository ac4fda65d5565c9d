#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Independent look at a perf.data fixture: its COMPRESSED records and whether a
# record is cut across two of them (uses the zstd command, not the C scanner).
#   test-data/perfdata/inspect.py FILE...
# Prints one line per COMPRESSED record and a summary line
#   FILE: compressed=N split=M
# where split counts decompressed records whose bytes start in one COMPRESSED
# record's output and end in a later one. Little-endian files only.
import struct
import subprocess
import sys

PERF_RECORD_COMPRESSED = 81


def records(buf, off, end):
    while end - off >= 8:
        typ, _misc, size = struct.unpack_from('<IHH', buf, off)
        if size < 8 or size > end - off:
            break
        yield off, typ, size
        off += size


def inspect(path):
    buf = open(path, 'rb').read()
    if buf[:8] != b'PERFILE2':
        sys.exit('%s: not a little-endian perf.data file' % path)
    hsize, = struct.unpack_from('<Q', buf, 8)
    if hsize == 16:
        start, end = 16, len(buf)
    else:
        start, size = struct.unpack_from('<QQ', buf, 40)
        end = start + size
    payloads = [(off, buf[off + 8:off + size])
                for off, typ, size in records(buf, start, end)
                if typ == PERF_RECORD_COMPRESSED]
    # perf 6.1 writes the whole recording as ONE zstd frame that is flushed,
    # never ended, at each COMPRESSED record: only the first payload starts with
    # the frame magic, and zstd -d reports "premature end" after printing every
    # flushed byte. So decode growing prefixes to find each record's output.
    stream = b''
    bounds = []
    for i, (off, payload) in enumerate(payloads):
        prefix = b''.join(p for _o, p in payloads[:i + 1])
        out = subprocess.run(['zstd', '-d', '-c', '-q'], input=prefix,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        print('  COMPRESSED at 0x%x: %d bytes -> %d bytes, magic %s' %
              (off, len(payload), len(out) - len(stream),
               'yes' if payload[:4] == b'\x28\xb5\x2f\xfd' else 'no'))
        stream = out
        bounds.append(len(stream))
    split = 0
    for off, _typ, size in records(stream, 0, len(stream)):
        split += sum(1 for b in bounds if off < b < off + size)
    print('%s: compressed=%d split=%d' % (path, len(payloads), split))
    return split


if __name__ == '__main__':
    for p in sys.argv[1:]:
        inspect(p)
