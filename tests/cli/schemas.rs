//! The documented formats are the code's formats: the committed JSON Schemas equal what
//! the types generate (refresh deliberately with REGENERATE=1), every sample table
//! validates against the table schema, and every report the samples produce validates
//! against the report schema.

use crate::common;
use common::{golden, root, sample, stdout, vedette};
use vedette::commands::schema::{Which, schema_text};

fn validator(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("docs").join(name)).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn assert_valid(v: &jsonschema::Validator, instance: &serde_json::Value, what: &str) {
    let errors: Vec<String> =
        v.iter_errors(instance).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{what} does not match its schema:\n{}", errors.join("\n"));
}

#[test]
fn committed_schemas_match_the_code() {
    golden(&root().join("docs/table.schema.json"), &schema_text(Which::Table));
    golden(&root().join("docs/report.schema.json"), &schema_text(Which::Report));
    golden(&root().join("docs/los.schema.json"), &schema_text(Which::Los));
    golden(&root().join("docs/corrections.schema.json"), &schema_text(Which::Corrections));
}

fn sample_tables() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(root().join("samples"))
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    assert!(v.len() >= 3, "expected at least three sample tables");
    v
}

#[test]
fn sample_tables_validate_against_the_table_schema() {
    let v = validator("table.schema.json");
    for p in sample_tables() {
        let instance: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        assert_valid(&v, &instance, &p.display().to_string());
        vedette_geometry::Table::load(&p).unwrap();
    }
}

#[test]
fn reports_validate_against_the_report_schema() {
    let v = validator("report.schema.json");
    for p in sample_tables() {
        let out = vedette(&["report", p.to_str().unwrap(), "--json"]);
        assert!(out.status.success(), "{}", common::stderr(&out));
        let instance: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_valid(&v, &instance, &format!("report of {}", p.display()));
    }
}

#[test]
fn the_grand_battle_sample_is_what_the_generator_makes() {
    let table = vedette::generate::grand_battle(&vedette::generate::BattleSpec::GRAND_BATTLE);
    golden(&sample("grand-battle.json"), &format!("{}\n", table.to_json_string()));
}

#[test]
fn the_table_schema_rejects_what_the_loader_rejects() {
    let v = validator("table.schema.json");
    for bad in [
        serde_json::json!({"schema": "vedette/table/1", "rules": "republique5", "scale": "medium"}),
        serde_json::json!({"schema": "vedette/table/1", "rules": "chess", "scale": "medium", "units": []}),
        serde_json::json!({"schema": "vedette/table/1", "rules": "republique5", "scale": "medium", "units": [
            {"id": "a", "side": "x", "kind": "infantry", "bases": [{"x": 0, "y": 0, "heading": 0, "width": 1}]}]}),
    ] {
        assert!(!v.is_valid(&bad), "schema accepted {bad}");
        assert!(vedette_geometry::Table::from_json_str(&bad.to_string()).is_err());
    }
}
