// SPDX-License-Identifier: MIT
// gofmt.mjs FILE ROUNDS: format the Go source FILE ROUNDS times with
// @wasm-fmt/gofmt (Go's go/format, compiled to Wasm by TinyGo).
import { format } from "@wasm-fmt/gofmt";
import fs from "node:fs";

const [file, rounds = "10"] = process.argv.slice(2);
const source = fs.readFileSync(file, "utf8");
let chars = 0;
for (let i = 0; i < Number(rounds); i++)
	chars += format(source).length;
console.log(`pid ${process.pid} gofmt file ${file} rounds ${rounds} chars ${chars}`);
