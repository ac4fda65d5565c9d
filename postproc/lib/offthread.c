// SPDX-License-Identifier: MIT
/* Work run on one long-lived thread other than the caller's (see offthread.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "offthread.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static bool started, failed;
static void (*job)(void *);	/* the work to run; NULL once it has run */
static void *job_arg;

static void *helper(void *unused)
{
	pthread_mutex_lock(&lock);
	for (;;) {
		while (!job)
			pthread_cond_wait(&changed, &lock);
		pthread_mutex_unlock(&lock);
		job(job_arg);
		pthread_mutex_lock(&lock);
		job = NULL;
		pthread_cond_broadcast(&changed);
	}
	return NULL;
}

void offthread__run(void (*fn)(void *arg), void *arg)
{
	pthread_t t;

	pthread_mutex_lock(&lock);
	if (!started && !failed) {
		pthread_attr_t attr;

		failed = pthread_attr_init(&attr) || pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) ||
			 pthread_create(&t, &attr, helper, NULL);
		pthread_attr_destroy(&attr);
		started = !failed;
	}
	if (failed) {
		pthread_mutex_unlock(&lock);
		fn(arg);
		return;
	}
	job = fn;
	job_arg = arg;
	pthread_cond_broadcast(&changed);
	while (job)
		pthread_cond_wait(&changed, &lock);
	pthread_mutex_unlock(&lock);
}
