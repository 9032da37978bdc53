//! What the tests of the whole workspace share: one proptest configuration (fixed seed,
//! no regression files), so that every property test runs the same cases on every
//! machine. Compiled into the geometry crate's unit tests, and into the integration
//! tests of this crate and of the CLI through `#[path]` (it needs only proptest).

use proptest::test_runner::{Config, RngSeed};

/// The proptest configuration of every property test: `cases` cases from the fixed
/// seed `seed` (each test its own seed, so that tests do not share their cases), and no
/// persisted failures (a failure is reproduced by the seed itself).
#[must_use]
pub fn proptest_config(cases: u32, seed: u64) -> Config {
    Config { cases, rng_seed: RngSeed::Fixed(seed), failure_persistence: None, ..Config::default() }
}
