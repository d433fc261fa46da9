//! Files an import reads and an export writes, so that a document already on the
//! machine never passes through the agent's context.
//!
//! A path is allowed only inside a root: a `--data-root` directory, or on stdio one
//! of the client's MCP roots (`roots/list`). Every check is made on the real path:
//!
//! - the path is resolved (`..` and symlinks) before the root check, so no link
//!   leads out of a root;
//! - a file is opened without following a final symlink and without blocking (a
//!   FIFO would otherwise wait for a writer), then checked through its open
//!   descriptor: a regular file, still inside a root (a directory swapped for a
//!   link between the check and the open is caught here);
//! - a read stops one byte past the import bound, so a huge or growing file costs
//!   at most the bound;
//! - a write goes to a new temporary file beside the target and is renamed over
//!   it, so a reader never sees half a document and a link at the target is
//!   replaced, never followed.
//!
//! An import's path is read before the call is applied and journaled, so the
//! journal holds the document itself: a replay never reads the file again.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};

/// Where file paths may point: canonical directories.
#[derive(Debug, Clone, Default)]
pub struct Roots {
    dirs: Vec<PathBuf>,
}

impl Roots {
    /// The existing directories among `dirs`, resolved. One that does not exist
    /// (or is not a directory) allows nothing.
    pub fn new(dirs: impl IntoIterator<Item = PathBuf>) -> Roots {
        let mut resolved: Vec<PathBuf> = dirs
            .into_iter()
            .filter_map(|dir| std::fs::canonicalize(dir).ok())
            .filter(|dir| dir.is_dir())
            .collect();
        resolved.dedup();
        Roots { dirs: resolved }
    }

    /// No root: every path is refused.
    pub fn is_empty(&self) -> bool {
        self.dirs.is_empty()
    }

    /// The roots, for messages.
    fn named(&self) -> String {
        if self.dirs.is_empty() {
            return "none: start the server with --data-root DIR, or (on stdio) use a client that declares MCP roots"
                .to_string();
        }
        self.dirs
            .iter()
            .map(|dir| dir.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn refuse(&self, path: &str, why: &str) -> Error {
        let path: String = path.chars().take(300).collect();
        Error::InvalidValue {
            field: "path".into(),
            reason: format!(
                "{path:?} {why}. Files may be read and written only inside these directories: {}",
                self.named()
            ),
        }
    }

    fn contains(&self, real: &Path) -> bool {
        self.dirs.iter().any(|dir| real.starts_with(dir))
    }

    /// `path` made absolute: a relative path is inside the first root.
    fn absolute(&self, path: &str) -> Result<PathBuf> {
        if path.is_empty() || path.contains('\0') {
            return Err(self.refuse(path, "is not a path"));
        }
        let given = Path::new(path);
        if given.is_absolute() {
            return Ok(given.to_path_buf());
        }
        match self.dirs.first() {
            Some(first) => Ok(first.join(given)),
            None => Err(self.refuse(path, "is not allowed")),
        }
    }

    /// Reads the regular file at `path`, at most `max_bytes`, as UTF-8 text.
    pub fn read_text(&self, path: &str, max_bytes: usize) -> Result<String> {
        if self.is_empty() {
            return Err(self.refuse(path, "is not allowed"));
        }
        let absolute = self.absolute(path)?;
        let real = std::fs::canonicalize(&absolute)
            .map_err(|e| self.refuse(path, &format!("cannot be read ({e})")))?;
        if !self.contains(&real) {
            return Err(self.refuse(path, "is outside every allowed directory"));
        }
        let file = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
            .open(&real)
            .map_err(|e| self.refuse(path, &format!("cannot be opened ({e})")))?;
        self.check_open(&file, path)?;
        // Sized once from the file's length (`take` hides it from `read_to_end`),
        // so a large document is not copied through doubling buffers.
        let length = file.metadata().map_or(0, |m| m.len());
        let mut bytes = Vec::with_capacity(length.min(max_bytes as u64) as usize + 1);
        file.take(max_bytes as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| self.refuse(path, &format!("could not be read ({e})")))?;
        if bytes.len() > max_bytes {
            return Err(Error::LimitExceeded {
                what: format!("the file {path:?}"),
                limit: max_bytes as u64,
                hint: "Split the document and import the parts with mode \"merge\".".into(),
            });
        }
        String::from_utf8(bytes).map_err(|e| self.refuse(path, &format!("is not UTF-8 text ({e})")))
    }

    /// Writes `text` to `path` (a new file, or replacing a regular file), through a
    /// temporary file renamed over it. Returns the real path written.
    pub fn write_text(&self, path: &str, text: &str) -> Result<PathBuf> {
        if self.is_empty() {
            return Err(self.refuse(path, "is not allowed"));
        }
        let absolute = self.absolute(path)?;
        let (Some(parent), Some(name)) = (absolute.parent(), absolute.file_name()) else {
            return Err(self.refuse(path, "names no file"));
        };
        if !matches!(
            Path::new(name).components().next(),
            Some(Component::Normal(_))
        ) {
            return Err(self.refuse(path, "names no file"));
        }
        let parent = std::fs::canonicalize(parent).map_err(|e| {
            self.refuse(
                path,
                &format!("is in a directory that cannot be used ({e})"),
            )
        })?;
        if !self.contains(&parent) {
            return Err(self.refuse(path, "is outside every allowed directory"));
        }
        let target = parent.join(name);
        if let Ok(existing) = std::fs::symlink_metadata(&target)
            && !existing.file_type().is_file()
        {
            return Err(self.refuse(path, "exists and is not a regular file"));
        }
        let temporary = parent.join(format!(
            ".{}.{}.{}.tmp",
            name.to_string_lossy(),
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.subsec_nanos())
                .unwrap_or(0)
        ));
        let written = (|| -> std::io::Result<()> {
            let mut file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&temporary)?;
            file.write_all(text.as_bytes())?;
            file.sync_all()?;
            Ok(())
        })();
        let checked = written
            .map_err(|e| self.refuse(path, &format!("could not be written ({e})")))
            .and_then(|()| {
                let file = File::open(&temporary)
                    .map_err(|e| self.refuse(path, &format!("could not be written ({e})")))?;
                self.check_open(&file, path)
            })
            .and_then(|()| {
                std::fs::rename(&temporary, &target)
                    .map_err(|e| self.refuse(path, &format!("could not be written ({e})")))
            });
        if checked.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        checked.map(|()| target)
    }

    /// An open file is a regular file inside a root, by its descriptor.
    fn check_open(&self, file: &File, path: &str) -> Result<()> {
        let kind = file
            .metadata()
            .map_err(|e| self.refuse(path, &format!("cannot be read ({e})")))?
            .file_type();
        if !kind.is_file() {
            let what = if kind.is_dir() {
                "is a directory"
            } else if kind.is_fifo() {
                "is a FIFO"
            } else if kind.is_char_device() || kind.is_block_device() {
                "is a device"
            } else if kind.is_socket() {
                "is a socket"
            } else {
                "is not a regular file"
            };
            return Err(self.refuse(path, what));
        }
        use std::os::fd::AsRawFd;
        let link = format!("/proc/self/fd/{}", file.as_raw_fd());
        if let Ok(real) = std::fs::read_link(&link)
            && !self.contains(&real)
        {
            return Err(self.refuse(path, "is outside every allowed directory"));
        }
        Ok(())
    }
}

/// The directories named by `file://` URIs (an MCP client's roots); others are skipped.
pub fn dirs_of_uris<'a>(uris: impl IntoIterator<Item = &'a str>) -> Vec<PathBuf> {
    uris.into_iter()
        .filter_map(|uri| uri.strip_prefix("file://"))
        .map(|rest| {
            // file://host/path: only the local host.
            let path = rest.strip_prefix("localhost").unwrap_or(rest);
            PathBuf::from(
                percent_encoding::percent_decode_str(path)
                    .decode_utf8_lossy()
                    .into_owned(),
            )
        })
        .filter(|path| path.is_absolute())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn reads_inside_a_root_and_refuses_everything_else() {
        let root = scratch("read");
        let outside = scratch("read-outside");
        std::fs::write(root.join("a.csv"), "source,target\na,b\n").unwrap();
        std::fs::write(outside.join("secret"), "x").unwrap();
        std::os::unix::fs::symlink(outside.join("secret"), root.join("link")).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("dirlink")).unwrap();
        let roots = Roots::new([root.clone()]);
        assert_eq!(
            roots.read_text("a.csv", 100).unwrap(),
            "source,target\na,b\n"
        );
        let absolute = root.join("a.csv");
        assert!(roots.read_text(absolute.to_str().unwrap(), 100).is_ok());
        for bad in [
            "../read-outside/secret".to_string(),
            "link".to_string(),
            "dirlink/secret".to_string(),
            outside.join("secret").display().to_string(),
            "/etc/passwd".to_string(),
            "missing".to_string(),
            String::new(),
        ] {
            let error = roots.read_text(&bad, 100).unwrap_err();
            assert_eq!(error.code(), "invalid_value", "{bad}: {error}");
            assert!(
                error.to_string().contains(&root.display().to_string()),
                "{bad}: {error}"
            );
        }
        // A directory, a FIFO and a device are not documents.
        std::fs::create_dir(root.join("dir")).unwrap();
        let fifo = root.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(
            roots
                .read_text("dir", 100)
                .unwrap_err()
                .to_string()
                .contains("directory")
        );
        assert!(
            roots
                .read_text("fifo", 100)
                .unwrap_err()
                .to_string()
                .contains("FIFO")
        );
        let devices = Roots::new([PathBuf::from("/dev")]);
        assert!(
            devices
                .read_text("/dev/zero", 100)
                .unwrap_err()
                .to_string()
                .contains("device")
        );
        // Past the bound, the read stops.
        std::fs::write(root.join("big"), vec![b'a'; 1000]).unwrap();
        assert_eq!(
            roots.read_text("big", 999).unwrap_err().code(),
            "limit_exceeded"
        );
        // No root: nothing.
        assert!(
            Roots::default()
                .read_text(absolute.to_str().unwrap(), 100)
                .is_err()
        );
    }

    #[test]
    fn writes_inside_a_root_replace_links_rather_than_follow_them() {
        let root = scratch("write");
        let outside = scratch("write-outside");
        let roots = Roots::new([root.clone()]);
        let written = roots.write_text("out.mmd", "flowchart LR\n").unwrap();
        assert_eq!(std::fs::read_to_string(&written).unwrap(), "flowchart LR\n");
        roots.write_text("out.mmd", "again\n").unwrap();
        assert_eq!(std::fs::read_to_string(&written).unwrap(), "again\n");
        std::fs::write(outside.join("victim"), "keep").unwrap();
        std::os::unix::fs::symlink(outside.join("victim"), root.join("link")).unwrap();
        assert!(roots.write_text("link", "x").is_err());
        assert_eq!(
            std::fs::read_to_string(outside.join("victim")).unwrap(),
            "keep"
        );
        assert!(roots.write_text("../write-outside/new", "x").is_err());
        assert!(!outside.join("new").exists());
        assert!(roots.write_text("missing-dir/new", "x").is_err());
        // Nothing temporary is left behind.
        let names: Vec<_> = std::fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(
            names.iter().all(|n| !n.to_string_lossy().ends_with(".tmp")),
            "{names:?}"
        );
    }

    #[test]
    fn client_roots_are_local_file_uris() {
        let dirs = dirs_of_uris([
            "file:///home/a%20b",
            "https://x/y",
            "file://localhost/srv",
            "file://other/z",
        ]);
        assert_eq!(
            dirs,
            vec![PathBuf::from("/home/a b"), PathBuf::from("/srv")]
        );
    }
}
