// split-schema cuts openapi-typescript's one file into files of at most
// 450 lines, as client/internal/gendoc cuts the Go client: each long
// interface (paths, webhooks, operations, components' schemas) becomes
// chunks of whole members, interfaces of their own in schema/<name>_<n>.ts,
// that the interface of the original name extends in schema.ts (the same
// type: its members are the chunks' together). Nothing else changes.
//
//   node scripts/split-schema.mjs <openapi-typescript output> <dir>
//
// writes <dir>/schema.ts and <dir>/schema/*.ts, removing any other .ts
// file there (a former cut's).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const maxLines = 450;
const [input, dir] = process.argv.slice(2);
if (!input || !dir) {
  console.error("usage: split-schema.mjs <schema.ts> <dir>");
  process.exit(2);
}
const lines = readFileSync(input, "utf8").split("\n");
const header = [];
let i = 0;
while (i < lines.length && !lines[i].startsWith("export ")) header.push(lines[i++]);

// blockAt reads the top-level block that starts at line i: its first line,
// its body and the index after its closing line.
function blockAt(i) {
  const first = lines[i];
  if (!first.endsWith("{")) return { first, body: null, next: i + 1 };
  let j = i + 1;
  while (lines[j] !== "}") j++;
  return { first, body: lines.slice(i + 1, j), next: j + 1 };
}

// members cuts a body into its members at indent: each with the comment
// lines before it, to the first line at that indent that ends with ";".
function members(body, indent) {
  const pad = " ".repeat(indent);
  const out = [];
  let cur = [];
  let inMember = false;
  for (const line of body) {
    cur.push(line);
    const atIndent = line.startsWith(pad) && line[indent] !== " ";
    if (!inMember) {
      const trimmed = line.trim();
      if (trimmed.startsWith("/**") || trimmed.startsWith("*")) {
        if (trimmed.endsWith("*/") || !trimmed.startsWith("/**")) continue;
        continue;
      }
      inMember = true;
      if (atIndent && line.endsWith(";")) {
        out.push(cur);
        cur = [];
        inMember = false;
      }
      continue;
    }
    if (atIndent && line.endsWith(";")) {
      out.push(cur);
      cur = [];
      inMember = false;
    }
  }
  if (cur.length) throw new Error(`split-schema: a member does not end: ${cur[0]}`);
  return out;
}

// chunks groups members into interfaces of at most maxLines lines.
function chunks(ms, room) {
  const out = [];
  let cur = [];
  let n = 0;
  for (const m of ms) {
    if (m.length > room) throw new Error(`split-schema: one member is ${m.length} lines: ${m[0]}`);
    if (n + m.length > room && cur.length) {
      out.push(cur);
      cur = [];
      n = 0;
    }
    cur.push(m);
    n += m.length;
  }
  if (cur.length) out.push(cur);
  return out;
}

const files = new Map();
const imports = [];
const preamble = ['import type { components, operations, paths, webhooks } from "../schema.js";', ""];

// cut writes name's members (at indent, dedented to 4) as chunk files and
// answers the names of their interfaces.
function cut(name, body, indent) {
  const names = [];
  const room = maxLines - preamble.length - 4;
  chunks(members(body, indent), room).forEach((group, k) => {
    const chunk = `${name}_${k + 1}`;
    const text = group.flat().map((l) => (indent > 4 ? l.slice(indent - 4) : l));
    const doc = `/** Members of ${name} (split-schema.mjs; do not edit: \`make clients\`). */`;
    files.set(`schema/${chunk}.ts`, [...preamble, doc, `export interface ${chunk} {`, ...text, "}", ""].join("\n"));
    imports.push(`import type { ${chunk} } from "./schema/${chunk}.js";`);
    names.push(chunk);
  });
  return names;
}

const out = [];
while (i < lines.length) {
  if (lines[i] === "") {
    i++;
    continue;
  }
  const { first, body, next } = blockAt(i);
  i = next;
  const m = /^export interface (\w+) \{$/.exec(first);
  if (!m || body === null) {
    out.push(first);
    continue;
  }
  const name = m[1];
  if (name === "components") {
    const kept = [];
    for (const member of members(body, 4)) {
      const open = member.findIndex((l) => l === "    schemas: {");
      if (open < 0) {
        kept.push(...member);
        continue;
      }
      const parts = cut("components_schemas", member.slice(open + 1, -1), 8);
      out.push(`export interface components_schemas extends ${parts.join(", ")} {}`);
      kept.push(...member.slice(0, open), "    schemas: components_schemas;");
    }
    out.push(first, ...kept, "}");
    continue;
  }
  if (body.length + 2 <= 60) {
    out.push(first, ...body, "}");
    continue;
  }
  out.push(`export interface ${name} extends ${cut(name, body, 4).join(", ")} {}`);
}

files.set("schema.ts", [...header, ...imports, ...out, ""].join("\n"));
mkdirSync(join(dir, "schema"), { recursive: true });
for (const f of readdirSync(join(dir, "schema"))) {
  if (f.endsWith(".ts") && !files.has(`schema/${f}`)) rmSync(join(dir, "schema", f));
}
for (const [name, text] of files) {
  if (text.split("\n").length - 1 > maxLines) throw new Error(`split-schema: ${name} has more than ${maxLines} lines`);
  writeFileSync(join(dir, name), text);
}
