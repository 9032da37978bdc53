//! Writing output files so that a failure never leaves a half-written file behind: the
//! bytes go to a temporary file in the same directory, which is renamed over the target
//! only once complete.
//!
//! Only regular files are replaced (issue 41 item 1): an output path naming a directory,
//! a named pipe, a device or a socket is refused with a message before any work
//! ([`check_outputs`]) and again when written, never renamed over (as root, a rename onto
//! `/dev/full` deleted the device). `-` names standard output where a verb says so
//! ([`is_stdout`]); elsewhere it is refused rather than taken as a file named `-`.
//!
//! A write that the process does not live to finish leaves no `.NAME.partial-PID`: the
//! file-size limit's signal (SIGXFSZ) is ignored, so such a write fails with EFBIG and is
//! cleaned up like any other failure; SIGINT, SIGTERM and SIGHUP remove the partial files
//! being written before the process dies of them ([`guard_process`]); and what a SIGKILL
//! leaves is removed by the next write to that name ([`remove_stale_partials`]).

use crate::error::CliError;
use std::io::Write;
use std::path::{Path, PathBuf};

/// True when `path` is `-`: standard output, for the options that accept it.
#[must_use]
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// What kind of thing other than a regular file `m` describes, for messages; `None` for a
/// regular file.
fn not_a_file(m: &std::fs::Metadata) -> Option<&'static str> {
    let t = m.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a named pipe (FIFO)");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
        if t.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

/// Refuses `path` when it (or the file its symbolic links lead to) exists and is not a
/// regular file; a missing path is fine (it will be created).
fn refuse_unless_regular(path: &Path, target: &Path) -> Result<(), CliError> {
    match std::fs::metadata(target).ok().as_ref().and_then(not_a_file) {
        Some(kind) => Err(CliError::NotAFile { path: path.display().to_string(), kind }),
        None => Ok(()),
    }
}

/// Writes `bytes` to `path` atomically (same-directory temporary file, then rename).
///
/// A symbolic link is written through (its target is replaced, the link stays); an
/// existing file keeps its permissions (a private 600 file stays private); temporary
/// files that a killed run left beside the target (`.NAME.partial-PID` of a process
/// that no longer runs) are removed. Anything but a regular file (or a missing path) is
/// refused, and so is `-` (the verbs that write to standard output check
/// [`is_stdout`] first).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let err = |source: std::io::Error| CliError::Write { path: path.display().to_string(), source };
    if is_stdout(path) {
        return Err(CliError::Usage(
            "'-' (standard output) is not a file: give a file name (./- for a file named -)".to_string(),
        ));
    }
    let target = resolve_links(path).map_err(err)?;
    refuse_unless_regular(path, &target)?;
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name =
        target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".to_string());
    remove_stale_partials(&dir, &name);
    let tmp = dir.join(format!(".{name}.partial-{}", std::process::id()));
    let permissions = std::fs::metadata(&target).ok().map(|m| m.permissions());
    let armed = signals::Armed::new(&tmp);
    let result = (|| {
        // A file of this name is a leftover of an earlier process with this pid: never
        // write through whatever it is.
        let _ = std::fs::remove_file(&tmp);
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(bytes)?;
        if let Some(p) = permissions {
            f.set_permissions(p)?;
        }
        f.sync_all()?;
        drop(f);
        // The target may have been replaced by a device or a FIFO while this ran.
        if let Some(kind) = std::fs::metadata(&target).ok().as_ref().and_then(not_a_file) {
            return Err(std::io::Error::other(format!("it is now {kind}, not a regular file")));
        }
        std::fs::rename(&tmp, &target)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        drop(armed);
        return Err(err(e));
    }
    drop(armed);
    Ok(())
}

/// Writes `bytes` to standard output (`out`) when `path` is `-`, else to the file
/// atomically ([`write_atomically`]). For the options that take `-`.
pub fn write_to(path: &Path, bytes: &[u8], out: &mut dyn Write) -> Result<(), CliError> {
    if is_stdout(path) {
        return out
            .write_all(bytes)
            .and_then(|()| out.flush())
            .map_err(|source| CliError::Write { path: "standard output".to_string(), source });
    }
    write_atomically(path, bytes)
}

/// Prepares this process for writing outputs ([`write_atomically`]): the file-size
/// limit makes a write fail (EFBIG) instead of killing the process mid-file, and SIGINT,
/// SIGTERM and SIGHUP remove the partial files being written before the process dies
/// of them (a signal the process was started ignoring stays ignored). Called first
/// thing by both binaries.
pub fn guard_process() {
    signals::install();
}

/// The partial files being written, and the signals that remove them (Linux; elsewhere
/// a killed write may leave its partial file until the next write to that name).
#[cfg(target_os = "linux")]
mod signals {
    use std::cell::UnsafeCell;
    use std::path::Path;
    use std::sync::atomic::{AtomicU8, Ordering};

    /// How many writes may be under way at once (more are written unguarded).
    const SLOTS: usize = 16;
    /// The longest path a slot holds, NUL included (longer ones are written unguarded).
    const PATH_BYTES: usize = 4096;
    const FREE: u8 = 0;
    const FILLING: u8 = 1;
    const ARMED: u8 = 2;

    /// A partial file's path, readable from a signal handler: the handler reads the path
    /// only while the slot is `ARMED`, and the writer fills it only while `FILLING`.
    struct Slot {
        state: AtomicU8,
        path: UnsafeCell<[u8; PATH_BYTES]>,
    }

    // SAFETY: `path` is written only by the thread that moved `state` from FREE to
    // FILLING, and read (by the handler) only while `state` is ARMED.
    unsafe impl Sync for Slot {}

    static PARTIALS: [Slot; SLOTS] =
        [const { Slot { state: AtomicU8::new(FREE), path: UnsafeCell::new([0; PATH_BYTES]) } }; SLOTS];

    /// A partial file the signals remove while this lives.
    pub(super) struct Armed(Option<usize>);

    impl Armed {
        pub(super) fn new(path: &Path) -> Armed {
            use std::os::unix::ffi::OsStrExt;
            let bytes = path.as_os_str().as_bytes();
            if bytes.len() >= PATH_BYTES || bytes.contains(&0) {
                return Armed(None);
            }
            for (i, slot) in PARTIALS.iter().enumerate() {
                if slot.state.compare_exchange(FREE, FILLING, Ordering::AcqRel, Ordering::Relaxed).is_ok() {
                    // SAFETY: this thread owns the slot (FILLING); the handler skips it.
                    let buf = unsafe { &mut *slot.path.get() };
                    buf[..bytes.len()].copy_from_slice(bytes);
                    buf[bytes.len()] = 0;
                    slot.state.store(ARMED, Ordering::Release);
                    return Armed(Some(i));
                }
            }
            Armed(None)
        }
    }

    impl Drop for Armed {
        fn drop(&mut self) {
            if let Some(i) = self.0 {
                PARTIALS[i].state.store(FREE, Ordering::Release);
            }
        }
    }

    /// Removes every armed partial file (async-signal-safe).
    pub(super) fn remove_armed() {
        for slot in &PARTIALS {
            if slot.state.load(Ordering::Acquire) == ARMED {
                // SAFETY: an armed slot holds a NUL-terminated path; unlink is
                // async-signal-safe.
                unsafe {
                    libc::unlink(slot.path.get().cast::<libc::c_char>());
                }
            }
        }
    }

    /// Removes every armed partial file, then dies of `sig` as if it had not been caught.
    extern "C" fn on_signal(sig: libc::c_int) {
        remove_armed();
        // SAFETY: signal and raise are async-signal-safe.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }

    pub(super) fn install() {
        // SAFETY: plain signal dispositions; the handler only touches the atomics and
        // buffers above and async-signal-safe calls.
        unsafe {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, std::ptr::null(), &mut old) == 0 && old.sa_sigaction == libc::SIG_IGN
                {
                    continue;
                }
                let mut new: libc::sigaction = std::mem::zeroed();
                new.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                libc::sigemptyset(&mut new.sa_mask);
                libc::sigaction(sig, &new, std::ptr::null_mut());
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod signals {
    pub(super) struct Armed;
    impl Armed {
        pub(super) fn new(_: &std::path::Path) -> Armed {
            Armed
        }
    }
    pub(super) fn install() {}
}

/// Follows symbolic links from `path` (at most 40, as the kernel does) to the file a
/// write should replace.
fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(parent) if link.is_relative() => parent.join(link),
                    _ => link,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// Removes `.NAME.partial-PID` files in `dir` whose process no longer runs (where
/// `/proc` tells; elsewhere nothing is removed).
fn remove_stale_partials(dir: &Path, name: &str) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let prefix = format!(".{name}.partial-");
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let file = e.file_name();
        let Some(pid) = file.to_str().and_then(|f| f.strip_prefix(&prefix)) else { continue };
        if pid
            .parse::<u32>()
            .is_ok_and(|pid| pid != std::process::id() && !proc.join(pid.to_string()).exists())
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Writes every file, or none: when one fails, the ones already written by this call
/// are removed again.
pub fn write_all_or_none(files: &[(&Path, Vec<u8>)]) -> Result<(), CliError> {
    let mut written: Vec<&Path> = Vec::new();
    for (path, bytes) in files {
        if let Err(e) = write_atomically(path, bytes) {
            for p in written {
                let _ = std::fs::remove_file(p);
            }
            return Err(e);
        }
        written.push(path);
    }
    Ok(())
}

/// Refuses output paths that name one of the inputs or each other, or anything but a
/// regular file (a directory, a named pipe, a device, a socket), or `-`, before any work
/// is done: `-o` naming the photo would overwrite it, and two outputs on one path lose
/// one. An option that takes `-` for standard output leaves it out of `outputs`.
pub fn check_outputs(outputs: &[(&str, &Path)], inputs: &[(&str, &Path)]) -> Result<(), CliError> {
    for (what, out) in outputs {
        if is_stdout(out) {
            return Err(CliError::Usage(format!(
                "{what} -: standard output carries this command's own text; give a file name (./- for a file named -)"
            )));
        }
        refuse_unless_regular(out, &resolve_links(out).unwrap_or_else(|_| out.to_path_buf()))?;
    }
    let key = |p: &Path| -> PathBuf {
        let p = resolve_links(p).unwrap_or_else(|_| p.to_path_buf());
        if let Ok(c) = std::fs::canonicalize(&p) {
            return c;
        }
        match (p.parent(), p.file_name()) {
            (Some(d), Some(n)) => {
                let d = if d.as_os_str().is_empty() { Path::new(".") } else { d };
                std::fs::canonicalize(d).map_or_else(|_| p.clone(), |d| d.join(n))
            }
            _ => p.clone(),
        }
    };
    for (i, (what, out)) in outputs.iter().enumerate() {
        let k = key(out);
        if let Some((input, _)) = inputs.iter().find(|(_, p)| key(p) == k) {
            return Err(CliError::Usage(format!(
                "{what} {} is the {input}: it would be overwritten; choose another file",
                out.display()
            )));
        }
        if let Some((other, _)) = outputs[..i].iter().find(|(_, p)| key(p) == k) {
            return Err(CliError::Usage(format!(
                "{what} and {other} are both {}: one would be lost; choose two files",
                out.display()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_whole_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.json");
        write_atomically(&p, b"{}").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"{}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn failure_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("missing-dir").join("out.json");
        assert!(write_atomically(&p, b"{}").is_err());
        assert!(!p.exists());
    }

    #[cfg(unix)]
    #[test]
    fn links_modes_and_leftovers_are_respected() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        std::fs::write(&real, b"old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        // A leftover of a killed run (no process has this pid: above the kernel limit).
        let stale = dir.path().join(".real.json.partial-999999999");
        std::fs::write(&stale, b"half").unwrap();
        write_atomically(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays");
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o600);
        assert!(!stale.exists(), "the leftover is removed");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_signal_removes_the_partial_files_being_written() {
        // What SIGINT, SIGTERM and SIGHUP do before the process dies (issue 41 item 1).
        let dir = tempfile::tempdir().unwrap();
        let partial = dir.path().join(".out.json.partial-1");
        std::fs::write(&partial, b"half").unwrap();
        let armed = signals::Armed::new(&partial);
        signals::remove_armed();
        assert!(!partial.exists(), "the armed partial file is removed");
        drop(armed);
        // Once the write is done, its file is no longer touched.
        std::fs::write(&partial, b"whole").unwrap();
        let armed = signals::Armed::new(&partial);
        drop(armed);
        signals::remove_armed();
        assert!(partial.exists());
    }

    #[cfg(unix)]
    #[test]
    fn anything_but_a_regular_file_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let e = write_atomically(&sub, b"{}").unwrap_err().to_string();
        assert!(e.contains("it is a directory, not a regular file"), "{e}");
        assert!(sub.is_dir());
        let sock = dir.path().join("s.sock");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        let e = check_outputs(&[("-o", &sock)], &[]).unwrap_err().to_string();
        assert!(e.contains("it is a socket"), "{e}");
        // A link to a directory is refused as the directory.
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("sub", &link).unwrap();
        assert!(write_atomically(&link, b"{}").unwrap_err().to_string().contains("a directory"));
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        // `-` is standard output, never a file named `-`.
        let e = check_outputs(&[("--plan", Path::new("-"))], &[]).unwrap_err().to_string();
        assert!(e.contains("--plan -: standard output"), "{e}");
        assert!(write_atomically(Path::new("-"), b"{}").is_err());
        let mut out = Vec::new();
        write_to(Path::new("-"), b"{}", &mut out).unwrap();
        assert_eq!(out, b"{}");
        // Nothing was left beside them.
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into())
            .collect();
        assert!(names.iter().all(|n| !n.contains(".partial-")), "{names:?}");
    }

    #[test]
    fn outputs_may_not_name_inputs_or_each_other() {
        let dir = tempfile::tempdir().unwrap();
        let photo = dir.path().join("photo.jpg");
        std::fs::write(&photo, b"x").unwrap();
        let same = dir.path().join(".").join("photo.jpg");
        let e = check_outputs(&[("-o", &same)], &[("photo", &photo)]).unwrap_err().to_string();
        assert!(e.contains("is the photo"), "{e}");
        let t = dir.path().join("t.json");
        let e = check_outputs(&[("-o", &t), ("--report", &t)], &[]).unwrap_err().to_string();
        assert!(e.contains("both"), "{e}");
        assert!(
            check_outputs(&[("-o", &t), ("--report", &dir.path().join("r.json"))], &[("photo", &photo)])
                .is_ok()
        );
    }
}
