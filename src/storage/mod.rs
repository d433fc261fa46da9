//! Durable mode: a write-ahead journal plus periodic snapshots in one directory.
//!
//! Guarantee: a write tool's reply is sent only after its journal record is on disk
//! (`fsync`). Writes are applied and journaled in one global order (a mutex held
//! across apply + append), so replay reproduces the same state, edge ids included.
//! The `fsync` is group-committed: a writer that finds its record already synced by
//! another writer's `fsync` does not sync again; no delay is added.
//!
//! Files in the directory (formats in `specs/storage.md`):
//! - the directory itself is held with an exclusive `flock` while a server runs;
//! - `snapshot.bin` — the state at the last compaction;
//! - `journal.bin` — the writes since then.

pub mod journal;
pub mod snapshot;

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::Mutex;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::Error;
use crate::network::Network;
use crate::registry::NetworkRegistry;

/// The journal's name.
pub const JOURNAL_FILE: &str = "journal.bin";
/// The snapshot's name.
pub const SNAPSHOT_FILE: &str = "snapshot.bin";
/// The name a snapshot is written under before it replaces [`SNAPSHOT_FILE`].
pub const SNAPSHOT_TMP_FILE: &str = "snapshot.bin.tmp";

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
    /// The data directory (created if missing, mode 0700).
    pub dir: PathBuf,
    /// Compact into a snapshot after this many journal records.
    pub snapshot_every: u64,
    /// Read the directory but never change a file in it (`--read-only`): no torn
    /// tail is cut, no compaction runs, and writes are refused.
    pub read_only: bool,
}

/// What was on disk at startup.
#[derive(Debug)]
pub struct Recovered {
    /// The networks of the snapshot.
    pub networks: Vec<(String, Network)>,
    /// The journaled tool calls newer than the snapshot, in order.
    pub calls: Vec<JournaledCall>,
    /// Whether a torn last record was dropped.
    pub torn_tail: bool,
}

/// One journaled tool call.
#[derive(Debug, Clone, PartialEq)]
pub struct JournaledCall {
    /// The tool's name.
    pub tool: String,
    /// Its arguments, without `if_version`.
    pub arguments: Value,
    /// The time the call read from the server's clock (a claim's lease starts
    /// then), so that a replay makes exactly the state the call made.
    pub now: Option<u64>,
}

/// One journal record's payload, decoded strictly: a record that is not exactly
/// this is corruption, never skipped.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    seq: u64,
    tool: String,
    arguments: Value,
    /// Present when the call read the clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    now: Option<u64>,
}

struct JournalState {
    /// `None` in read-only mode.
    file: Option<File>,
    /// The journal's length after the last complete append: where a failed append
    /// is cut back to.
    len: u64,
    appended: u64,
    since_snapshot: u64,
    failed: Option<String>,
}

/// An open data directory; see the module docs.
pub struct Storage {
    config: StorageConfig,
    /// The directory itself, held with an exclusive `flock`: unlike a lock file,
    /// it cannot be deleted and recreated under a running server.
    _lock: File,
    journal: Mutex<JournalState>,
    sync_file: Option<File>,
    durable: Mutex<u64>,
    /// Set once memory was rolled back to the durable state after a failure:
    /// the next write first tries to resume (see [`Storage::try_resume`]).
    resumable: AtomicBool,
    /// Fault injection for tests: the next append fails as a full disk would.
    fail_next_append: AtomicBool,
    /// Fault injection for tests: the next snapshot fails half-written.
    fail_next_snapshot: AtomicBool,
    /// Fault injection for tests: every append, and every attempt to resume,
    /// fails as on a full disk, until cleared.
    disk_full: AtomicBool,
}

impl std::fmt::Debug for Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Storage")
            .field("dir", &self.config.dir)
            .finish()
    }
}

/// Options for every file of the directory: never follow a symlink (a planted link
/// must not make the server truncate or overwrite another file), and create files
/// readable by the owner only.
fn file_options() -> OpenOptions {
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = OpenOptions::new();
    options.custom_flags(libc::O_NOFOLLOW).mode(0o600);
    options
}

/// Reads a whole file without following a symlink; `None` when it does not exist.
fn read_file(path: &Path) -> Result<Option<Vec<u8>>, StorageError> {
    use std::io::Read;
    let mut file = match file_options().read(true).open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(path)(e)),
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(io_error(path))?;
    Ok(Some(bytes))
}

/// Creates the directory (0700) if needed and takes its lock without waiting.
fn lock_directory(dir: &Path) -> Result<File, StorageError> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(io_error(dir))?;
    let lock = File::open(dir).map_err(io_error(dir))?;
    match lock.try_lock() {
        Ok(()) => Ok(lock),
        Err(std::fs::TryLockError::WouldBlock) => Err(StorageError::Locked {
            path: dir.to_path_buf(),
        }),
        Err(std::fs::TryLockError::Error(e)) => Err(io_error(dir)(e)),
    }
}

/// The snapshot and journal as they are on disk, decoded, keeping the records with
/// `seq <= keep_through`. Changes nothing.
struct OnDisk {
    networks: Vec<(String, Network)>,
    calls: Vec<JournaledCall>,
    last_seq: u64,
    journal_len: usize,
    good_len: usize,
    torn_tail: bool,
}

fn read_on_disk(dir: &Path, keep_through: u64) -> Result<OnDisk, StorageError> {
    let snapshot_path = dir.join(SNAPSHOT_FILE);
    let (base_seq, networks) = match read_file(&snapshot_path)? {
        Some(bytes) => {
            snapshot::decode(&bytes).map_err(|(offset, reason)| StorageError::Corrupt {
                path: snapshot_path.clone(),
                offset,
                reason,
            })?
        }
        None => (0, Vec::new()),
    };
    let journal_path = dir.join(JOURNAL_FILE);
    let bytes = read_file(&journal_path)?.unwrap_or_default();
    let scan = scan_journal(&journal_path, &bytes)?;
    let corrupt = |offset: usize, reason: String| StorageError::Corrupt {
        path: journal_path.clone(),
        offset: offset as u64,
        reason,
    };
    let mut calls = Vec::with_capacity(scan.records.len());
    let (mut offset, mut previous, mut last_seq) = (0usize, 0u64, base_seq);
    for payload in &scan.records {
        let record: Record = serde_json::from_slice(payload)
            .map_err(|e| corrupt(offset, format!("record is not a journal record: {e}")))?;
        if record.seq <= previous {
            return Err(corrupt(
                offset,
                format!("record seq {} does not follow seq {previous}", record.seq),
            ));
        }
        previous = record.seq;
        offset += journal::HEADER + payload.len();
        // Records the snapshot already holds (a crash between a compaction's
        // rename and its truncation) are not applied twice.
        if record.seq <= base_seq {
            continue;
        }
        if record.seq != last_seq + 1 {
            return Err(corrupt(
                offset - journal::HEADER - payload.len(),
                format!(
                    "record seq {} follows seq {last_seq}: a record is missing",
                    record.seq
                ),
            ));
        }
        if record.seq > keep_through {
            break;
        }
        last_seq = record.seq;
        calls.push(JournaledCall {
            tool: record.tool,
            arguments: record.arguments,
            now: record.now,
        });
    }
    Ok(OnDisk {
        networks,
        calls,
        last_seq,
        journal_len: bytes.len(),
        good_len: scan.good_len,
        torn_tail: scan.torn_tail,
    })
}

impl Storage {
    /// Opens (or creates) the data directory, takes its lock without waiting, and
    /// reads what it holds. A torn journal tail is cut off (with a warning; in
    /// read-only mode it is only skipped); any other damage is an error and leaves
    /// every file as it was.
    pub fn open(config: StorageConfig) -> Result<(Storage, Recovered), StorageError> {
        let dir = &config.dir;
        let lock = lock_directory(dir)?;
        let disk = read_on_disk(dir, u64::MAX)?;
        let journal_path = dir.join(JOURNAL_FILE);
        let records = disk.calls.len();
        if disk.torn_tail {
            tracing::warn!(
                path = %journal_path.display(),
                offset = disk.good_len,
                dropped_bytes = disk.journal_len - disk.good_len,
                "journal ends in a torn record (a crash mid-write); it was never acknowledged and is dropped"
            );
        }
        let (file, sync_file) = if config.read_only {
            (None, None)
        } else {
            remove_stale_snapshot_temp(dir)?;
            let file = open_journal(&journal_path, disk.torn_tail.then_some(disk.good_len))?;
            let sync_file = file.try_clone().map_err(io_error(&journal_path))?;
            (Some(file), Some(sync_file))
        };
        tracing::info!(dir = %dir.display(), networks = disk.networks.len(), records, read_only = config.read_only, "durable storage opened");
        let storage = Storage {
            journal: Mutex::new(JournalState {
                file,
                len: disk.good_len as u64,
                appended: disk.last_seq,
                since_snapshot: records as u64,
                failed: None,
            }),
            sync_file,
            durable: Mutex::new(disk.last_seq),
            resumable: AtomicBool::new(false),
            fail_next_append: AtomicBool::new(false),
            fail_next_snapshot: AtomicBool::new(false),
            disk_full: AtomicBool::new(false),
            _lock: lock,
            config,
        };
        Ok((
            storage,
            Recovered {
                networks: disk.networks,
                calls: disk.calls,
                torn_tail: disk.torn_tail,
            },
        ))
    }

    /// Makes the next append fail with `ENOSPC`, as a full disk would: for tests of
    /// what a failed write leaves behind.
    #[doc(hidden)]
    pub fn fail_next_append(&self) {
        self.fail_next_append.store(true, Ordering::Relaxed);
    }

    /// Makes every append fail with `ENOSPC`, and every attempt to resume
    /// writes, until called with `false`: a disk that stays full, then has
    /// space again.
    #[doc(hidden)]
    pub fn set_disk_full(&self, full: bool) {
        self.disk_full.store(full, Ordering::Relaxed);
    }

    /// Makes the next snapshot fail with `ENOSPC` after writing half of its
    /// temp file, as a disk filling up mid-snapshot would.
    #[doc(hidden)]
    pub fn fail_next_snapshot(&self) {
        self.fail_next_snapshot.store(true, Ordering::Relaxed);
    }

    /// Whether this directory was opened read-only.
    pub fn is_read_only(&self) -> bool {
        self.config.read_only
    }

    /// Applies a write and journals it durably before returning. `apply` runs under
    /// the journal's order lock; its result is journaled only if it is `Ok`, with
    /// the time it read from the clock, if any.
    ///
    /// If the record cannot be appended or made durable, the write must not stay
    /// visible: `roll_back` is called with what is on disk up to the last durable
    /// record, and must make memory match it. Storage then refuses every later
    /// write. Returns whether a compaction is due.
    pub fn write(
        &self,
        tool: &str,
        arguments: &Value,
        apply: impl FnOnce() -> Result<(Value, Option<u64>), Error>,
        roll_back: &dyn Fn(Recovered),
    ) -> (Result<Value, Error>, bool) {
        if self.resumable.load(Ordering::Relaxed) {
            self.try_resume();
        }
        let (seq, output, due) = {
            // Writes apply in the journal's order, one at a time; a write queued
            // here stops waiting when its call is cancelled or out of time.
            let mut state = crate::budget::wait_for(|slice| self.journal.try_lock_for(slice));
            if let Some(refusal) = self.refusal(&state) {
                return (Err(refusal), false);
            }
            let (output, now) = match apply() {
                Ok(applied) => applied,
                Err(e) => return (Err(e), false),
            };
            let seq = state.appended + 1;
            let record = Record {
                seq,
                tool: tool.to_string(),
                arguments: arguments.clone(),
                now,
            };
            let payload = serde_json::to_vec(&record).unwrap_or_default();
            let encoded = journal::encode(&payload);
            let injected = self.fail_next_append.swap(false, Ordering::Relaxed)
                || self.disk_full.load(Ordering::Relaxed);
            let appended = match state.file.as_mut() {
                Some(_) if injected => Err(io::Error::from_raw_os_error(libc::ENOSPC)),
                Some(file) => file.write_all(&encoded),
                None => Err(io::Error::other("the data directory is read-only")),
            };
            if let Err(e) = appended {
                let reason = format!("cannot append to the journal: {e}");
                Self::mark_failed(&mut state, &reason);
                drop(state);
                self.roll_back_to_durable(roll_back);
                return (Err(Error::StorageFailed { message: reason }), false);
            }
            state.len += encoded.len() as u64;
            state.appended = seq;
            state.since_snapshot += 1;
            let due = state.since_snapshot >= self.config.snapshot_every;
            (seq, output, due)
        };
        if let Err(e) = self.sync_through(seq) {
            let reason = format!("cannot fsync the journal: {e}");
            let first = {
                let mut state = self.journal.lock();
                let first = state.failed.is_none();
                if first {
                    Self::mark_failed(&mut state, &reason);
                }
                first
            };
            if first {
                self.roll_back_to_durable(roll_back);
            }
            return (Err(Error::StorageFailed { message: reason }), false);
        }
        (Ok(output), due)
    }

    fn refusal(&self, state: &JournalState) -> Option<Error> {
        if self.config.read_only {
            return Some(Error::StorageFailed {
                message: "the data directory was opened read-only (--read-only)".into(),
            });
        }
        state.failed.as_ref().map(|reason| Error::StorageFailed {
            message: format!(
                "durable storage failed earlier ({reason}), so writes are refused: no unsaved change is ever acknowledged; free space on the disk, and writes resume by themselves with the next one"
            ),
        })
    }

    /// Enters the failed state (under the order lock, so no later write applies):
    /// cuts the journal back to its last complete record.
    fn mark_failed(state: &mut JournalState, reason: &str) {
        tracing::error!(%reason, "durable storage failed; rolling back to the durable state and refusing further writes");
        state.failed = Some(reason.to_string());
        if let Some(file) = state.file.as_mut() {
            // Best effort: a partial record left behind is a torn tail, which the
            // next start drops.
            let _ = file.set_len(state.len);
            use std::io::Seek;
            let _ = file.seek(io::SeekFrom::Start(state.len));
        }
    }

    /// After [`Storage::mark_failed`]: makes memory hold exactly the records that
    /// were made durable, as read back from disk. Takes the locks in the order
    /// `sync_through` does; once failed, no fsync can acknowledge more, so the
    /// durable mark read here is final: every writer at or below it was (or will
    /// be) acknowledged and is kept, every writer above it gets an error and is
    /// rolled back.
    fn roll_back_to_durable(&self, roll_back: &dyn Fn(Recovered)) {
        let durable = self.durable.lock();
        let _order = self.journal.lock();
        match read_on_disk(&self.config.dir, *durable) {
            Ok(disk) => {
                roll_back(Recovered {
                    networks: disk.networks,
                    calls: disk.calls,
                    torn_tail: disk.torn_tail,
                });
                // Memory is the durable state again: writes may resume from it.
                self.resumable.store(true, Ordering::Relaxed);
            }
            Err(e) => {
                tracing::error!(error = %e, "could not read the durable state back to roll memory back");
            }
        }
    }

    /// After a failure and its roll-back: cuts the journal back to its last
    /// durable record and makes that durable; if both succeed (the disk takes
    /// writes again), leaves the failed state, so that writes resume by
    /// themselves once space is free. What is cut was never acknowledged, and
    /// memory holds no write past it (the roll-back). Pages that failed to
    /// reach the disk are all past that point, so the fsync here proves the
    /// whole journal kept. Cheap when it fails: one truncation and one fsync.
    fn try_resume(&self) {
        let durable = self.durable.lock();
        let mut state = self.journal.lock();
        if state.failed.is_none() || !self.resumable.load(Ordering::Relaxed) {
            return;
        }
        let journal_path = self.config.dir.join(JOURNAL_FILE);
        let end = match journal_end_through(&self.config.dir, *durable) {
            Ok(end) => end,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the journal back to resume writes");
                self.resumable.store(false, Ordering::Relaxed);
                return;
            }
        };
        let Some(file) = state.file.as_mut() else {
            return;
        };
        let full = self.disk_full.load(Ordering::Relaxed);
        let cut = file.set_len(end).and_then(|()| {
            if full {
                return Err(io::Error::from_raw_os_error(libc::ENOSPC));
            }
            use std::io::Seek;
            file.seek(io::SeekFrom::Start(end))?;
            file.sync_all()
        });
        if let Err(e) = cut {
            tracing::debug!(path = %journal_path.display(), error = %e, "durable storage still failing; writes stay refused");
            return;
        }
        state.len = end;
        state.appended = *durable;
        state.failed = None;
        self.resumable.store(false, Ordering::Relaxed);
        tracing::warn!(path = %journal_path.display(), seq = *durable, "durable storage works again; writes resume from the last durable record");
    }

    /// Makes every record up to `seq` durable; one fsync covers every writer waiting.
    fn sync_through(&self, seq: u64) -> io::Result<()> {
        let mut durable = self.durable.lock();
        if *durable >= seq {
            return Ok(());
        }
        let target = {
            let state = self.journal.lock();
            // After a failure, a later fsync that happens to succeed proves nothing
            // about the pages that failed: never acknowledge past the failure.
            if let Some(reason) = &state.failed {
                return Err(io::Error::other(reason.clone()));
            }
            state.appended
        };
        let Some(file) = &self.sync_file else {
            return Err(io::Error::other("the data directory is read-only"));
        };
        file.sync_data()?;
        *durable = target;
        Ok(())
    }

    /// Writes a snapshot of `registry` (temp file, fsync, rename, fsync the
    /// directory) and empties the journal. Holds the order lock throughout, so no
    /// write falls between the snapshot and the truncation; every network is
    /// read before it, in the writes' lock order. Does nothing in
    /// read-only mode or after a failure.
    pub fn compact(&self, registry: &NetworkRegistry) -> Result<(), StorageError> {
        // Every network's lock is taken before the journal's, the order every
        // write takes them in (a write holds its network, then waits for the
        // journal): so no write is half-applied in what is read, and nothing
        // waits for a network while holding the journal. A network made or
        // deleted before the journal's lock was had means trying again.
        loop {
            let handles = registry.handles();
            let guards: Vec<_> = handles
                .iter()
                .map(|(_, network)| network.read_for_snapshot())
                .collect();
            let mut state = self.journal.lock();
            if !registry.holds_exactly(&handles) {
                continue;
            }
            if self.config.read_only || state.failed.is_some() {
                return Ok(());
            }
            let bytes = snapshot::encode_networks(
                handles
                    .iter()
                    .map(|(name, _)| name.as_str())
                    .zip(guards.iter().map(|g| &**g)),
                state.appended,
            );
            drop(guards);
            return self.replace_snapshot(&mut state, &bytes);
        }
    }

    /// Writes `bytes` as the snapshot and empties the journal it covers.
    fn replace_snapshot(&self, state: &mut JournalState, bytes: &[u8]) -> Result<(), StorageError> {
        let dir = &self.config.dir;
        let tmp = dir.join(SNAPSHOT_TMP_FILE);
        let final_path = dir.join(SNAPSHOT_FILE);
        let injected = self.fail_next_snapshot.swap(false, Ordering::Relaxed);
        if let Err(e) = write_snapshot(dir, &tmp, &final_path, bytes, injected) {
            // A partial temp file would hold the space the journal needs (on a
            // full disk, every later append would fail): remove it, and try
            // again after as many records as a snapshot is due after.
            match std::fs::remove_file(&tmp) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => {
                    tracing::error!(path = %tmp.display(), error = %e, "cannot remove a failed snapshot's temp file")
                }
            }
            state.since_snapshot = 0;
            return Err(e);
        }
        let journal_path = dir.join(JOURNAL_FILE);
        if let Some(file) = state.file.as_mut() {
            file.set_len(0).map_err(io_error(&journal_path))?;
            use std::io::Seek;
            file.seek(io::SeekFrom::Start(0))
                .map_err(io_error(&journal_path))?;
            file.sync_all().map_err(io_error(&journal_path))?;
        }
        state.len = 0;
        state.since_snapshot = 0;
        tracing::info!(bytes = bytes.len(), "snapshot written; journal truncated");
        Ok(())
    }
}

/// Writes `bytes` as the snapshot: a new temp file (a stale one, or a planted
/// symlink in its place, removed first: `create_new` with `O_NOFOLLOW` then
/// refuses anything that reappears), fsync, rename, fsync the directory.
/// `fail` writes half and fails with `ENOSPC` (fault injection).
fn write_snapshot(
    dir: &Path,
    tmp: &Path,
    final_path: &Path,
    bytes: &[u8],
    fail: bool,
) -> Result<(), StorageError> {
    remove_stale_snapshot_temp(dir)?;
    {
        let mut file = file_options()
            .write(true)
            .create_new(true)
            .open(tmp)
            .map_err(io_error(tmp))?;
        if fail {
            file.write_all(&bytes[..bytes.len() / 2])
                .map_err(io_error(tmp))?;
            return Err(io_error(tmp)(io::Error::from_raw_os_error(libc::ENOSPC)));
        }
        file.write_all(bytes).map_err(io_error(tmp))?;
        file.sync_all().map_err(io_error(tmp))?;
    }
    std::fs::rename(tmp, final_path).map_err(io_error(final_path))?;
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io_error(dir))
}

/// Removes a snapshot temp file left by a snapshot that did not finish (a
/// crash, or a full disk before this was cleaned up at once): it is never
/// read, and it may hold the last free space.
fn remove_stale_snapshot_temp(dir: &Path) -> Result<(), StorageError> {
    let tmp = dir.join(SNAPSHOT_TMP_FILE);
    match std::fs::remove_file(&tmp) {
        Ok(()) => {
            tracing::info!(path = %tmp.display(), "removed the temp file of a snapshot that did not finish");
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_error(&tmp)(e)),
    }
}

/// The journal's records; damage other than a torn tail is
/// [`StorageError::Corrupt`] naming the file and the offset.
fn scan_journal<'a>(path: &Path, bytes: &'a [u8]) -> Result<journal::Scan<'a>, StorageError> {
    journal::scan(bytes).map_err(|c| StorageError::Corrupt {
        path: path.to_path_buf(),
        offset: c.offset as u64,
        reason: c.reason,
    })
}

/// The journal's length through record `seq`: where a resumed journal is cut
/// back to (records past `seq` never became durable).
fn journal_end_through(dir: &Path, seq: u64) -> Result<u64, StorageError> {
    let journal_path = dir.join(JOURNAL_FILE);
    let bytes = read_file(&journal_path)?.unwrap_or_default();
    let scan = scan_journal(&journal_path, &bytes)?;
    let mut end = 0u64;
    for payload in &scan.records {
        let record: Record =
            serde_json::from_slice(payload).map_err(|e| StorageError::Corrupt {
                path: journal_path.clone(),
                offset: end,
                reason: format!("record is not a journal record: {e}"),
            })?;
        if record.seq > seq {
            break;
        }
        end += (journal::HEADER + payload.len()) as u64;
    }
    Ok(end)
}

/// The journal opened for appending: created if missing, cut back to `torn_at` (a
/// torn tail, never acknowledged) and synced if given, positioned at its end.
fn open_journal(path: &Path, torn_at: Option<usize>) -> Result<File, StorageError> {
    let mut file = file_options()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)
        .map_err(io_error(path))?;
    if let Some(good_len) = torn_at {
        file.set_len(good_len as u64).map_err(io_error(path))?;
        file.sync_all().map_err(io_error(path))?;
    }
    use std::io::Seek;
    file.seek(io::SeekFrom::End(0)).map_err(io_error(path))?;
    Ok(file)
}
