//! Durable mode: a write-ahead journal plus periodic snapshots in one directory.
//!
//! Guarantee: a write tool's reply is sent only after its journal record is on disk
//! (`fsync`). Writes are applied and journaled in one global order (a mutex held
//! across apply + append), so replay reproduces the same state, edge ids included.
//! The `fsync` is group-committed: a writer that finds its record already synced by
//! another writer's `fsync` does not sync again; no delay is added.
//!
//! Files in the directory (formats in `specs/storage.md`):
//! - `LOCK` — held with an exclusive lock while a server runs;
//! - `snapshot.bin` — the state at the last compaction;
//! - `journal.bin` — the writes since then.

pub mod journal;
pub mod snapshot;

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use parking_lot::Mutex;
use serde_json::{Value, json};

use crate::error::Error;
use crate::network::Network;
use crate::registry::NetworkRegistry;

/// The lock file's name.
pub const LOCK_FILE: &str = "LOCK";
/// The journal's name.
pub const JOURNAL_FILE: &str = "journal.bin";
/// The snapshot's name.
pub const SNAPSHOT_FILE: &str = "snapshot.bin";

/// Why durable storage could not be opened or written.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// A file operation failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// Another process holds the directory.
    #[error(
        "{path} is locked: another networks-mcp process is using this data directory. Stop it, or pick another --data-dir."
    )]
    Locked {
        /// The lock file.
        path: PathBuf,
    },
    /// A file is damaged where no crash can have damaged it; it was left untouched.
    #[error(
        "{path} is corrupt at byte offset {offset}: {reason}. The server will not start and has not changed any file; restore the file from a backup or move it aside."
    )]
    Corrupt {
        /// The damaged file.
        path: PathBuf,
        /// Where.
        offset: u64,
        /// What.
        reason: String,
    },
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> StorageError + '_ {
    move |source| StorageError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Settings of durable mode.
#[derive(Debug, Clone)]
pub struct StorageConfig {
    /// The data directory (created if missing).
    pub dir: PathBuf,
    /// Compact into a snapshot after this many journal records.
    pub snapshot_every: u64,
}

/// What was on disk at startup.
#[derive(Debug)]
pub struct Recovered {
    /// The networks of the snapshot.
    pub networks: Vec<(String, Network)>,
    /// The journaled tool calls newer than the snapshot: `(tool, arguments)`, in order.
    pub calls: Vec<(String, Value)>,
    /// Whether a torn last record was dropped.
    pub torn_tail: bool,
}

struct JournalState {
    file: File,
    appended: u64,
    since_snapshot: u64,
    failed: Option<String>,
}

/// An open data directory; see the module docs.
pub struct Storage {
    config: StorageConfig,
    _lock: File,
    journal: Mutex<JournalState>,
    sync_file: File,
    durable: Mutex<u64>,
}

impl std::fmt::Debug for Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Storage")
            .field("dir", &self.config.dir)
            .finish()
    }
}

impl Storage {
    /// Opens (or creates) the data directory, takes its lock without waiting, and
    /// reads what it holds. A torn journal tail is cut off (with a warning); any
    /// other damage is an error and leaves every file as it was.
    pub fn open(config: StorageConfig) -> Result<(Storage, Recovered), StorageError> {
        let dir = &config.dir;
        std::fs::create_dir_all(dir).map_err(io_error(dir))?;
        let lock_path = dir.join(LOCK_FILE);
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(io_error(&lock_path))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(StorageError::Locked { path: lock_path });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io_error(&lock_path)(e)),
        }

        let snapshot_path = dir.join(SNAPSHOT_FILE);
        let (base_seq, networks) = match std::fs::read(&snapshot_path) {
            Ok(bytes) => {
                snapshot::decode(&bytes).map_err(|(offset, reason)| StorageError::Corrupt {
                    path: snapshot_path.clone(),
                    offset,
                    reason,
                })?
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => (0, Vec::new()),
            Err(e) => return Err(io_error(&snapshot_path)(e)),
        };

        let journal_path = dir.join(JOURNAL_FILE);
        let bytes = match std::fs::read(&journal_path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io_error(&journal_path)(e)),
        };
        let scan = journal::scan(&bytes).map_err(|c| StorageError::Corrupt {
            path: journal_path.clone(),
            offset: c.offset as u64,
            reason: c.reason,
        })?;
        let mut calls = Vec::with_capacity(scan.records.len());
        let mut offset = 0usize;
        let mut last_seq = base_seq;
        for payload in &scan.records {
            let call: Value =
                serde_json::from_slice(payload).map_err(|e| StorageError::Corrupt {
                    path: journal_path.clone(),
                    offset: offset as u64,
                    reason: format!("record is not JSON: {e}"),
                })?;
            let seq = call["seq"].as_u64().unwrap_or(0);
            offset += journal::HEADER + payload.len();
            // Records the snapshot already holds (a crash between a compaction's
            // rename and its truncation) are not applied twice.
            if seq <= base_seq {
                continue;
            }
            last_seq = seq;
            let tool = call["tool"].as_str().unwrap_or_default().to_string();
            calls.push((tool, call["arguments"].clone()));
        }
        let (good_len, torn_tail, records) = (scan.good_len, scan.torn_tail, calls.len());

        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&journal_path)
            .map_err(io_error(&journal_path))?;
        if torn_tail {
            tracing::warn!(
                path = %journal_path.display(),
                offset = good_len,
                dropped_bytes = bytes.len() - good_len,
                "journal ends in a torn record (a crash mid-write); it was never acknowledged and is dropped"
            );
            file.set_len(good_len as u64)
                .map_err(io_error(&journal_path))?;
            file.sync_all().map_err(io_error(&journal_path))?;
        }
        let mut file = file;
        use std::io::Seek;
        file.seek(io::SeekFrom::End(0))
            .map_err(io_error(&journal_path))?;
        let sync_file = file.try_clone().map_err(io_error(&journal_path))?;
        tracing::info!(dir = %dir.display(), networks = networks.len(), records, "durable storage opened");
        let storage = Storage {
            journal: Mutex::new(JournalState {
                file,
                appended: last_seq,
                since_snapshot: records as u64,
                failed: None,
            }),
            sync_file,
            durable: Mutex::new(last_seq),
            _lock: lock,
            config,
        };
        Ok((
            storage,
            Recovered {
                networks,
                calls,
                torn_tail,
            },
        ))
    }

    /// Applies a write and journals it durably before returning. `apply` runs under
    /// the journal's order lock; its result is journaled only if it is `Ok`.
    /// Returns whether a compaction is due.
    pub fn write(
        &self,
        tool: &str,
        arguments: &Value,
        apply: impl FnOnce() -> Result<Value, Error>,
    ) -> (Result<Value, Error>, bool) {
        let (seq, due) = {
            let mut state = self.journal.lock();
            if let Some(reason) = &state.failed {
                return (
                    Err(Error::Internal {
                        message: format!(
                            "durable storage failed earlier ({reason}); writes are refused so that no unsaved change is acknowledged"
                        ),
                    }),
                    false,
                );
            }
            let output = match apply() {
                Ok(output) => output,
                Err(e) => return (Err(e), false),
            };
            let seq = state.appended + 1;
            let payload = json!({ "seq": seq, "tool": tool, "arguments": arguments }).to_string();
            if let Err(e) = state.file.write_all(&journal::encode(payload.as_bytes())) {
                let reason = format!("cannot append to the journal: {e}");
                tracing::error!(%reason, "durable storage failed; refusing further writes");
                state.failed = Some(reason.clone());
                return (Err(Error::Internal { message: reason }), false);
            }
            state.appended += 1;
            state.since_snapshot += 1;
            (
                (state.appended, output),
                state.since_snapshot >= self.config.snapshot_every,
            )
        };
        let (seq, output) = seq;
        if let Err(e) = self.sync_through(seq) {
            let reason = format!("cannot fsync the journal: {e}");
            tracing::error!(%reason, "durable storage failed; refusing further writes");
            self.journal.lock().failed = Some(reason.clone());
            return (Err(Error::Internal { message: reason }), false);
        }
        (Ok(output), due)
    }

    /// Makes every record up to `seq` durable; one fsync covers every writer waiting.
    fn sync_through(&self, seq: u64) -> io::Result<()> {
        let mut durable = self.durable.lock();
        if *durable >= seq {
            return Ok(());
        }
        let target = self.journal.lock().appended;
        self.sync_file.sync_data()?;
        *durable = target;
        Ok(())
    }

    /// Writes a snapshot of `registry` (temp file, fsync, rename, fsync the
    /// directory) and empties the journal. Holds the order lock throughout, so no
    /// write falls between the snapshot and the truncation.
    pub fn compact(&self, registry: &NetworkRegistry) -> Result<(), StorageError> {
        let mut state = self.journal.lock();
        let dir = &self.config.dir;
        let bytes = snapshot::encode(registry, state.appended);
        let tmp = dir.join("snapshot.bin.tmp");
        let final_path = dir.join(SNAPSHOT_FILE);
        {
            let mut file = File::create(&tmp).map_err(io_error(&tmp))?;
            file.write_all(&bytes).map_err(io_error(&tmp))?;
            file.sync_all().map_err(io_error(&tmp))?;
        }
        std::fs::rename(&tmp, &final_path).map_err(io_error(&final_path))?;
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(io_error(dir))?;
        let journal_path = dir.join(JOURNAL_FILE);
        state.file.set_len(0).map_err(io_error(&journal_path))?;
        use std::io::Seek;
        state
            .file
            .seek(io::SeekFrom::Start(0))
            .map_err(io_error(&journal_path))?;
        state.file.sync_all().map_err(io_error(&journal_path))?;
        state.since_snapshot = 0;
        tracing::info!(bytes = bytes.len(), "snapshot written; journal truncated");
        Ok(())
    }
}
