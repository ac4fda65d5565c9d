// SPDX-License-Identifier: MIT
/*
 * The program of the native-mt-fork recording: for SECS seconds, two threads
 * and the main thread call libwork's work_run; meanwhile a forked child runs
 * it too without exec (on the maps it inherited), and another forked child
 * execs this program again ("child" mode), which runs it on maps of its own.
 *   mt SECS           the parent
 *   mt child SECS     what the exec'ed child runs
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

uint32_t work_run(uint32_t seed, int n);

static double secs;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Call work_run until secs have passed; the result keeps it from being optimised away. */
__attribute__((noinline)) static uint32_t spin(uint32_t seed)
{
	double end = now() + secs;
	uint32_t acc = seed;

	while (now() < end)
		acc += work_run(acc, 200);
	return acc;
}

static void *thread_main(void *arg)
{
	return (void *)(uintptr_t)spin((uint32_t)(uintptr_t)arg);
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	pid_t forked, execed;
	uint32_t acc;

	if (argc == 3 && !strcmp(argv[1], "child")) {
		secs = atof(argv[2]);
		printf("exec'ed child: %u\n", spin(3));
		return 0;
	}
	secs = argc > 1 ? atof(argv[1]) : 1;
	if ((forked = fork()) == 0) {
		printf("forked child: %u\n", spin(2));
		fflush(stdout);
		_exit(0);
	}
	if ((execed = fork()) == 0) {
		execl("/proc/self/exe", argv[0], "child", argc > 1 ? argv[1] : "1", (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, thread_main, (void *)(uintptr_t)(10 + i));
	acc = spin(1);
	for (int i = 0; i < 2; i++) {
		void *r;

		pthread_join(t[i], &r);
		acc += (uint32_t)(uintptr_t)r;
	}
	waitpid(forked, NULL, 0);
	waitpid(execed, NULL, 0);
	printf("parent: %u\n", acc);
	return 0;
}
