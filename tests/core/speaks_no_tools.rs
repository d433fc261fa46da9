//! The graph core speaks in library terms only: no string literal of the core a
//! library user gets (`--no-default-features`: `src/network/`, `src/error.rs`,
//! `src/registry.rs`, `src/budget.rs`, `src/limits.rs`, `src/clock.rs`) names an
//! MCP tool (`network_…`). Advice
//! in tool terms belongs to the MCP layer, which renders the same errors with it
//! (`src/mcp/error_object.rs`); a message of the core names the library's own
//! calls (`Network::extract`), read by a Rust program that has no tools.
//!
//! Only string literals are scanned, found by a small lexer (comments, char
//! literals and lifetimes skipped, raw strings read): docs and identifiers may
//! name anything.
//!
//! `src/interchange/` (the formats, a library feature) is scanned too. The list
//! is checked against `src/lib.rs`: a module is scanned or named server-only.

use std::path::{Path, PathBuf};

/// Names of the `network_…` shape that are not tools, each with why it may
/// appear in a core message or context.
const NOT_TOOLS: [(&str, &str); 2] = [
    (
        "network_name",
        "a field and context key: the registry's name argument, as `Error::context` names it",
    ),
    (
        "network_not_found",
        "a stable error code (`Error::code`), the same for every caller",
    ),
];

/// The directories of library modules: the graph core, and the formats.
const CORE_DIRS: [&str; 3] = ["src/network", "src/interchange", "src/query"];

/// The modules of the server alone (hidden from the library's docs), which
/// may name tools.
const SERVER_ONLY: [&str; 8] = [
    "cli", "demo", "fuzzing", "http", "logging", "mcp", "storage", "view",
];

/// The library modules beside [`CORE_DIRS`].
const CORE_MODULES: [&str; 7] = [
    "src/warnings.rs",
    "src/error.rs",
    "src/registry.rs",
    "src/budget.rs",
    "src/limits.rs",
    "src/clock.rs",
    "src/paging.rs",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The core's source files: every `.rs` under `src/network/`, then the modules
/// beside it, sorted.
fn core_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending: Vec<PathBuf> = CORE_DIRS.iter().map(|dir| root().join(dir)).collect();
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source directory") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    for module in CORE_MODULES {
        files.push(root().join(module));
    }
    files.sort();
    files
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every string literal of a Rust source (plain, byte, C and raw strings), with
/// the line it starts on and its text as written (escapes not decoded).
fn string_literals(source: &str) -> Vec<(usize, String)> {
    let chars: Vec<char> = source.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let mut found = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(chars[i] == '\n');
                    i += 1;
                }
            }
        } else if c == '"' {
            let start = line;
            let mut text = String::new();
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                let take = if chars[i] == '\\' { 2 } else { 1 };
                for _ in 0..take {
                    if let Some(&ch) = chars.get(i) {
                        line += usize::from(ch == '\n');
                        text.push(ch);
                    }
                    i += 1;
                }
            }
            i += 1;
            found.push((start, text));
        } else if c == '\'' {
            if at(i + 1) == '\\' {
                // An escaped char literal: '\'', '\n', '\u{1F600}'.
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3; // a char literal such as '"'
            } else {
                i += 1; // a lifetime or a label
            }
        } else if is_ident(c) {
            let begin = i;
            while i < chars.len() && is_ident(chars[i]) {
                i += 1;
            }
            let word: String = chars[begin..i].iter().collect();
            if matches!(word.as_str(), "r" | "br" | "cr") {
                let mut hashes = 0;
                while at(i + hashes) == '#' {
                    hashes += 1;
                }
                if at(i + hashes) == '"' {
                    // A raw string: up to a quote followed by as many hashes.
                    let start = line;
                    let mut text = String::new();
                    i += hashes + 1;
                    while i < chars.len()
                        && !(chars[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#'))
                    {
                        line += usize::from(chars[i] == '\n');
                        text.push(chars[i]);
                        i += 1;
                    }
                    i += hashes + 1;
                    found.push((start, text));
                }
            }
        } else {
            i += 1;
        }
    }
    found
}

/// The `network_[a-z_]+` words in `text`, each with its char offset.
fn tool_shaped_words(text: &str) -> Vec<(usize, String)> {
    let chars: Vec<char> = text.chars().collect();
    let prefix: Vec<char> = "network_".chars().collect();
    let mut words = Vec::new();
    let mut i = 0;
    while i + prefix.len() < chars.len() {
        let starts_word = i == 0 || !is_ident(chars[i - 1]);
        if starts_word
            && chars[i..i + prefix.len()] == prefix[..]
            && chars[i + prefix.len()].is_ascii_lowercase()
        {
            let mut end = i + prefix.len();
            while end < chars.len() && (chars[end].is_ascii_lowercase() || chars[end] == '_') {
                end += 1;
            }
            words.push((i, chars[i..end].iter().collect()));
            i = end;
        } else {
            i += 1;
        }
    }
    words
}

#[test]
fn no_core_message_names_a_tool() {
    let mut offenders = Vec::new();
    for path in core_files() {
        let source = std::fs::read_to_string(&path).expect("a readable source file");
        let shown = path
            .strip_prefix(root())
            .unwrap_or(&path)
            .display()
            .to_string();
        for (start, text) in string_literals(&source) {
            for (offset, word) in tool_shaped_words(&text) {
                if NOT_TOOLS.iter().any(|(name, _)| *name == word) {
                    continue;
                }
                let line = start + text.chars().take(offset).filter(|&c| c == '\n').count();
                offenders.push(format!(
                    "{shown}:{line}: `{word}` in a string literal; say it in library terms, and give the tool's advice in src/mcp/error_object.rs"
                ));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "the core names MCP tools:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn every_library_module_is_scanned() {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).expect("src/lib.rs");
    for line in lib.lines() {
        let Some(name) = line
            .trim()
            .strip_prefix("pub mod ")
            .and_then(|rest| rest.strip_suffix(';'))
        else {
            continue;
        };
        let file = format!("src/{name}.rs");
        let dir = format!("src/{name}");
        assert!(
            SERVER_ONLY.contains(&name)
                || CORE_MODULES.contains(&file.as_str())
                || CORE_DIRS.contains(&dir.as_str()),
            "src/lib.rs has module `{name}`: scan it here (CORE_MODULES or CORE_DIRS), or name it in SERVER_ONLY if only the server compiles it"
        );
    }
}

#[test]
fn the_names_let_through_are_not_tools() {
    for (name, why) in NOT_TOOLS {
        assert!(!why.is_empty());
        let spec = root().join("specs").join(format!("{name}.md"));
        assert!(!spec.exists(), "{name} is a tool ({})", spec.display());
    }
    // And a tool name is caught: every tool has its spec.
    let specs = std::fs::read_dir(root().join("specs")).expect("specs/");
    let tools: Vec<String> = specs
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            Some(name.strip_suffix(".md")?.to_string())
        })
        .filter(|name| name.starts_with("network_"))
        .collect();
    assert!(tools.iter().any(|t| t == "network_copy"), "{tools:?}");
    for tool in &tools {
        let source = format!("let s = \"see {tool} first\";");
        let words = tool_shaped_words(&string_literals(&source)[0].1);
        assert_eq!(words.len(), 1, "{tool}");
        assert_eq!(&words[0].1, tool);
    }
}

#[test]
fn the_lexer_finds_string_literals_only() {
    let source = r####"
// "network_copy" in a comment
/* a block "network_copy" /* nested */ still comment */
fn f<'a>(x: &'a str) -> char {
    let quote = '"';
    let escaped = '\'';
    let plain = "one \"network_a\" two";
    let raw = r#"raw "network_b""#;
    let bytes = b"network_c";
    let r#type = 1;
    let multi = "first
network_d";
    'x'
}
"####;
    let found = string_literals(source);
    let texts: Vec<&str> = found.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(
        texts,
        [
            r#"one \"network_a\" two"#,
            r#"raw "network_b""#,
            "network_c",
            "first\nnetwork_d"
        ]
    );
    let lines: Vec<usize> = found.iter().map(|(l, _)| *l).collect();
    assert_eq!(lines, [7, 8, 9, 11]);
    let words: Vec<String> = found
        .iter()
        .flat_map(|(_, t)| tool_shaped_words(t))
        .map(|(_, w)| w)
        .collect();
    assert_eq!(words, ["network_a", "network_b", "network_c", "network_d"]);
}
