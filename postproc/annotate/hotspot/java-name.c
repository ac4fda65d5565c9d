// SPDX-License-Identifier: MIT
/* Java's method signatures as perf shows them (see java-name.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "java-name.h"

/* Where the walk of a signature is: perf's modes, in its order. */
enum java_part {
	JAVA_PREFIX,	/* before the class's "L" */
	JAVA_CLASS,	/* the class, "java/util/X" */
	JAVA_METHOD,	/* its name, up to "(" */
	JAVA_TYPE,	/* the argument types */
	JAVA_ARG_CLASS,	/* an argument's class, up to its ";" */
};

/* The JVM's letters of the primitive types (JVMS 4.3.2). */
static const char *primitive(char c)
{
	switch (c) {
	case 'B': return "byte";
	case 'C': return "char";
	case 'D': return "double";
	case 'F': return "float";
	case 'I': return "int";
	case 'J': return "long";
	case 'S': return "short";
	case 'Z': return "boolean";
	default: return NULL;
	}
}

/* The signature s[0..end) into sb as perf's __demangle_java_sym writes it
 * from its MODE_PREFIX; false where perf gives up on it. */
static bool walk(struct strbuf *sb, const char *s, const char *end)
{
	enum java_part part = JAVA_PREFIX;
	unsigned args = 0, dims = 0;

	for (const char *q = s; q < end; q++) {
		const char *prim = primitive(*q);

		if (*q == 'L' && (part == JAVA_PREFIX || part == JAVA_TYPE)) {
			if (part == JAVA_TYPE && args++)
				strbuf_addstr(sb, ", ");
			/* an array of objects: perf keeps dims for the next primitive */
			part = part == JAVA_PREFIX ? JAVA_CLASS : JAVA_ARG_CLASS;
		} else if (prim && part == JAVA_TYPE) {
			if (args++)
				strbuf_addstr(sb, ", ");
			strbuf_addstr(sb, prim);
			for (; dims; dims--)
				strbuf_addstr(sb, "[]");
		} else if (*q == 'V' && part == JAVA_TYPE) {
			strbuf_addstr(sb, "void");
			for (; dims; dims--)
				strbuf_addstr(sb, "[]");
		} else if (*q == '[') {
			if (part != JAVA_TYPE)
				return false;
			dims++;
		} else if (*q == '(') {
			if (part != JAVA_METHOD)
				return false;
			strbuf_addch(sb, '(');
			part = JAVA_TYPE;
		} else if (*q == ')') {
			if (part != JAVA_TYPE)
				return false;
			strbuf_addch(sb, ')');
			args = 0;
		} else if (*q == ';') {
			if (part != JAVA_CLASS && part != JAVA_ARG_CLASS)
				return false;
			/* the dot between class and method; none before "<init>" */
			if (part == JAVA_CLASS && isalpha((unsigned char)q[1]))
				strbuf_addch(sb, '.');
			part = part == JAVA_CLASS ? JAVA_METHOD : JAVA_TYPE;
		} else if (*q == '/') {
			if (part != JAVA_CLASS && part != JAVA_ARG_CLASS)
				return false;
			strbuf_addch(sb, '.');
		} else {
			strbuf_addch(sb, *q);
		}
	}
	return true;
}

char *java_name__demangle(const char *name)
{
	/* The agent's names start with the class; perf ends them at the last ')',
	 * before the return type it does not show. */
	const char *close = strrchr(name, ')');
	struct strbuf sb = { 0 };
	size_t most = 3 * strlen(name);

	if (name[0] != 'L' || !close || !walk(&sb, name, close + 1) || sb.oom || !sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	if (sb.len > most)
		sb.buf[most] = '\0';
	return sb.buf;
}
