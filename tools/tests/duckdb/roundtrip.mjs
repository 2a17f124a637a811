// SPDX-License-Identifier: GPL-2.0
// The DuckDB round trip of memorizer export: load the objects and accesses
// tables of INPUT (exported into DIR) into DuckDB, with the types the
// export man page documents, and check that SQL GROUP BYs give exactly
// memorizer report's figures for the same INPUT: per call site, per pid,
// per function (with a symbol file) and per cache (binary streams); and
// that the accesses' offset and offset_end are memorizer text --offsets'
// (null where it writes 0,0).
//
//   node roundtrip.mjs MEMORIZER INPUT DIR csv|jsonl [SYSTEM_MAP]
//
// Exits 0 when every figure matches, 1 naming each one that does not.
import { execFileSync } from 'node:child_process';
import { DuckDBInstance } from '@duckdb/node-api';

const [memorizer, input, dir, format, systemMap] = process.argv.slice(2);
if (!dir || !['csv', 'jsonl'].includes(format)) {
	console.error('usage: node roundtrip.mjs MEMORIZER INPUT DIR csv|jsonl [SYSTEM_MAP]');
	process.exit(2);
}

// The schema of memorizer export (memorizer help export); ADDRESS is VARCHAR.
const schema = {
	objects: {
		id: 'UBIGINT', kind: 'VARCHAR', address: 'VARCHAR', size: 'UBIGINT',
		size_alloc: 'UBIGINT', alloc_ip: 'VARCHAR', alloc_function: 'VARCHAR',
		cache: 'VARCHAR', pid: 'UINTEGER', comm: 'VARCHAR',
		alloc_jiffies: 'UBIGINT', free_jiffies: 'UBIGINT', free_ip: 'VARCHAR',
		free_function: 'VARCHAR', free_api: 'VARCHAR',
	},
	accesses: {
		object_id: 'UBIGINT', ip: 'VARCHAR', function: 'VARCHAR',
		file: 'VARCHAR', line: 'UINTEGER', pid: 'UINTEGER',
		reads: 'UBIGINT', writes: 'UBIGINT', offset: 'UINTEGER',
		offset_end: 'UINTEGER',
	},
};

function sqlString(s) {
	return `'${s.replaceAll("'", "''")}'`;
}

function columnsArg(cols) {
	return '{' + Object.entries(cols)
		.map(([name, type]) => `${sqlString(name)}: ${sqlString(type)}`)
		.join(', ') + '}';
}

// A CSV file's rows as objects keyed by its header (RFC 4180 quoting).
function parseCsv(text) {
	const rows = [];
	let row = [], field = '', quoted = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (quoted) {
			if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
			else if (c === '"') quoted = false;
			else field += c;
		} else if (c === '"') quoted = true;
		else if (c === ',') { row.push(field); field = ''; }
		else if (c === '\n') { row.push(field); rows.push(row); row = []; field = ''; }
		else field += c;
	}
	const [header, ...body] = rows;
	return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
}

function report(by, withSymbols) {
	const args = ['report', input, '--by', by, '--csv'];
	if (withSymbols) args.push('--system-map', systemMap);
	return parseCsv(execFileSync(memorizer, args, { encoding: 'utf8' }));
}

const instance = await DuckDBInstance.create(':memory:');
const db = await instance.connect();
for (const [table, cols] of Object.entries(schema)) {
	const path = sqlString(`${dir}/${table}.${format}`);
	const reader = format === 'csv'
		? `read_csv(${path}, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"', columns = ${columnsArg(cols)})`
		: `read_json(${path}, format = 'newline_delimited', columns = ${columnsArg(cols)})`;
	await db.run(`CREATE TABLE ${table} AS SELECT * FROM ${reader}`);
}
const binary = (await db.runAndReadAll(
	'SELECT count(*) FILTER (WHERE size_alloc IS NOT NULL) FROM objects')).getRowsJS()[0][0] > 0n;

// Per object: its reads and writes, summed over its counters.
const perObject = `per_object AS (
	SELECT o.*, coalesce(a.r, 0) AS r, coalesce(a.w, 0) AS w
	FROM objects o LEFT JOIN (SELECT object_id, sum(reads) AS r, sum(writes) AS w
				  FROM accesses GROUP BY object_id) a ON a.object_id = o.id)`;
const summary = (key) => `WITH ${perObject}
	SELECT ${key} AS key, count(*) AS objects,
		count(*) FILTER (WHERE free_jiffies IS NULL) AS live,
		sum(size) AS bytes, sum(coalesce(size_alloc, size)) AS bytes_alloc,
		sum(r) AS reads, sum(w) AS writes,
		count(*) FILTER (WHERE r = 0) AS never_read,
		count(*) FILTER (WHERE w = 0) AS never_written,
		count(*) FILTER (WHERE free_ip = 'deadbeef') AS missed_free
	FROM per_object GROUP BY 1`;
const summaryColumns = ['objects', 'live', 'bytes', 'reads', 'writes',
	'never_read', 'never_written', 'missed_free'];

const checks = [
	{ by: 'callsite', sql: summary('alloc_ip'),
	  columns: binary ? [...summaryColumns, 'bytes_alloc'] : summaryColumns },
	{ by: 'pid', sql: `SELECT pid::VARCHAR AS key, sum(objects) AS objects,
			sum(bytes) AS bytes, sum(reads) AS reads, sum(writes) AS writes,
			sum(touched) AS objects_accessed
		FROM (SELECT pid, count(*) AS objects, sum(size) AS bytes, 0 AS reads,
			     0 AS writes, 0 AS touched FROM objects GROUP BY pid
		      UNION ALL
		      SELECT pid, 0, 0, sum(reads), sum(writes), count(DISTINCT object_id)
		      FROM accesses GROUP BY pid) GROUP BY pid`,
	  columns: ['objects', 'bytes', 'reads', 'writes', 'objects_accessed'] },
];
if (systemMap)
	checks.push({ by: 'function', symbols: true, sql: `
		WITH per_function AS (
			SELECT coalesce(function, ip) AS fn, object_id, sum(reads) AS r,
			       sum(writes) AS w, count(*) AS n
			FROM accesses GROUP BY 1, 2)
		SELECT fn AS key, sum(r + w) AS accesses, sum(r) AS reads, sum(w) AS writes,
		       sum(n) AS sites, count(*) AS objects, sum(o.size) AS bytes
		FROM per_function f JOIN objects o ON o.id = f.object_id GROUP BY fn`,
		columns: ['accesses', 'reads', 'writes', 'sites', 'objects', 'bytes'] });
if (binary)
	checks.push({ by: 'cache', sql: summary('coalesce(cache, kind)'),
		      columns: [...summaryColumns, 'bytes_alloc'] });

let failures = 0;
for (const check of checks) {
	const want = report(check.by, check.symbols);
	const got = new Map();
	for (const row of (await db.runAndReadAll(check.sql)).getRowObjectsJS())
		got.set(String(row.key), row);
	for (const w of want) {
		const key = w[check.by];
		const g = got.get(key);
		got.delete(key);
		if (!g) {
			console.log(`--by ${check.by} ${key}: in report, not in SQL`);
			failures++;
			continue;
		}
		for (const col of check.columns)
			if (String(g[col]) !== w[col]) {
				console.log(`--by ${check.by} ${key} ${col}: report ${w[col]}, SQL ${g[col]}`);
				failures++;
			}
	}
	for (const key of got.keys()) {
		console.log(`--by ${check.by} ${key}: in SQL, not in report`);
		failures++;
	}
	console.log(`--by ${check.by}: ${want.length} rows x ${check.columns.length} columns compared`);
}
// Every access counter's range, as text --offsets has it: the same
// multiset of (ip, pid, reads, writes, offset, offset_end).
{
	const count = (m, k) => m.set(k, (m.get(k) ?? 0) + 1);
	const want = new Map(), got = new Map();
	const text = execFileSync(memorizer, ['text', '--offsets', input],
				  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
	for (const line of text.split('\n'))
		if (line.startsWith('  ')) {
			const [ip, pid, w, r, off, end] = line.trim().split(',');
			count(want, [ip, pid, r, w, off, end].join(','));
		}
	const rows = (await db.runAndReadAll(`SELECT ip, pid, reads, writes,
		coalesce("offset", 0) AS o, coalesce(offset_end, 0) AS e,
		("offset" IS NULL) = (offset_end IS NULL) AS paired FROM accesses`)).getRowObjectsJS();
	for (const row of rows) {
		if (!row.paired) {
			console.log(`offsets: ${row.ip} pid ${row.pid}: offset and offset_end not both null`);
			failures++;
		}
		count(got, [row.ip, row.pid, row.reads, row.writes, row.o, row.e].join(','));
	}
	for (const [k, n] of want)
		if (got.get(k) !== n) {
			console.log(`offsets: ${k}: text --offsets ${n}, SQL ${got.get(k) ?? 0}`);
			failures++;
		}
	if (got.size !== want.size) {
		console.log(`offsets: ${got.size} distinct in SQL, ${want.size} in text --offsets`);
		failures++;
	}
	console.log(`offsets: ${rows.length} access rows compared`);
}
db.closeSync();
if (failures) {
	console.log(`${failures} figures differ`);
	process.exit(1);
}
console.log('all figures match');
