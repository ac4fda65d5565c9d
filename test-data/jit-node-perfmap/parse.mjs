// SPDX-License-Identifier: MIT
// parse.mjs ROUNDS: parse acorn's own dist/acorn.js ROUNDS times with acorn
// (a JavaScript parser written in JavaScript; the code that runs is its
// dist/acorn.mjs, what "import" resolves to), ecmaVersion "latest".
import * as acorn from "acorn";
import fs from "node:fs";
import { fileURLToPath } from "node:url";

const file = fileURLToPath(new URL("node_modules/acorn/dist/acorn.js", import.meta.url));
const rounds = Number(process.argv[2] || 20);
const text = fs.readFileSync(file, "utf8");
let nodes = 0;
for (let i = 0; i < rounds; i++)
	nodes += acorn.parse(text, { ecmaVersion: "latest", sourceType: "script" }).body.length;
console.log(`pid ${process.pid} acorn ${acorn.version} file ${file} (${text.length} chars) rounds ${rounds} statements ${nodes}`);
