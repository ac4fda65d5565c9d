// SPDX-License-Identifier: MIT
// run.mjs PLUGIN FILE ROUNDS: format FILE ROUNDS times with the dprint Wasm
// plugin PLUGIN (an npm package: @dprint/json, @dprint/markdown) through
// @dprint/formatter, its default configuration.
import { createFromBuffer } from "@dprint/formatter";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const [plugin, file, rounds = "10"] = process.argv.slice(2);
const formatter = createFromBuffer(fs.readFileSync(require(plugin).getPath()));
formatter.setConfig({}, {});
const fileText = fs.readFileSync(file, "utf8");
const filePath = "input" + path.extname(file);
let chars = 0;
for (let i = 0; i < Number(rounds); i++)
	chars += formatter.formatText({ filePath, fileText }).length;
console.log(`pid ${process.pid} plugin ${plugin} file ${file} rounds ${rounds} chars ${chars}`);
