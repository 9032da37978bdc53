//! Writing output files so that a failure never leaves a half-written file behind: the
//! bytes go to a temporary file in the same directory, which is renamed over the target
//! only once complete.

use crate::error::CliError;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically (same-directory temporary file, then rename).
///
/// A symbolic link is written through (its target is replaced, the link stays); an
/// existing file keeps its permissions (a private 600 file stays private); temporary
/// files that a killed run left beside the target (`.NAME.partial-PID` of a process
/// that no longer runs) are removed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let err = |source: std::io::Error| CliError::Write { path: path.display().to_string(), source };
    let target = resolve_links(path).map_err(err)?;
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name =
        target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".to_string());
    remove_stale_partials(&dir, &name);
    let tmp = dir.join(format!(".{name}.partial-{}", std::process::id()));
    let permissions = std::fs::metadata(&target).ok().map(|m| m.permissions());
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        if let Some(p) = permissions {
            f.set_permissions(p)?;
        }
        f.sync_all()?;
        std::fs::rename(&tmp, &target)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(err(e));
    }
    Ok(())
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

/// Refuses output paths that name one of the inputs or each other, before any work is
/// done: `-o` naming the photo would overwrite it, and two outputs on one path lose one.
pub fn check_outputs(outputs: &[(&str, &Path)], inputs: &[(&str, &Path)]) -> Result<(), CliError> {
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
