// SPDX-License-Identifier: MIT
// Bench workload (scripts/bench-big): sql.js (SQLite compiled to WebAssembly)
// on node fills a table and runs inserts, joins, aggregates, LIKE, ORDER BY
// and index look-ups for SECS seconds: a real V8 wasm profile of a few
// hundred hot functions, the VDBE interpreter among them.
//   node sqljs-queries.js MODULES_DIR [SECS]
'use strict';
const path = require('path');
const dir = process.argv[2];
const secs = Number(process.argv[3] || 4);
const initSqlJs = require(path.join(dir, 'sql.js/dist/sql-wasm.js'));
initSqlJs({ locateFile: (f) => path.join(dir, 'sql.js/dist', f) }).then((SQL) => {
	const db = new SQL.Database();
	db.run('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, grp INTEGER, v REAL)');
	db.run('CREATE TABLE g (grp INTEGER PRIMARY KEY, label TEXT)');
	const end = Date.now() + secs * 1000;
	let round = 0, rows = 0, n = 0;
	do {
		db.run('BEGIN');
		const ins = db.prepare('INSERT INTO t (name, grp, v) VALUES (?, ?, ?)');
		for (let i = 0; i < 2000; i++, n++)
			ins.run([`name-${(n * 2654435761) % 100003}`, n % 97, (n % 1009) / 7]);
		ins.free();
		db.run('INSERT OR REPLACE INTO g VALUES (?, ?)', [round % 97, `group ${round}`]);
		db.run('COMMIT');
		if (round === 0) db.run('CREATE INDEX t_grp ON t (grp)');
		for (const q of [
			'SELECT grp, count(*), sum(v), avg(v), max(name) FROM t GROUP BY grp ORDER BY 3 DESC',
			"SELECT count(*) FROM t WHERE name LIKE '%7%3%'",
			'SELECT t.id, g.label FROM t JOIN g ON t.grp = g.grp WHERE t.v > 100 ORDER BY t.name LIMIT 50',
			'SELECT upper(name), length(name), substr(name, 3, 4) FROM t WHERE grp = 13 ORDER BY v',
			'SELECT grp, group_concat(id) FROM (SELECT * FROM t ORDER BY id DESC LIMIT 3000) GROUP BY grp',
		]) {
			for (const r of db.exec(q)) rows += r.values.length;
		}
		if (round % 8 === 7) db.run('DELETE FROM t WHERE id % 5 = 0');
		round++;
	} while (Date.now() < end);
	console.log(`pid ${process.pid} rounds ${round} rows ${rows}`);
});
