/* SPDX-License-Identifier: MIT */
/*
 * A small stack-machine interpreter compiled to WebAssembly: its dispatch is
 * one C `switch` over 17 dense opcodes, which clang turns into a wasm
 * br_table and V8's TurboFan into a jump table. Some cases fall through into
 * the next one on purpose (OP_INC2 into OP_INC, OP_SUB into OP_ADD), so the
 * case targets are real block boundaries, not only places after a jmp.
 *
 * run(n) assembles a bytecode program that loops n times over a mix of
 * arithmetic, memory and branch instructions, interprets it, and returns a
 * hash of the final state.
 */
typedef unsigned int u32;
typedef int i32;

enum op {
	OP_HALT,	/* stop */
	OP_PUSH,	/* push imm */
	OP_POP,		/* drop the top */
	OP_DUP,		/* duplicate the top */
	OP_SWAP,	/* swap the two top values */
	OP_INC2,	/* top += 1, then falls through into OP_INC */
	OP_INC,		/* top += 1 */
	OP_SUB,		/* b a -> b-a: negates a, then falls through into OP_ADD */
	OP_ADD,		/* b a -> b+a */
	OP_MUL,		/* b a -> b*a */
	OP_XOR,		/* b a -> b^a */
	OP_SHR,		/* b a -> b>>(a&31) */
	OP_AND,		/* b a -> b&a */
	OP_LOAD,	/* a -> mem[a & MASK] */
	OP_STORE,	/* v a -> ; mem[a & MASK] = v */
	OP_JNZ,		/* a -> ; if a != 0 jump to imm */
	OP_ROT,		/* c b a -> b a c */
	OP__NR
};

#define MEM_WORDS 256
#define MEM_MASK (MEM_WORDS - 1)
#define STACK_MAX 64
#define CODE_MAX 256

struct vm {
	u32 stack[STACK_MAX];
	u32 sp;
	u32 mem[MEM_WORDS];
	u32 code[CODE_MAX];
	u32 len;
	u32 steps;
	u32 counts[OP__NR];
};

static struct vm the_vm;

static void emit(struct vm *m, u32 op)
{
	if (m->len < CODE_MAX)
		m->code[m->len++] = op;
}

static void emit_imm(struct vm *m, u32 op, u32 imm)
{
	emit(m, op);
	emit(m, imm);
}

/*
 * The program, with the loop counter in mem[0]:
 *	mem[0] = n
 *   loop:
 *	x = mem[1]; x = (x * 33) ^ (x >> 7); x += 2 (inc2); mem[1] = x
 *	y = mem[x & 255]; y = y - x + 1; mem[128 + ((x >> 3) & 127)] = y
 *	rot/swap/dup shuffle of three values, popped again
 *	mem[0] = mem[0] - 1; if mem[0] != 0 goto loop
 *	halt
 */
static void assemble(struct vm *m, u32 n)
{
	u32 loop;

	m->len = 0;
	emit_imm(m, OP_PUSH, n);
	emit_imm(m, OP_PUSH, 0);
	emit(m, OP_STORE);
	loop = m->len;
	/* x = mem[1] */
	emit_imm(m, OP_PUSH, 1);
	emit(m, OP_LOAD);
	/* x * 33 */
	emit(m, OP_DUP);
	emit_imm(m, OP_PUSH, 33);
	emit(m, OP_MUL);
	/* ^ (x >> 7) */
	emit(m, OP_SWAP);
	emit_imm(m, OP_PUSH, 7);
	emit(m, OP_SHR);
	emit(m, OP_XOR);
	/* + 2 */
	emit(m, OP_INC2);
	/* mem[1] = x (keep a copy) */
	emit(m, OP_DUP);
	emit_imm(m, OP_PUSH, 1);
	emit(m, OP_STORE);
	/* y = mem[x & 255] - x + 1 */
	emit(m, OP_DUP);
	emit(m, OP_LOAD);
	emit(m, OP_SWAP);
	emit(m, OP_DUP);
	emit(m, OP_ROT);
	emit(m, OP_SWAP);
	emit(m, OP_SUB);
	emit(m, OP_INC);
	/* mem[128 + ((x >> 3) & 127)] = y: the upper half, away from the counter */
	emit(m, OP_SWAP);
	emit_imm(m, OP_PUSH, 3);
	emit(m, OP_SHR);
	emit_imm(m, OP_PUSH, 127);
	emit(m, OP_AND);
	emit_imm(m, OP_PUSH, 128);
	emit(m, OP_ADD);
	emit(m, OP_STORE);
	/* a shuffle that leaves the stack as it was */
	emit_imm(m, OP_PUSH, 5);
	emit_imm(m, OP_PUSH, 6);
	emit_imm(m, OP_PUSH, 7);
	emit(m, OP_ROT);
	emit(m, OP_POP);
	emit(m, OP_POP);
	emit(m, OP_POP);
	/* counter */
	emit_imm(m, OP_PUSH, 0);
	emit(m, OP_LOAD);
	emit_imm(m, OP_PUSH, 1);
	emit(m, OP_SUB);
	emit(m, OP_DUP);
	emit_imm(m, OP_PUSH, 0);
	emit(m, OP_STORE);
	emit_imm(m, OP_JNZ, loop);
	emit(m, OP_HALT);
}

static u32 pop(struct vm *m)
{
	return m->sp ? m->stack[--m->sp] : 0;
}

static void push(struct vm *m, u32 v)
{
	if (m->sp < STACK_MAX)
		m->stack[m->sp++] = v;
}

/* The interpreter loop: the switch below is the function's hot path. */
static u32 interpret(struct vm *m)
{
	u32 pc = 0, a, b, c;

	for (;;) {
		u32 op = pc < m->len ? m->code[pc] : OP_HALT;

		pc++;
		m->steps++;
		switch (op) {
		case OP_HALT:
			return m->steps;
		case OP_PUSH:
			push(m, pc < m->len ? m->code[pc] : 0);
			pc++;
			break;
		case OP_POP:
			(void)pop(m);
			break;
		case OP_DUP:
			a = pop(m);
			push(m, a);
			push(m, a);
			break;
		case OP_SWAP:
			a = pop(m);
			b = pop(m);
			push(m, a);
			push(m, b);
			break;
		case OP_INC2:
			if (m->sp)
				m->stack[m->sp - 1]++;
			/* fall through */
		case OP_INC:
			if (m->sp)
				m->stack[m->sp - 1]++;
			break;
		case OP_SUB:
			if (m->sp)
				m->stack[m->sp - 1] = -m->stack[m->sp - 1];
			/* fall through */
		case OP_ADD:
			a = pop(m);
			b = pop(m);
			push(m, b + a);
			break;
		case OP_MUL:
			a = pop(m);
			b = pop(m);
			push(m, b * a);
			break;
		case OP_XOR:
			a = pop(m);
			b = pop(m);
			push(m, b ^ a);
			break;
		case OP_SHR:
			a = pop(m);
			b = pop(m);
			push(m, b >> (a & 31));
			break;
		case OP_AND:
			a = pop(m);
			b = pop(m);
			push(m, b & a);
			break;
		case OP_LOAD:
			a = pop(m);
			push(m, m->mem[a & MEM_MASK]);
			break;
		case OP_STORE:
			a = pop(m);
			b = pop(m);
			m->mem[a & MEM_MASK] = b;
			break;
		case OP_JNZ:
			a = pop(m);
			if (a)
				pc = pc < m->len ? m->code[pc] : pc;
			else
				pc++;
			break;
		case OP_ROT:
			a = pop(m);
			b = pop(m);
			c = pop(m);
			push(m, b);
			push(m, a);
			push(m, c);
			break;
		default:
			/* an unknown opcode stops the machine */
			return ~m->steps;
		}
		m->counts[op < OP__NR ? op : 0]++;
	}
}

/* Exported: run the program n times round its loop; a hash of the result. */
__attribute__((export_name("run")))
u32 run(u32 n)
{
	struct vm *m = &the_vm;
	u32 h = 2166136261u;

	m->sp = 0;
	m->steps = 0;
	assemble(m, n);
	h ^= interpret(m);
	for (u32 i = 0; i < MEM_WORDS; i++)
		h = (h ^ m->mem[i]) * 16777619u;
	for (u32 i = 0; i < OP__NR; i++)
		h = (h ^ m->counts[i]) * 16777619u;
	return h;
}
