//! The build's id (`OUT_DIR/build_id`, included by the two binaries): a hash of the
//! workspace's Rust sources and its Cargo.lock. `vedette` hands the photo verbs to `vedette-scanner` with its id, and the
//! scanner refuses to run for a `vedette` built from other sources: `cargo build --bin
//! vedette` alone leaves an old scanner beside a new `vedette`, whose scans would
//! silently use old code.

use std::path::{Path, PathBuf};

/// FNV-1a, 64 bits: enough to tell two source trees apart, no dependency.
fn fnv(hash: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *hash ^= u64::from(*b);
        *hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
}

/// Every `.rs` file under `dir`, sorted.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let mut dirs = vec![root.join("src")];
    if let Ok(crates) = std::fs::read_dir(root.join("crates")) {
        dirs.extend(crates.flatten().map(|c| c.path().join("src")));
    }
    let mut files = Vec::new();
    for d in &dirs {
        println!("cargo:rerun-if-changed={}", d.display());
        sources(d, &mut files);
    }
    println!("cargo:rerun-if-changed=Cargo.lock");
    files.push(root.join("Cargo.lock"));
    files.sort();
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for f in &files {
        fnv(&mut hash, f.strip_prefix(&root).unwrap_or(f).to_string_lossy().as_bytes());
        fnv(&mut hash, &std::fs::read(f).unwrap_or_default());
    }
    // Written only when it changes, and included by the binaries alone (not the
    // library): a change to the scanner's sources relinks the binaries, nothing more.
    let id = format!("{hash:016x}");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default()).join("build_id");
    if std::fs::read_to_string(&out).ok().as_deref() != Some(id.as_str()) {
        let _ = std::fs::write(&out, id);
    }
}
