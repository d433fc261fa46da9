// Checks a Cypher document with Neo4j's own Cypher tooling (`@neo4j-cypher/language-support`
// on npm, the library behind Neo4j's editors), without a database.
//
//   node cypher_parse.mjs [FILE]        (reads stdin without FILE, or with "-")
//   node cypher_parse.mjs --serve       (many documents, one Node start-up: see below)
//
// Needs INTEROP_CYPHER_PREFIX: the npm prefix where .ci/interop.sh installed
// @neo4j-cypher/language-support (its node_modules/ is not on this script's resolution path).
//
// Two independent checks, and any error from either fails the document:
//   1. Neo4j's ANTLR grammar (the package's generated CypherCmdLexer/CypherCmdParser): every
//      lexer and parser error, through our own error listener.
//   2. lintCypherQuery(document, {defaultLanguage}), once as CYPHER 5 and once as CYPHER 25: it
//      runs Neo4j's Cypher front-end (the database's parser and semantic analysis, compiled to
//      JavaScript and shipped in the package) on each statement. Diagnostics of severity Error
//      count; warnings (unknown labels, cartesian products of MATCH (a), (b)) do not.
//
// Exit 0: prints one JSON object: {"statements": [{"line", "text", "strings", "names",
// "numbers", "booleans"}], "warnings": n}. One entry per non-empty statement, split at `;` by
// the package's parser wrapper; `line` is 1-based. The rest are the statement's literal tokens
// as Neo4j's lexer cut them, in order: `strings` raw string literals (quotes and escapes as
// written), `names` backtick-quoted names (as written), `numbers` number literals as written
// (with a unary minus), `booleans` true/false.
// Exit 1: one line per error on stderr, `line:column: [check] message`.
// Exit 2: usage or installation problem, or the parser crashed.
//
// --serve: loads the parser once, then reads JSON lines on stdin, each a JSON string (one
// document), and answers each with one JSON line on stdout, in order: {"exit": 0 or 1,
// "stdout": ..., "stderr": ...}, exactly the exit code and output the single-document use
// gives for that document. Every document is checked afresh (no state carries over). Ends
// at the end of stdin (exit 0); an unreadable line or a crash of the parser ends it with
// exit 2 and the message on stderr, as in the single-document use.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createInterface } from "node:readline";
import { format } from "node:util";

const prefix = process.env.INTEROP_CYPHER_PREFIX;
if (!prefix) {
    console.error("cypher_parse: set INTEROP_CYPHER_PREFIX to the npm prefix holding @neo4j-cypher/language-support");
    process.exit(2);
}
const args = process.argv.slice(2);
if (args.length > 1) {
    console.error("usage: node cypher_parse.mjs [FILE|-|--serve]");
    process.exit(2);
}
const serve = args[0] === "--serve";
let text;
if (!serve) {
    try {
        text = readFileSync(args.length === 0 || args[0] === "-" ? 0 : args[0], "utf8");
    } catch (e) {
        console.error(`cypher_parse: cannot read input: ${e.message}`);
        process.exit(2);
    }
}

// The package's ESM build does not load under plain Node (extensionless imports); its
// CommonJS build (package.json "require") does.
const require = createRequire(path.join(path.resolve(prefix), "package.json"));
let ls, antlr;
try {
    ls = require("@neo4j-cypher/language-support");
    antlr = require("antlr4");
} catch (e) {
    console.error(`cypher_parse: cannot load @neo4j-cypher/language-support from ${prefix}: ${e.message}`);
    process.exit(2);
}
const { CypherLexer, CypherParser, lintCypherQuery, parserWrapper } = ls;
if (typeof lintCypherQuery !== "function" || !CypherLexer || !CypherParser || !parserWrapper) {
    console.error("cypher_parse: @neo4j-cypher/language-support lacks lintCypherQuery/CypherParser/parserWrapper");
    process.exit(2);
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

// A crash inside the package is a setup problem (exit 2), never a verdict on the document.
function crashed(e) {
    process.stderr.write(`cypher_parse: the parser crashed: ${e && e.stack ? e.stack : e}\n`);
    process.exit(2);
}
process.on("uncaughtException", crashed);

// Checks one document: {exit: 0 or 1, stdout, stderr}, what the single-document use prints.
function check(text) {
    const errors = [];
    const seen = new Set();
    function report(line, column, check, message) {
        // ANTLR lists every token it expected (hundreds after a stray quote): keep the first few.
        message = message.replace(/expecting \{([^}]*)\}/, (all, list) => {
            const items = list.split(", ");
            return items.length <= 12 ? all : `expecting {${items.slice(0, 12).join(", ")}, … (${items.length} in all)}`;
        });
        const entry = `${line}:${column}: [${check}] ${message}`;
        if (!seen.has(entry)) {
            seen.add(entry);
            errors.push({ line, column, entry });
        }
    }

    // A document with no statements (the export of an empty network) is valid: there is
    // nothing to run. The grammar alone would demand a statement.
    if (text.trim() === "") {
        return { exit: 0, stdout: JSON.stringify({ statements: [], warnings: 0 }) + "\n", stderr: "" };
    }

    // 1. The ANTLR grammar, every error (ANTLR lines are 1-based, columns 0-based).
    const listener = {
        syntaxError(_recognizer, _symbol, line, column, message) {
            report(line, column + 1, "grammar", message);
        },
        reportAmbiguity() {},
        reportAttemptingFullContext() {},
        reportContextSensitivity() {},
    };
    const lexer = new CypherLexer(antlr.CharStreams.fromString(text));
    lexer.removeErrorListeners();
    lexer.addErrorListener(listener);
    const parser = new CypherParser(new antlr.CommonTokenStream(lexer));
    parser.removeErrorListeners();
    parser.addErrorListener(listener);
    parser.statementsOrCommands();

    // 2. Neo4j's front-end, through the linter (diagnostic positions are 0-based).
    const ERROR = 1;
    let warnings = 0;
    for (const version of ["CYPHER 5", "CYPHER 25"]) {
        const { diagnostics } = lintCypherQuery(text, { defaultLanguage: version }, false);
        for (const d of diagnostics) {
            if (d.severity === ERROR) {
                report(d.range.start.line + 1, d.range.start.character + 1, version, d.message);
            } else if (version === "CYPHER 5") {
                warnings += 1;
            }
        }
    }

    if (errors.length > 0) {
        errors.sort((a, b) => a.line - b.line || a.column - b.column);
        return { exit: 1, stdout: "", stderr: errors.map((e) => e.entry).join("\n") + "\n" };
    }

    const statements = [];
    for (const s of parserWrapper.parse(text, false).statementsParsing) {
        const tokens = s.tokens.filter((t) => t.type !== CypherLexer.EOF && t.type !== CypherLexer.SPACE);
        if (tokens.length === 0) continue;
        const of = (...types) => tokens.filter((t) => types.includes(t.type)).map((t) => t.text);
        // A number with its sign: `-` right before a number is a unary minus (in a pattern `-`
        // is followed by `[`, `(` or `>`, never by a number).
        const numbers = [];
        tokens.forEach((t, i) => {
            if (t.type === CypherLexer.DECIMAL_DOUBLE || t.type === CypherLexer.UNSIGNED_DECIMAL_INTEGER) {
                numbers.push((i > 0 && tokens[i - 1].type === CypherLexer.MINUS ? "-" : "") + t.text);
            }
        });
        statements.push({
            line: tokens[0].line,
            text: s.command.statement,
            strings: of(CypherLexer.STRING_LITERAL1, CypherLexer.STRING_LITERAL2),
            names: of(CypherLexer.ESCAPED_SYMBOLIC_NAME),
            numbers,
            booleans: of(CypherLexer.TRUE, CypherLexer.FALSE).map((b) => b.toLowerCase() === "true"),
        });
    }
    return { exit: 0, stdout: JSON.stringify({ statements, warnings }) + "\n", stderr: "" };
}

if (!serve) {
    const result = check(text);
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
            process.stderr.write(`cypher_parse: --serve wants one JSON string a line: ${e.message}\n`);
            process.exit(2);
        }
        let result;
        try {
            result = check(doc);
        } catch (e) {
            crashed(e);
        }
        process.stdout.write(answer(result));
    }
}
