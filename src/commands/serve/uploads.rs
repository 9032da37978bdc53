//! The uploads a server keeps (issue 41 item 4): at most [`Quota::files`] photos and
//! [`Quota::bytes`] bytes of the files it wrote in `vedette-uploads/` (the photos and
//! their scanned tables and scan reports). Beyond that, the oldest upload it wrote goes
//! with its scan's files, but never the photos the session shows.
//!
//! Only what this server wrote is ever removed, and only while it is still the regular
//! file written (the same device and inode: a file put there since, a link, a folder
//! are left alone). A corrections file beside an upload is the player's work: it
//! stays. Files of earlier starts are not counted and never removed.

use std::path::{Path, PathBuf};

/// The default number of uploaded photos kept.
pub const DEFAULT_FILES: usize = 50;

/// The default space the kept uploads may take, MiB.
pub const DEFAULT_MIB: u64 = 1024;

/// How much the uploads may keep.
#[derive(Debug, Clone, Copy)]
pub struct Quota {
    /// Photos.
    pub files: usize,
    /// Bytes, the photos and their scans' files together.
    pub bytes: u64,
}

/// A file this server wrote, as it wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Written {
    path: PathBuf,
    bytes: u64,
    identity: Identity,
}

/// What tells a file from another put in its place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Identity {
    device: u64,
    inode: u64,
}

impl Identity {
    /// The identity of the regular file at `path` (not following a link); `None` for
    /// anything else or nothing.
    fn of(path: &Path) -> Option<(Identity, u64)> {
        let meta = std::fs::symlink_metadata(path).ok()?;
        if !meta.file_type().is_file() {
            return None;
        }
        #[cfg(unix)]
        let identity = {
            use std::os::unix::fs::MetadataExt;
            Identity { device: meta.dev(), inode: meta.ino() }
        };
        #[cfg(not(unix))]
        let identity = Identity {
            device: meta.len(),
            inode: meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos() as u64),
        };
        Some((identity, meta.len()))
    }
}

/// One upload and the files its scans wrote beside it.
#[derive(Debug, Clone)]
struct Upload {
    photo: Written,
    beside: Vec<Written>,
}

impl Upload {
    fn bytes(&self) -> u64 {
        self.photo.bytes + self.beside.iter().map(|w| w.bytes).sum::<u64>()
    }
}

/// The uploads this server wrote, oldest first.
#[derive(Debug)]
pub struct Uploads {
    quota: Quota,
    kept: Vec<Upload>,
}

impl Uploads {
    /// None yet, kept within `quota`.
    #[must_use]
    pub fn new(quota: Quota) -> Uploads {
        Uploads { quota, kept: Vec::new() }
    }

    /// The stored upload named `name` (its file name), if this server wrote it and
    /// still keeps it.
    #[must_use]
    pub fn find(&self, name: &str) -> Option<PathBuf> {
        self.kept
            .iter()
            .map(|u| &u.photo.path)
            .find(|p| p.file_name().is_some_and(|f| f.to_string_lossy() == name))
            .cloned()
    }

    /// Notes an upload just written at `photo`.
    pub fn wrote_upload(&mut self, photo: &Path) {
        if let Some((identity, bytes)) = Identity::of(photo) {
            self.kept.push(Upload {
                photo: Written { path: photo.to_path_buf(), bytes, identity },
                beside: Vec::new(),
            });
        }
    }

    /// Notes files written beside the upload `photo` (its scan's table and report).
    pub fn wrote_beside(&mut self, photo: &Path, files: &[PathBuf]) {
        let Some(upload) = self.kept.iter_mut().find(|u| u.photo.path == photo) else { return };
        for f in files {
            if let Some((identity, bytes)) = Identity::of(f) {
                upload.beside.retain(|w| w.path != *f);
                upload.beside.push(Written { path: f.clone(), bytes, identity });
            }
        }
    }

    /// Removes the oldest uploads (and their scans' files) until what is kept is within
    /// the quota, sparing `in_use` (the photos the session shows) and the newest upload;
    /// gives the files removed.
    pub fn trim(&mut self, in_use: &[PathBuf]) -> Vec<PathBuf> {
        let mut removed = Vec::new();
        loop {
            let count = self.kept.len();
            let bytes: u64 = self.kept.iter().map(Upload::bytes).sum();
            if count <= self.quota.files && bytes <= self.quota.bytes {
                break;
            }
            let Some(oldest) =
                self.kept[..count.saturating_sub(1)].iter().position(|u| !in_use.contains(&u.photo.path))
            else {
                break;
            };
            let upload = self.kept.remove(oldest);
            for w in std::iter::once(&upload.photo).chain(&upload.beside) {
                // Only the very file written: a file put in its place, a link or a
                // folder is left alone.
                if Identity::of(&w.path).is_some_and(|(id, _)| id == w.identity)
                    && std::fs::remove_file(&w.path).is_ok()
                {
                    removed.push(w.path.clone());
                }
            }
        }
        removed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_uploads_go_but_only_the_files_written() {
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str, bytes: usize| {
            let p = dir.path().join(name);
            std::fs::write(&p, vec![7u8; bytes]).unwrap();
            p
        };
        let mut u = Uploads::new(Quota { files: 2, bytes: 10_000 });
        let first = file("001-a.jpg", 100);
        u.wrote_upload(&first);
        let table = file("001-a.jpg.table.json", 50);
        u.wrote_beside(&first, std::slice::from_ref(&table));
        let corrections = file("001-a.jpg.table.corrections.json", 10);
        let second = file("002-b.jpg", 100);
        u.wrote_upload(&second);
        assert!(u.trim(&[]).is_empty(), "within the quota");
        let third = file("003-c.jpg", 100);
        u.wrote_upload(&third);
        // Three photos, two kept: the first goes with its table, not its corrections.
        assert_eq!(u.trim(&[]), vec![first.clone(), table.clone()]);
        assert!(!first.exists() && !table.exists() && corrections.exists());
        assert_eq!(u.find("001-a.jpg"), None);
        assert_eq!(u.find("002-b.jpg"), Some(second.clone()));

        // A file put in place of one written is not the one written: it stays (and the
        // upload is forgotten).
        std::fs::remove_file(&second).unwrap();
        std::fs::write(&second, b"the player's own file").unwrap();
        let fourth = file("004-d.jpg", 100);
        u.wrote_upload(&fourth);
        assert!(u.trim(&[]).is_empty());
        assert!(second.exists());

        // A link where an upload was: left alone.
        #[cfg(unix)]
        {
            std::fs::remove_file(&third).unwrap();
            std::os::unix::fs::symlink(&fourth, &third).unwrap();
            let fifth = file("005-e.jpg", 100);
            u.wrote_upload(&fifth);
            assert!(u.trim(&[]).is_empty());
            assert!(std::fs::symlink_metadata(&third).unwrap().file_type().is_symlink());
        }
    }

    #[test]
    fn bytes_count_too_and_the_photo_shown_stays() {
        let dir = tempfile::tempdir().unwrap();
        let mut u = Uploads::new(Quota { files: 10, bytes: 250 });
        let paths: Vec<PathBuf> = (1..=4)
            .map(|k| {
                let p = dir.path().join(format!("00{k}-x.jpg"));
                std::fs::write(&p, vec![0u8; 100]).unwrap();
                u.wrote_upload(&p);
                p
            })
            .collect();
        // 400 bytes for 250: two go, the oldest not shown (001 is shown).
        assert_eq!(u.trim(&paths[..1]), vec![paths[1].clone(), paths[2].clone()]);
        assert!(paths[0].exists() && paths[3].exists());
    }
}
