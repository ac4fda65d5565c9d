/* SPDX-License-Identifier: MIT */
/* A second workload for the wasm-objdump cross-check: a bytecode interpreter
 * (a dense switch in a loop), recursion, 64-bit and unsigned arithmetic,
 * globals, a struct walked through pointers, and calls through a table. */

typedef unsigned long long u64;

struct node {
	struct node *next;
	int value;
	short weight;
	unsigned char tag;
};

static struct node pool[64];
static int stack[128];
int steps;

static int depth(const struct node *n)
{
	return n ? 1 + depth(n->next) : 0;
}

long long interpret(const unsigned char *code, int len, long long acc)
{
	int sp = 0;

	for (int pc = 0; pc < len; pc++) {
		steps++;
		switch (code[pc]) {
		case 0: acc += 1; break;
		case 1: acc -= 3; break;
		case 2: acc *= 7; break;
		case 3: acc = acc / 5 + (acc % 5); break;
		case 4: stack[sp++ & 127] = (int)acc; break;
		case 5: acc += stack[--sp & 127]; break;
		case 6: acc = (long long)((u64)acc >> 3); break;
		case 7: acc ^= acc << 13; break;
		case 8: if (acc < 0) pc += 2; break;
		case 9: acc = -acc; break;
		default: return acc;
		}
	}
	return acc;
}

int walk(int n)
{
	for (int i = 0; i < 64; i++) {
		pool[i].next = i + 1 < 64 && (i % 7) ? &pool[i + 1] : 0;
		pool[i].value = i * n;
		pool[i].weight = (short)(i - 32);
		pool[i].tag = (unsigned char)(i * 37);
	}
	int sum = 0;
	for (struct node *p = &pool[n & 63]; p; p = p->next)
		sum += p->value * p->weight + p->tag;
	return sum + depth(&pool[0]);
}

static u64 rotl(u64 x, int k) { return (x << k) | (x >> (64 - k)); }
static u64 mixa(u64 x) { return rotl(x * 0x9e3779b97f4a7c15ull, 31); }
static u64 mixb(u64 x) { return (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ull; }
static u64 (*const mixers[])(u64) = { mixa, mixb };

u64 hash64(u64 seed, unsigned rounds)
{
	for (unsigned i = 0; i < rounds; i++)
		seed = mixers[i & 1](seed) + i;
	return seed;
}
