//! The layers hold: ARCHITECTURE.md's module table names every module of `src/` (no more, no
//! fewer), and every `crate::` or `super::` path in a module's code leads to a module of a
//! lower rank in that table, or stays inside the module. An import that goes up, or sideways
//! between two modules of one rank, fails here with the line that makes it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The rank of each module, from ARCHITECTURE.md's table rows `| rank | `module` | ... |`.
fn table() -> BTreeMap<String, u32> {
    let text = std::fs::read_to_string(Path::new(ROOT).join("ARCHITECTURE.md")).unwrap();
    let mut ranks = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 {
            continue;
        }
        let (Ok(rank), Some(module)) = (cells[1].parse::<u32>(), cells[2].strip_prefix('`')) else {
            continue;
        };
        let module = module.trim_end_matches('`').to_string();
        assert!(
            ranks.insert(module.clone(), rank).is_none(),
            "{module} listed twice"
        );
    }
    ranks
}

/// Every source file of the library with its module path (`engine/search/root.rs` is
/// `["engine", "search", "root"]`; a `mod.rs` is its folder).
fn sources() -> Vec<(Vec<String>, String)> {
    let mut files = Vec::new();
    walk(&Path::new(ROOT).join("src"), &mut files);
    files
        .into_iter()
        .filter_map(|path| {
            let relative = path.strip_prefix(Path::new(ROOT).join("src")).ok()?;
            let mut module: Vec<String> = relative
                .with_extension("")
                .iter()
                .map(|part| part.to_string_lossy().into_owned())
                .collect();
            if module.last().map(String::as_str) == Some("mod") {
                module.pop();
            }
            let top = matches!(module.as_slice(), [m] if m == "lib" || m == "main");
            (!top).then(|| (module, std::fs::read_to_string(&path).unwrap()))
        })
        .collect()
}

fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The table's module that holds `path`, if any: its first two names.
fn unit(path: &[String]) -> Option<String> {
    (path.len() >= 2).then(|| path[..2].join("::"))
}

/// The code of a file: its lines before the unit tests, comments left out.
fn code(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .take_while(|(_, line)| line.trim() != "#[cfg(test)]")
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .map(|(i, line)| (i + 1, line))
}

/// The modules a line names, as absolute paths: `crate::a::b` and `super::…::a`, resolved from
/// `module`.
fn named(module: &[String], line: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (at, _) in line
        .match_indices("crate::")
        .chain(line.match_indices("super::"))
    {
        let before = line[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let mut path: Vec<String> = Vec::new();
        let mut base = module[..module.len() - 1].to_vec();
        let mut names = line[at..]
            .split("::")
            .map(|n| n.trim_end_matches(|c: char| !(c.is_alphanumeric() || c == '_')));
        match names.next() {
            Some("crate") => {}
            _ => path.append(&mut base),
        }
        for name in names {
            match name {
                "super" => {
                    path.pop();
                }
                n if n.chars().next().is_some_and(|c| c.is_ascii_lowercase()) => {
                    path.push(n.to_string())
                }
                _ => break,
            }
        }
        found.push(path);
    }
    found
}

#[test]
fn the_module_table_lists_every_module_of_src() {
    let listed: BTreeSet<String> = table().into_keys().collect();
    let present: BTreeSet<String> = sources().iter().filter_map(|(m, _)| unit(m)).collect();
    assert_eq!(
        listed, present,
        "ARCHITECTURE.md's module table against the modules of src/"
    );
}

#[test]
fn every_import_goes_down_the_layers() {
    let ranks = table();
    let mut wrong = Vec::new();
    for (module, text) in sources() {
        let own = unit(&module);
        for (number, line) in code(&text) {
            for target in named(&module, line) {
                let Some(to) = unit(&target).filter(|to| Some(to) != own.as_ref()) else {
                    continue;
                };
                let Some(from) = own.as_ref() else {
                    wrong.push(format!("{}: line {number} names {to}", module.join("/")));
                    continue;
                };
                if ranks.get(&to).is_none_or(|rank| rank >= &ranks[from]) {
                    wrong.push(format!(
                        "{from} (line {number} of {}) names {to}",
                        module.join("/")
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that do not go down:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn paths_resolve_from_the_module_that_names_them() {
    let module = ["engine", "search", "root"].map(String::from);
    let line = "use crate::play::thread::SearchThread; use super::super::tt::X; let y = xcrate::a;";
    let expected = [vec!["play", "thread"], vec!["engine", "tt"]];
    assert_eq!(
        named(&module, line),
        expected.map(|p| p.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    );
}
