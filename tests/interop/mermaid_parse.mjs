// Parses a Mermaid diagram with the real `mermaid` package, headless, without a browser.
//
//   node mermaid_parse.mjs [FILE]        (reads stdin without FILE, or with "-")
//   node mermaid_parse.mjs --serve       (many documents, one Node start-up: see below)
//
// Needs INTEROP_MERMAID_PREFIX: the npm prefix where .ci/interop.sh installed `mermaid` and
// `jsdom` (their node_modules/ is not on this script's resolution path).
//
// Exit 0: prints one JSON object, {"diagramType", "vertices": [{"id", "text", "label"}],
// "edges": [{"start", "end", "text", "label"}]} for a flowchart. `text` is what the parser
// stored; `label` is the text a rendered diagram shows for it (entity codes such as #quot;
// #35; #lt; decoded, HTML markup taken as markup).
// Exit 1: the parser's message on stderr (a syntax error, or a diagram that is not a
// flowchart). Exit 2: usage or installation problem.
//
// --serve: loads Mermaid once, then reads JSON lines on stdin, each a JSON string (one
// document), and answers each with one JSON line on stdout, in order: {"exit": 0 or 1,
// "stdout": ..., "stderr": ...}, exactly the exit code and output the single-document use
// gives for that document. Each document gets a fresh diagram and flowchart database (as
// Mermaid builds them per parse) and a fresh initialize(). Ends at the end of stdin (exit 0);
// an unreadable line ends it with exit 2.
//
// Mermaid only *parses* here: rendering lays text out with SVG getBBox(), which jsdom does not
// implement, so a render needs a real browser (mermaid-cli drives Chromium). Parsing runs the
// same grammar and flowchart database a render starts with, so what parses here renders there.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createInterface } from "node:readline";
import { format } from "node:util";
import { pathToFileURL } from "node:url";

const prefix = process.env.INTEROP_MERMAID_PREFIX;
if (!prefix) {
    console.error("mermaid_parse: set INTEROP_MERMAID_PREFIX to the npm prefix holding mermaid and jsdom");
    process.exit(2);
}
const args = process.argv.slice(2);
if (args.length > 1) {
    console.error("usage: node mermaid_parse.mjs [FILE|-|--serve]");
    process.exit(2);
}
const serve = args[0] === "--serve";
let text;
if (!serve) {
    try {
        text = readFileSync(args.length === 0 || args[0] === "-" ? 0 : args[0], "utf8");
    } catch (e) {
        console.error(`mermaid_parse: cannot read input: ${e.message}`);
        process.exit(2);
    }
}

const require = createRequire(path.join(path.resolve(prefix), "package.json"));
let JSDOM, mermaid;
try {
    ({ JSDOM } = require("jsdom"));
    // Mermaid sanitizes labels with DOMPurify, which needs a DOM window: give it jsdom's.
    const dom = new JSDOM("<!DOCTYPE html><html><body></body></html>");
    globalThis.window = dom.window;
    globalThis.document = dom.window.document;
    ({ default: mermaid } = await import(pathToFileURL(require.resolve("mermaid")).href));
} catch (e) {
    console.error(`mermaid_parse: cannot load mermaid/jsdom from ${prefix}: ${e.message}`);
    process.exit(2);
}

// What a rendered label shows: Mermaid stores entity codes (#quot; #35;) as placeholders,
// turns them into HTML entities (&quot; &#35;) in the SVG it writes (its decodeEntities), and
// the browser parses flowchart labels as HTML (htmlLabels). So: the same replacement, then the
// text content of that HTML. A raw "<b>" in a label renders as markup, not as text.
const scratch = globalThis.document.createElement("div");
function rendered(s) {
    if (typeof s !== "string") return s;
    scratch.innerHTML = s.replace(/\uFB02\xB0\xB0/g, "&#").replace(/\uFB02\xB0/g, "&").replace(/\xB6\xDF/g, ";");
    return scratch.textContent;
}

// In --serve, what the libraries print through console while checking a document goes into
// that document's answer (stdout or stderr, where the single-document use prints it), so
// that the real stdout carries only answers.
const printed = { stdout: "", stderr: "" };
function answer(result) {
    const full = { ...result, stdout: printed.stdout + result.stdout, stderr: printed.stderr + result.stderr };
    printed.stdout = printed.stderr = "";
    return JSON.stringify(full) + "\n";
}
if (serve) {
    const into = (stream) => (...args) => {
        printed[stream] += format(...args) + "\n";
    };
    console.log = console.info = console.debug = into("stdout");
    console.error = console.warn = into("stderr");
}

// Parses one document: {exit: 0 or 1, stdout, stderr}, what the single-document use prints.
async function check(text) {
    try {
        mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
        // Throws on any syntax error, like mermaid.parse() (which it runs first, as render does).
        await mermaid.parse(text);
        const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
        const type = diagram.type;
        if (!/^flowchart/.test(type)) {
            throw new Error(`not a flowchart: diagram type ${type}`);
        }
        const db = diagram.db;
        const vertices = [...db.getVertices().values()].map((v) => ({ id: v.id, text: v.text, label: rendered(v.text) }));
        const edges = db.getEdges().map((e) => ({ start: e.start, end: e.end, text: e.text, label: rendered(e.text) }));
        return { exit: 0, stdout: JSON.stringify({ diagramType: type, vertices, edges }) + "\n", stderr: "" };
    } catch (e) {
        const message = e && (e.message || e.str) ? e.message || e.str : String(e);
        return { exit: 1, stdout: "", stderr: message + "\n" };
    }
}

if (!serve) {
    const result = await check(text);
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    process.exitCode = result.exit;
} else {
    for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
        let doc;
        try {
            doc = JSON.parse(line);
            if (typeof doc !== "string") throw new Error("not a JSON string");
        } catch (e) {
            process.stderr.write(`mermaid_parse: --serve wants one JSON string a line: ${e.message}\n`);
            process.exit(2);
        }
        process.stdout.write(answer(await check(doc)));
    }
}
