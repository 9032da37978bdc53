//! Writing output files so that a failure never leaves a half-written file behind: the
//! bytes go to a temporary file in the same directory, which is renamed over the target
//! only once complete.

use crate::error::CliError;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically (same-directory temporary file, then rename).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let err = |source: std::io::Error| CliError::Write { path: path.display().to_string(), source };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name =
        path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".to_string());
    let tmp = dir.join(format!(".{name}.partial-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(err(e));
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
}
