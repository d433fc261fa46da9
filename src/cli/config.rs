//! `--config FILE`: every option from a TOML file.
//!
//! The file's keys are the long option names (`log-level`, `http`, `allowed-host`...;
//! `_` may stand for `-`). Its values become clap *defaults*, so clap's own order
//! gives the precedence: command line > environment > file > built-in default.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::error::ErrorKind;
use clap::{Command, CommandFactory, FromArgMatches};

use super::Cli;
use crate::logging::LOG_ENV;

/// The environment variable naming the config file (as `--config` does).
pub const CONFIG_ENV: &str = "NETWORKS_MCP_CONFIG";

impl Cli {
    /// Parses the process's arguments with `--config` applied; on error, prints it
    /// and exits as clap does.
    pub fn parse_with_config() -> Cli {
        Self::try_parse_with_config_from(std::env::args_os()).unwrap_or_else(|e| e.exit())
    }

    /// Parses `args` (the first is the program name) with the settings of the
    /// `--config FILE` they name (or of `$NETWORKS_MCP_CONFIG`) as defaults.
    pub fn try_parse_with_config_from<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        let mut command = Cli::command();
        if let Some(path) = config_path(&args) {
            command = apply_file(command, &path)?;
        }
        let matches = command.try_get_matches_from(args)?;
        Cli::from_arg_matches(&matches)
    }
}

/// `--config X` / `--config=X` on the command line, else `$NETWORKS_MCP_CONFIG`.
fn config_path(args: &[OsString]) -> Option<PathBuf> {
    let mut iter = args.iter().skip(1);
    while let Some(arg) = iter.next() {
        if arg == "--" {
            break;
        }
        if arg == "--config" {
            return iter.next().map(PathBuf::from);
        }
        if let Some(value) = arg.to_str().and_then(|a| a.strip_prefix("--config=")) {
            return Some(PathBuf::from(value));
        }
    }
    std::env::var_os(CONFIG_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

fn apply_file(mut command: Command, path: &Path) -> Result<Command, clap::Error> {
    let fail = |command: &mut Command, message: String| {
        command.error(
            ErrorKind::InvalidValue,
            format!("config file {}: {message}", path.display()),
        )
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => return Err(fail(&mut command, format!("cannot read it: {e}"))),
    };
    let table: toml::Table = match text.parse() {
        Ok(table) => table,
        Err(e) => return Err(fail(&mut command, format!("not valid TOML: {e}"))),
    };
    for (key, value) in table {
        let long = key.replace('_', "-");
        let found = command
            .get_arguments()
            .find(|a| a.get_long() == Some(long.as_str()))
            .map(|a| (a.get_id().clone(), a.get_value_delimiter()));
        let Some((id, delimiter)) =
            found.filter(|_| !matches!(long.as_str(), "config" | "help" | "version"))
        else {
            let known: Vec<String> = command
                .get_arguments()
                .filter_map(|a| a.get_long())
                .filter(|l| !matches!(*l, "config" | "help" | "version"))
                .map(str::to_string)
                .collect();
            return Err(fail(
                &mut command,
                format!(
                    "unknown setting '{key}'; settings are the long option names: {}",
                    known.join(", ")
                ),
            ));
        };
        // NETWORKS_MCP_LOG is read by the logging setup, not by clap: keep it above the file.
        if long == "log-level" && std::env::var_os(LOG_ENV).is_some() {
            continue;
        }
        let values = match scalars(&value, delimiter) {
            Some(values) => values,
            None => {
                return Err(fail(
                    &mut command,
                    format!("'{key}' must be a string, number, boolean or array of them"),
                ));
            }
        };
        // clap keeps defaults as `&'static str`; a config file is read once per process.
        let values: Vec<&'static str> = values
            .into_iter()
            .map(|v| &*Box::leak(v.into_boxed_str()))
            .collect();
        command = command.mut_arg(id, |arg| arg.default_values(values));
    }
    Ok(command)
}

/// A TOML value as the strings clap would have read on the command line.
fn scalars(value: &toml::Value, delimiter: Option<char>) -> Option<Vec<String>> {
    let scalar = |v: &toml::Value| match v {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    };
    match value {
        toml::Value::Array(items) => items.iter().map(scalar).collect(),
        toml::Value::String(s) => Some(match delimiter {
            Some(d) => s.split(d).map(str::to_string).collect(),
            None => vec![s.clone()],
        }),
        other => scalar(other).map(|s| vec![s]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(file: &str, args: &[&str]) -> Result<Cli, clap::Error> {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "networks-mcp-config-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("config.toml");
        std::fs::write(&path, file).unwrap();
        let mut full = vec![
            "networks-mcp".to_string(),
            format!("--config={}", path.display()),
        ];
        full.extend(args.iter().map(|s| s.to_string()));
        Cli::try_parse_with_config_from(full)
    }

    #[test]
    fn file_values_are_defaults_and_the_command_line_wins() {
        let cli = parse(
            "http = \"127.0.0.1:9000\"\nread-only = true\nallowed_host = [\"a.example\", \"b.example:8443\"]\nmax-body-bytes = 1024\ntoolsets = \"core,edit\"\n",
            &["--max-body-bytes", "2048"],
        )
        .unwrap();
        assert_eq!(cli.http.http.as_deref(), Some("127.0.0.1:9000"));
        assert!(cli.read_only);
        assert_eq!(cli.http.allowed_hosts, ["a.example", "b.example:8443"]);
        assert_eq!(cli.http.max_body_bytes, 2048);
        assert_eq!(cli.toolsets.len(), 2);
    }

    #[test]
    fn client_roots_are_asked_for_on_stdio_only_and_toolsets_fix_the_list() {
        let stdio = parse("", &["--data-root", "/srv/a", "--data-root", "/srv/b"])
            .unwrap()
            .server_options();
        assert!(stdio.client_roots);
        assert!(stdio.switchable);
        assert_eq!(stdio.data_roots.len(), 2);
        // Over HTTP a client's roots name its own machine: only --data-root counts.
        let http = parse("", &["--http", "127.0.0.1:0", "--toolsets", "core"])
            .unwrap()
            .server_options();
        assert!(!http.client_roots);
        assert!(!http.switchable, "--toolsets fixes the list");
    }

    #[test]
    fn unknown_keys_and_bad_values_are_errors() {
        let e = parse("htp = \"x\"\n", &[]).unwrap_err().to_string();
        assert!(e.contains("unknown setting 'htp'"), "{e}");
        assert!(e.contains("allowed-host"), "{e}");
        assert!(parse("max-body-bytes = \"lots\"\n", &[]).is_err());
        assert!(parse("http = { a = 1 }\n", &[]).is_err());
        assert!(parse("not toml", &[]).is_err());
    }
}
