//! Hostile and careless input (issue 20): bounded where it used to crash, hang or write
//! tables the other verbs refuse; each case exits 1 with a message, writes nothing, and
//! just inside each bound works.

mod common;
use common::{stderr, vedette};

#[test]
fn generate_bounds_its_counts_and_writes_only_tables_that_load() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.json");
    let o = out.to_str().unwrap();
    // Used to panic (capacity overflow) or run out of memory.
    for args in [
        vec!["generate", "--terrain", "18446744073709551615", "-o", o],
        vec!["generate", "--bases", "1000001", "-o", o],
        vec!["generate", "--bases", "0", "-o", o],
    ] {
        let r = vedette(&args);
        assert_eq!(r.status.code(), Some(1), "{args:?}: {}", stderr(&r));
        assert!(stderr(&r).starts_with("error: --"), "{}", stderr(&r));
        assert!(!out.exists(), "{args:?} wrote a file");
    }
    // 2,000 bases with 200 features used to write crossing hill contours that `report`
    // refused; every seed now writes a table that loads.
    for seed in ["7", "1805"] {
        let r = vedette(&["generate", "--bases", "2000", "--terrain", "200", "--seed", seed, "-o", o]);
        assert!(r.status.success(), "{}", stderr(&r));
        let r = vedette(&["report", o, "--json"]);
        assert!(r.status.success(), "seed {seed}: {}", stderr(&r));
    }
}
