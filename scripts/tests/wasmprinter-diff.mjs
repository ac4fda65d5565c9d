// SPDX-License-Identifier: MIT
// Differential run of the wasm decoder (postproc/annotate/wasm/wasm.c) against wasmprinter,
// module by module, with jco's own parse and print functions (those that
// `jco parse` and `jco print` call), loaded once: thousands of modules cost
// seconds instead of a node start each.
//
//   node wasmprinter-diff.mjs JCO DUMPER [--every N] [--keep DIR] INPUT...
//
// JCO is the jco executable (its package's dist/api.js is loaded), DUMPER
// build/tests/postproc-test-wasm (`--dump FILE`). An INPUT is a .wasm file,
// or a .wast script of the spec test suite: every module in it, at top level
// or inside an assertion, in text, `binary` or `quote` form, is given to jco
// parse; what it cannot build is counted and left out. Modules are compared
// once per distinct binary. --every N keeps only every Nth distinct module
// (a deterministic subset); --keep DIR saves the modules that differ.
//
// For each module: wasmprinter's instruction lines (trimmed, those not
// starting with "(" or ")": the lines the reference's Wasm column is made of)
// must equal the decoder's texts in order (its "-" for a function's final
// `end` left out). Output: "KEY VALUE" summary lines (modules by outcome;
// "instructions" counts those of the equal modules, "differing-instructions"
// the lines that differ in modules of equal length), then up to 20 "detail"
// lines; scripts/tests/wasm-vs-wasmprinter.sh judges them.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
if (args.length < 3) {
	console.error("usage: wasmprinter-diff.mjs JCO DUMPER [--every N] [--keep DIR] INPUT...");
	process.exit(2);
}
const [jcoBin, dumper] = args.splice(0, 2);
let every = 1, keep = null;
const inputs = [];
for (let i = 0; i < args.length; i++) {
	if (args[i] === "--every") every = Number(args[++i]);
	else if (args[i] === "--keep") keep = args[++i];
	else inputs.push(args[i]);
}
const { parse, print } = await import(pathToFileURL(join(dirname(realpathSync(jcoBin)), "api.js")));

// ---- .wast scripts: the s-expressions, as spans of the text ----

// Top-level forms of a .wast script as trees { start, end, kids, atom }.
function sexprs(text) {
	const root = { kids: [] }, stack = [root];
	let i = 0;
	const n = text.length;
	while (i < n) {
		const c = text[i];
		if (c === ";" && text[i + 1] === ";") {
			while (i < n && text[i] !== "\n") i++;
		} else if (c === "(" && text[i + 1] === ";") {
			let depth = 1;
			i += 2;
			while (i < n && depth) {
				if (text[i] === "(" && text[i + 1] === ";") depth++, i += 2;
				else if (text[i] === ";" && text[i + 1] === ")") depth--, i += 2;
				else i++;
			}
		} else if (c === "(") {
			const node = { start: i, kids: [] };
			stack[stack.length - 1].kids.push(node);
			stack.push(node);
			i++;
		} else if (c === ")") {
			const node = stack.pop();
			node.end = i + 1;
			if (!stack.length) throw new Error(`unbalanced ) at ${i}`);
			i++;
		} else if (c === '"') {
			const start = i++;
			while (i < n && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
			i++;
			stack[stack.length - 1].kids.push({ start, end: i, atom: text.slice(start, i) });
		} else if (/\s/.test(c)) {
			i++;
		} else {
			const start = i;
			while (i < n && !/[\s()";]/.test(text[i])) i++;
			if (i === start) i++;	// a lone ';'
			stack[stack.length - 1].kids.push({ start, end: i, atom: text.slice(start, i) });
		}
	}
	return root.kids;
}

// A string literal's bytes (the wast escapes: \n \t \r \' \" \\ \hh \u{...}).
function strBytes(lit) {
	const out = [], s = lit.slice(1, -1);
	for (let i = 0; i < s.length; i++) {
		const c = s[i];
		if (c !== "\\") {
			out.push(...Buffer.from(c));
			continue;
		}
		const d = s[++i];
		const simple = { n: 10, t: 9, r: 13, "'": 39, '"': 34, "\\": 92 };
		if (d in simple) out.push(simple[d]);
		else if (d === "u") {
			const close = s.indexOf("}", i);
			out.push(...Buffer.from(String.fromCodePoint(parseInt(s.slice(i + 2, close), 16))));
			i = close;
		} else {
			out.push(parseInt(s.slice(i, i + 2), 16));
			i++;
		}
	}
	return Buffer.from(out);
}

// The module forms of a script: { line, text } for jco parse.
function wastModules(path) {
	const text = readFileSync(path, "utf8");
	const found = [];
	const lineOf = (off) => text.slice(0, off).split("\n").length;
	const take = (node) => {
		const head = node.kids[0] && node.kids[0].atom;
		if (head !== "module") return;
		const kids = node.kids.slice(1);
		if (kids[0] && kids[0].atom === "definition") kids.shift();
		if (kids[0] && kids[0].atom === "instance") return;
		let body;
		const id = kids[0] && kids[0].atom && kids[0].atom.startsWith("$") ? kids.shift() : null;
		if (kids[0] && kids[0].atom === "quote") {
			body = kids.slice(1).map((k) => strBytes(k.atom).toString("utf8")).join(" ");
			found.push({ line: lineOf(node.start), text: `(module ${body})` });
			return;
		}
		if (kids[0] && kids[0].atom === "binary") {
			body = kids.map((k) => text.slice(k.start, k.end)).join(" ");
		} else {
			body = kids.map((k) => text.slice(k.start, k.end)).join("\n");
		}
		found.push({ line: lineOf(node.start), text: `(module ${id ? id.atom + " " : ""}${body})` });
	};
	for (const form of sexprs(text)) {
		if (!form.kids) continue;
		take(form);
		// (assert_invalid (module ...) "msg") and the like
		for (const kid of form.kids.slice(1)) if (kid.kids) take(kid);
	}
	return found;
}

// ---- comparison ----

const tmp = mkdtempSync(join(tmpdir(), "wasmprinter-diff."));
const stats = {
	inputs: inputs.length, modules: 0, unbuildable: 0, distinct: 0, compared: 0,
	instructions: 0, equal: 0, differ: 0, "differing-instructions": 0,
	"decoder-refused": 0, "decoder-crashed": 0, "printer-refused": 0, "both-refused": 0,
};
const details = [];
const detail = (s) => details.length < 20 && details.push(s);
const seen = new Set();
let distinct = 0;

function printedInsns(text) {
	return text.split("\n").map((l) => l.trim()).filter((l) => l && l[0] !== "(" && l[0] !== ")");
}

// Modules printed and waiting for the decoder, run in batches: one process
// (--dump-list) for many modules; a batch that dies is re-run one by one so
// the crash is pinned on its module.
let pending = [], pendingInsns = 0;

async function compare(bytes, where) {
	const hash = createHash("sha1").update(bytes).digest("hex");
	if (seen.has(hash)) return;
	seen.add(hash);
	stats.distinct++;
	if (distinct++ % every) return;
	stats.compared++;
	let want = null;
	try {
		want = printedInsns(await print(bytes));
	} catch {
		// wasmprinter refuses it: the decoder may refuse it too, or be lenient
	}
	const file = join(tmp, `${pending.length}.wasm`);
	writeFileSync(file, bytes);
	pending.push({ file, where, want, bytes, hash });
	pendingInsns += want ? want.length : 0;
	if (pending.length >= 500 || pendingInsns >= 1000000) flush();
}

function runDumper(batch) {
	const list = join(tmp, "list");
	writeFileSync(list, batch.map((m) => m.file).join("\n") + "\n");
	const r = spawnSync(dumper, ["--dump-list", list],
		{ encoding: "utf8", timeout: 600000, maxBuffer: 1 << 30 });
	if (r.signal || r.error || r.status !== 0) return null;
	const out = new Map();
	let cur = null;
	for (const l of r.stdout.split("\n")) {
		if (l.startsWith("== ")) out.set(l.slice(3), (cur = { lines: [], err: null }));
		else if (l.startsWith("!! ")) cur.err = l.slice(3);
		else if (l) cur.lines.push(l);
	}
	return out;
}

function flush() {
	const batch = pending;
	pending = [];
	pendingInsns = 0;
	if (!batch.length) return;
	let out = runDumper(batch);
	if (!out) {
		out = new Map();
		for (const m of batch) {
			const one = runDumper([m]);
			if (one) {
				out.set(m.file, one.get(m.file));
				continue;
			}
			stats["decoder-crashed"]++;
			detail(`crash ${m.where}`);
			out.set(m.file, null);
		}
	}
	for (const m of batch) {
		const res = out.get(m.file);
		if (res === null) continue;	// crashed, counted
		if (!res) throw new Error(`no dump for ${m.file}`);
		judge(m, res);
	}
}

function judge(m, res) {
	const { want, where } = m;
	if (res.err && want) {
		stats["decoder-refused"]++;
		detail(`refused ${where}: ${res.err}`);
		return;
	}
	if (!want) {
		stats[res.err ? "both-refused" : "printer-refused"]++;
		return;
	}
	const got = res.lines.map((l) => l.slice(l.indexOf("\t") + 1)).filter((t) => t !== "-");
	let i = 0;
	while (i < want.length && i < got.length && want[i] === got[i]) i++;
	if (i === want.length && i === got.length) {
		stats.equal++;
		stats.instructions += want.length;
		return;
	}
	stats.differ++;
	if (want.length === got.length)
		stats["differing-instructions"] += want.filter((w, k) => w !== got[k]).length;
	detail(`differ ${where}: instruction ${i}: wasmprinter "${want[i] ?? "(none)"}", decoder "${got[i] ?? "(none)"}"`);
	if (keep) {
		mkdirSync(keep, { recursive: true });
		writeFileSync(join(keep, `${m.hash}.wasm`), m.bytes);
	}
}

try {
	for (const path of inputs) {
		if (path.endsWith(".wasm")) {
			stats.modules++;
			await compare(readFileSync(path), basename(path));
			continue;
		}
		for (const m of wastModules(path)) {
			stats.modules++;
			let bytes;
			try {
				bytes = Buffer.from(await parse(m.text));
			} catch {
				stats.unbuildable++;
				continue;
			}
			await compare(bytes, `${path.split("/").slice(-2).join("/")}:${m.line}`);
		}
	}
	flush();
} finally {
	rmSync(tmp, { recursive: true, force: true });
}
for (const [k, v] of Object.entries(stats)) console.log(`${k} ${v}`);
for (const d of details) console.log(`detail ${d}`);
