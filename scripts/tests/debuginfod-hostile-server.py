#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A hostile debuginfod server on 127.0.0.1 for scripts/tests/debuginfod-hostile.sh.

It imitates debuginfod's one URL the plugin asks (/buildid/HEX/debuginfo) and
answers it as an attacker or a broken mirror would:
  garbage    200, bytes that are no ELF file
  huge       200, no Content-Length, zeros without end (as fast as it can)
  drip       200, one byte a second, without end
  redirect   302 to itself, without end
  wrongid    200, the ELF file FILE (a real debug file of another build)
  good       200, the ELF file FILE
Usage: debuginfod-hostile-server.py MODE PORTFILE [FILE]; the chosen port is
written to PORTFILE, each request's path appended to PORTFILE.log.
"""
import http.server
import sys
import time

mode, portfile = sys.argv[1], sys.argv[2]
body = open(sys.argv[3], "rb").read() if len(sys.argv) > 3 else b""


class Hostile(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, fmt, *args):
        with open(portfile + ".log", "a") as log:
            log.write("%s %s\n" % (self.command, self.path))

    def do_GET(self):
        self.log_message("")
        try:
            if mode == "redirect":
                time.sleep(0.01)  # a server that keeps up (a flood of connections would be refused: another case)
                self.send_response(302)
                self.send_header("Location", self.path)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            if mode in ("good", "wrongid", "garbage"):
                data = body if mode != "garbage" else b"<html>not found, but 200</html>\n" * 64
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            elif mode == "huge":
                self.end_headers()
                chunk = b"\0" * (1 << 20)
                while True:
                    self.wfile.write(chunk)
            elif mode == "drip":
                self.end_headers()
                while True:
                    self.wfile.write(b"\x7f")
                    self.wfile.flush()
                    time.sleep(1)
        except (BrokenPipeError, ConnectionResetError):
            pass


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
srv.daemon_threads = True
with open(portfile + ".tmp", "w") as f:
    f.write("%d\n" % srv.server_address[1])
import os
os.rename(portfile + ".tmp", portfile)
srv.serve_forever()
