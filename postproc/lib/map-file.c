/* SPDX-License-Identifier: MIT */
/* A whole input file mapped (see map-file.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../plugin/lib/message.h"
#include "inputs.h"
#include "map-file.h"
#include "read-file.h"
#include "util.h"

/* Files mapped at once: a run maps a module and a .cwasm per side. */
#define MAX_MAPPED 16

/* A mapping the SIGBUS handler knows, with its message made in advance. */
struct slot {
	uintptr_t start, end;	/* end 0: free */
	char *msg;
	size_t msg_len;
};

static struct slot slots[MAX_MAPPED];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool handler_set;

/* Only async-signal-safe calls: write(2), _exit(2), signal(2). */
static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	uintptr_t a = (uintptr_t)si->si_addr;

	(void)uc;
	for (size_t i = 0; i < MAX_MAPPED; i++) {
		const struct slot *s = &slots[i];

		if (s->end && a >= s->start && a < s->end) {
			ssize_t n = write(STDERR_FILENO, s->msg, s->msg_len);

			(void)n;
			_exit(1);	/* an input error (cli/message.h: EXIT_INPUT) */
		}
	}
	/* not ours: returning repeats the fault, now with the default action */
	signal(sig, SIG_DFL);
}

/* The error, printable (its path is any bytes), into f. */
static void error_to(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void error_to(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message__vprint(f, "error", 0, fmt, ap);
	va_end(ap);
}

/* A slot for [p, p + len) of path; false when none is free (then read it instead). */
static bool take_slot(const uint8_t *p, size_t len, const char *path)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO }, old;
	char *msg = NULL;
	size_t msg_len = 0;
	FILE *f = open_memstream(&msg, &msg_len);
	bool ok = false;

	if (!f)
		return false;
	error_to(f, "%s: cut short while being read (changed by another program?)", path);
	if (fclose(f) || !msg)
		return false;
	pthread_mutex_lock(&lock);
	/* ours unless replaced since (a test harness has its own) */
	if (sigaction(SIGBUS, NULL, &old) || old.sa_sigaction != on_sigbus) {
		sigemptyset(&sa.sa_mask);
		handler_set = !sigaction(SIGBUS, &sa, NULL);
	}
	for (size_t i = 0; handler_set && !ok && i < MAX_MAPPED; i++) {
		struct slot *s = &slots[i];

		if (s->end)
			continue;
		s->msg = msg;
		s->msg_len = msg_len;
		s->start = (uintptr_t)p;
		__atomic_store_n(&s->end, (uintptr_t)p + len, __ATOMIC_RELEASE);
		ok = true;
	}
	pthread_mutex_unlock(&lock);
	if (!ok)
		free(msg);
	return ok;
}

static void drop_slot(const uint8_t *p)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < MAX_MAPPED; i++) {
		struct slot *s = &slots[i];

		if (s->end && s->start == (uintptr_t)p) {
			__atomic_store_n(&s->end, 0, __ATOMIC_RELEASE);
			free(s->msg);
			s->msg = NULL;
			break;
		}
	}
	pthread_mutex_unlock(&lock);
}

int map_file(const char *path, size_t max, const char *max_text, unsigned flags,
	     struct mapped_file *f, char *err, size_t errlen)
{
	struct stat st;
	uint8_t *buf;
	void *p;
	int fd, ret;

	memset(f, 0, sizeof(*f));
	/* Only a non-empty regular file within max is mapped; read_file says
	 * why anything else is refused, or reads it (a pipe). */
	if (stat(path, &st) || !S_ISREG(st.st_mode) || !st.st_size || (uint64_t)st.st_size > max)
		goto read;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		goto read;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !st.st_size || (uint64_t)st.st_size > max ||
	    (uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		goto read;	/* replaced meanwhile */
	}
	/* An input: no report may replace it (output-file.h). */
	if (inputs_note_fd(fd, path)) {
		close(fd);
		return errf(err, errlen, -ENOMEM, "%s: out of memory", path);
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ | (flags & MAP_FILE_WRITABLE ? PROT_WRITE : 0),
		 MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		goto read;	/* a file system that cannot map: read it */
	if (!take_slot(p, (size_t)st.st_size, path)) {
		munmap(p, (size_t)st.st_size);
		goto read;
	}
	f->buf = p;
	f->len = (size_t)st.st_size;
	f->mapped = true;
	f->writable = flags & MAP_FILE_WRITABLE;
	return 0;
read:
	ret = read_file(path, max, max_text, flags & ~(unsigned)MAP_FILE_WRITABLE, &buf, &f->len, err,
			errlen);
	f->buf = buf;
	return ret;
}

void map_file__forget_pages(struct mapped_file *f)
{
	/* read-only and private: the pages are the file's, dropped and read again */
	if (f->mapped && !f->writable)
		(void)madvise(f->buf, f->len, MADV_DONTNEED);
}

void map_file__forget_range(const struct mapped_file *f, const void *p, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), from, to;

	if (!f->mapped || !len || (const uint8_t *)p < f->buf ||
	    (const uint8_t *)p + len > f->buf + f->len)
		return;
	/* whole pages inside the range: those of the bytes around it may be written */
	from = ((uintptr_t)p + page - 1) & ~(page - 1);
	to = ((uintptr_t)p + len) & ~(page - 1);
	if (from < to)
		(void)madvise((void *)from, to - from, MADV_DONTNEED);
}

void unmap_file(struct mapped_file *f)
{
	if (f->mapped) {
		drop_slot(f->buf);
		munmap(f->buf, f->len);
	} else {
		free(f->buf);
	}
	memset(f, 0, sizeof(*f));
}
