//! `oxello slurm`: a sharded job (self-play, relabelling, a book, a match) as a Slurm job
//! array, one shard per task, and a job that merges the shards once every task succeeded.
//!
//! `oxello slurm submit JOB --shards N --out DIR -- ARGS` writes into DIR the run's plan (the
//! job, N and the job's own arguments, framed as the data files are), `task.sh` (the array:
//! `#SBATCH --array=0-(N-1)`) and `merge.sh`, then submits them with
//! `sbatch --parsable` and `--dependency=afterok:` and prints their job ids. Each task runs
//! `oxello slurm task DIR K`: the job with `--shard K/N`, its output written whole by the job
//! to `DIR/shard-K.*`, then a stamp `DIR/shard-K.done` that records the plan's checksum and
//! the shard's length and checksum. A task whose stamp holds finds its shard complete and
//! skips it, so a failed or killed task is rerun alone (`sbatch --array=K DIR/task.sh`). The
//! merge, `oxello slurm merge DIR`, refuses a missing shard (naming them), a stamp of another
//! plan and a shard changed since its stamp, then runs the job's own merge.

use crate::base::datafile::{checksum, frame, write_atomically, Field, Frame, FrameError};
use clap::{Args, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

const PLAN_MAGIC: &[u8; 8] = b"OXSLURM\n";
const STAMP_MAGIC: &[u8; 8] = b"OXSTAMP\n";
const VERSION: u32 = 1;
/// Magic, version, N, the payload's length and checksum.
const PLAN_HEADER_BYTES: usize = 32;
/// Magic, version, K, N, the plan's checksum, the shard's length and checksum, the (empty)
/// payload's checksum.
const STAMP_HEADER_BYTES: usize = 52;

/// The options each task or the merge gives the job, refused among the job's arguments.
const OWNED: [&str; 5] = ["--shard", "--shard-out", "--out", "--merge", "--ggf-out"];

#[derive(Args)]
pub struct SlurmArgs {
    #[command(subcommand)]
    command: SlurmCommand,
}

#[derive(Subcommand)]
enum SlurmCommand {
    /// Write the run's plan and sbatch scripts into --out and submit them (the array, then the
    /// merge after it): `oxello slurm submit selfplay --shards 16 --out run -- --games 40000
    /// --seed 1 --threads 2`. The job's arguments come after `--`, without its shard or output.
    Submit(SubmitArgs),
    /// Run shard K of the plan in DIR (what each array task runs); skip it if complete.
    Task { dir: PathBuf, k: u32 },
    /// Check that every shard of the plan in DIR is complete, then merge them.
    Merge { dir: PathBuf },
}

/// The jobs that run in shards.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Job {
    /// `oxello selfplay`, merged by `oxello data merge` into DIR/selfplay.bin.
    Selfplay,
    /// `oxello data relabel IN`, merged by `oxello data merge` into DIR/relabel.bin.
    Relabel,
    /// `oxello book build`, merged by `oxello book merge` into DIR/book.bin.
    Book,
    /// `oxello match`, merged by `oxello match --merge` into DIR/report.txt, report.json and
    /// games.ggf.
    Match,
}

#[derive(Args)]
struct SubmitArgs {
    job: Job,
    /// Tasks of the array: the job's shards.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    shards: u32,
    /// The run's folder: plan, scripts, shards, logs and the merged output.
    #[arg(long)]
    out: PathBuf,
    /// Slurm partition (default: the cluster's).
    #[arg(long)]
    partition: Option<String>,
    /// Time limit of each task, as sbatch reads it (e.g. 2:00:00).
    #[arg(long)]
    time: Option<String>,
    /// Memory of each task, as sbatch reads it (e.g. 1G).
    #[arg(long)]
    mem: Option<String>,
    /// CPUs of each task (give the job as many --threads).
    #[arg(long, default_value_t = 1)]
    cpus_per_task: u32,
    /// Write the plan and scripts, print the sbatch commands, submit nothing.
    #[arg(long)]
    dry_run: bool,
    /// The job's own arguments.
    #[arg(last = true)]
    args: Vec<String>,
}

/// A run: the job, its shards, its arguments.
#[derive(Clone, Debug, PartialEq)]
struct Plan {
    job: Job,
    n: u32,
    args: Vec<String>,
}

impl Job {
    fn name(self) -> &'static str {
        match self {
            Job::Selfplay => "selfplay",
            Job::Relabel => "relabel",
            Job::Book => "book",
            Job::Match => "match",
        }
    }

    /// The extension of its shard files.
    fn extension(self) -> &'static str {
        match self {
            Job::Match => "match",
            _ => "bin",
        }
    }

    /// The command line (after the program) of shard `k` of `n`, written to `shard`.
    fn shard_command(self, args: &[String], k: u32, n: u32, shard: &Path) -> Vec<String> {
        let (shard, split) = (shard.display().to_string(), format!("{k}/{n}"));
        let words = |before: &[&str], after: &[&str]| -> Vec<String> {
            let before = before.iter().map(|w| w.to_string());
            let after = after.iter().map(|w| w.to_string());
            before.chain(args.iter().cloned()).chain(after).collect()
        };
        match self {
            Job::Selfplay => words(&["selfplay"], &["--shard", &split, "--out", &shard]),
            Job::Relabel => words(&["data", "relabel"], &[&shard, "--shard", &split]),
            Job::Book => words(&["book", "build", &shard], &["--shard", &split]),
            Job::Match => words(&["match"], &["--shard", &split, "--shard-out", &shard]),
        }
    }

    /// The merge's command lines, each with the file its stdout goes to (if any).
    fn merge_commands(self, dir: &Path, shards: &[PathBuf]) -> Vec<(Vec<String>, Option<PathBuf>)> {
        let path = |name: &str| dir.join(name).display().to_string();
        let with_shards = |words: &[&str]| -> Vec<String> {
            let shards = shards.iter().map(|s| s.display().to_string());
            words.iter().map(|w| w.to_string()).chain(shards).collect()
        };
        match self {
            Job::Selfplay | Job::Relabel => {
                let out = path(&format!("{}.bin", self.name()));
                vec![(with_shards(&["data", "merge", &out]), None)]
            }
            Job::Book => vec![(with_shards(&["book", "merge", &path("book.bin")]), None)],
            Job::Match => {
                let mut text = with_shards(&["match", "--merge"]);
                text.extend(["--ggf-out".to_string(), path("games.ggf")]);
                let mut json = with_shards(&["match", "--merge"]);
                json.push("--json".into());
                vec![
                    (text, Some(dir.join("report.txt"))),
                    (json, Some(dir.join("report.json"))),
                ]
            }
        }
    }
}

impl Plan {
    fn encode(&self) -> Vec<u8> {
        let mut text = format!("{}\n", self.job.name());
        for arg in &self.args {
            text.push_str(arg);
            text.push('\n');
        }
        let fields = [Field::U32(self.n), Field::U64(text.len() as u64)];
        frame(PLAN_MAGIC, VERSION, &fields, text.as_bytes())
    }

    fn decode(bytes: &[u8]) -> Result<Plan, String> {
        let describe = |e: FrameError| format!("{}", Described(e, "Slurm plan"));
        let framed =
            Frame::open(bytes, PLAN_MAGIC, VERSION, PLAN_HEADER_BYTES).map_err(describe)?;
        let payload = framed
            .payload(framed.u64_at(16), framed.u64_at(24))
            .map_err(describe)?;
        let text = std::str::from_utf8(payload).map_err(|_| "a plan that is not UTF-8")?;
        let mut lines = text.lines();
        let name = lines.next().unwrap_or("");
        let job = Job::from_str(name, false).map_err(|_| format!("unknown job '{name}'"))?;
        let args = lines.map(str::to_string).collect();
        if framed.u32_at(12) == 0 {
            return Err("a plan of no shards".into());
        }
        Ok(Plan {
            job,
            n: framed.u32_at(12),
            args,
        })
    }

    fn shard_path(&self, dir: &Path, k: u32) -> PathBuf {
        dir.join(format!("shard-{k}.{}", self.job.extension()))
    }
}

/// A frame error with its kind of file, as text.
struct Described(FrameError, &'static str);

impl std::fmt::Display for Described {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.describe(self.1, f)
    }
}

fn plan_path(dir: &Path) -> PathBuf {
    dir.join("plan")
}

fn stamp_path(dir: &Path, k: u32) -> PathBuf {
    dir.join(format!("shard-{k}.done"))
}

fn read_plan(dir: &Path) -> Result<(Plan, u64), String> {
    let path = plan_path(dir);
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let plan = Plan::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((plan, checksum(&bytes)))
}

/// A shard's stamp: its share, its plan, and the shard file's length and checksum.
fn stamp(k: u32, n: u32, plan: u64, shard: &[u8]) -> Vec<u8> {
    let fields = [
        Field::U32(k),
        Field::U32(n),
        Field::U64(plan),
        Field::U64(shard.len() as u64),
        Field::U64(checksum(shard)),
    ];
    frame(STAMP_MAGIC, VERSION, &fields, &[])
}

/// Why shard `k` is not complete, or `None` if it is.
fn incomplete(dir: &Path, plan: &Plan, sum: u64, k: u32) -> Option<String> {
    let path = stamp_path(dir, k);
    let Ok(bytes) = std::fs::read(&path) else {
        return Some("no stamp".into());
    };
    let expected = |shard: &[u8]| stamp(k, plan.n, sum, shard);
    let framed = Frame::open(&bytes, STAMP_MAGIC, VERSION, STAMP_HEADER_BYTES);
    if framed.is_ok_and(|f| f.u64_at(20) != sum) {
        return Some(format!("{} is the stamp of another run", path.display()));
    }
    let shard_path = plan.shard_path(dir, k);
    match std::fs::read(&shard_path) {
        Ok(shard) if expected(&shard) == bytes => None,
        Ok(_) => Some(format!(
            "{} does not match its stamp {}",
            shard_path.display(),
            path.display()
        )),
        Err(e) => Some(format!("{}: {e}", shard_path.display())),
    }
}

/// `oxello slurm`.
pub fn run(args: SlurmArgs) -> ExitCode {
    let result = match args.command {
        SlurmCommand::Submit(args) => submit(&args),
        SlurmCommand::Task { dir, k } => task(&dir, k),
        SlurmCommand::Merge { dir } => merge(&dir),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("oxello slurm: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs shard `k` unless it is complete (a shard file without its stamp is removed first),
/// then stamps it.
fn task(dir: &Path, k: u32) -> Result<(), String> {
    let (plan, sum) = read_plan(dir)?;
    if k >= plan.n {
        return Err(format!("shard {k} of a plan of {} shards", plan.n));
    }
    if incomplete(dir, &plan, sum, k).is_none() {
        eprintln!("oxello slurm: shard {k}/{} is complete; skipped", plan.n);
        return Ok(());
    }
    let shard = plan.shard_path(dir, k);
    // What a killed or changed run left: the job starts afresh rather than adding to it.
    if shard.exists() {
        std::fs::remove_file(&shard).map_err(|e| format!("{}: {e}", shard.display()))?;
    }
    run_oxello(&plan.job.shard_command(&plan.args, k, plan.n, &shard), None)?;
    let bytes = std::fs::read(&shard).map_err(|e| format!("{}: {e}", shard.display()))?;
    let path = stamp_path(dir, k);
    write_atomically(&path, &stamp(k, plan.n, sum, &bytes))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("oxello slurm: shard {k}/{} done", plan.n);
    Ok(())
}

/// Checks every shard, then runs the job's merge.
fn merge(dir: &Path) -> Result<(), String> {
    let (plan, sum) = read_plan(dir)?;
    let problems: Vec<(u32, String)> = (0..plan.n)
        .filter_map(|k| incomplete(dir, &plan, sum, k).map(|why| (k, why)))
        .collect();
    if let Some((_, why)) = problems.iter().find(|(_, why)| why != "no stamp") {
        return Err(format!("refusing to merge: {why}"));
    }
    if !problems.is_empty() {
        let ks: Vec<String> = problems.iter().map(|(k, _)| k.to_string()).collect();
        return Err(format!(
            "refusing to merge: shard{} {} of {} not complete; rerun with sbatch --array={} {}, then merge again",
            if ks.len() == 1 { "" } else { "s" },
            ks.join(", "),
            plan.n,
            ks.join(","),
            dir.join("task.sh").display()
        ));
    }
    let shards: Vec<PathBuf> = (0..plan.n).map(|k| plan.shard_path(dir, k)).collect();
    for (command, stdout) in plan.job.merge_commands(dir, &shards) {
        run_oxello(&command, stdout.as_deref())?;
    }
    Ok(())
}

/// Runs this oxello with `words`; its stdout to `stdout` (written whole) or ours.
fn run_oxello(words: &[String], stdout: Option<&Path>) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    let shown = format!("oxello {}", words.join(" "));
    eprintln!("oxello slurm: running {shown}");
    let mut command = Command::new(&exe);
    command
        .args(words)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit());
    if stdout.is_none() {
        command.stdout(Stdio::inherit());
    }
    let output = command.output().map_err(|e| format!("{shown}: {e}"))?;
    if !output.status.success() {
        return Err(format!("{shown}: {}", output.status));
    }
    match stdout {
        Some(path) => {
            write_atomically(path, &output.stdout).map_err(|e| format!("{}: {e}", path.display()))
        }
        None => Ok(()),
    }
}

/// Writes the plan and scripts, then submits them (or prints how).
fn submit(args: &SubmitArgs) -> Result<(), String> {
    let plan = Plan {
        job: args.job,
        n: args.shards,
        args: args.args.clone(),
    };
    if let Some(bad) = plan.args.iter().find(|a| a.contains('\n')) {
        return Err(format!("an argument with a line break: {bad:?}"));
    }
    let owned = |a: &String| OWNED.contains(&a.split('=').next().unwrap_or(""));
    if let Some(flag) = plan.args.iter().find(|a| owned(a)) {
        return Err(format!(
            "{flag} is oxello slurm's to give (each task's shard and output, the merge's files)"
        ));
    }
    let ours = std::env::args().take_while(|a| a != "--");
    if ours
        .into_iter()
        .any(|a| a.split('=').next() == Some("--eval-file"))
    {
        return Err(
            "give --eval-file among the job's arguments, after --: each task's oxello reads it"
                .into(),
        );
    }
    let dir = prepare(&args.out, &plan)?;
    let (task, merge) = (dir.join("task.sh"), dir.join("merge.sh"));
    let exe = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    write_script(&task, &script(args, &plan, &dir, &exe, true))?;
    write_script(&merge, &script(args, &plan, &dir, &exe, false))?;
    if args.dry_run {
        outln!("sbatch --parsable {}", task.display());
        outln!(
            "sbatch --parsable --dependency=afterok:<the array's job id> {}",
            merge.display()
        );
        return Ok(());
    }
    let array = sbatch(&[task.display().to_string()])?;
    outln!("{}: job array {array} ({} tasks)", task.display(), plan.n);
    let after = sbatch(&[
        format!("--dependency=afterok:{array}"),
        merge.display().to_string(),
    ])?;
    outln!("{}: job {after}, after {array} succeeds", merge.display());
    Ok(())
}

/// The run's folder, absolute, with its plan: a new one is written, an equal one kept, another
/// refused (a folder holds one run).
fn prepare(out: &Path, plan: &Plan) -> Result<PathBuf, String> {
    let shown = |e: std::io::Error| format!("{}: {e}", out.display());
    std::fs::create_dir_all(out.join("logs")).map_err(shown)?;
    let dir = std::fs::canonicalize(out).map_err(shown)?;
    match read_plan(&dir) {
        Ok((old, _)) if old == *plan => return Ok(dir),
        Ok(_) => {
            return Err(format!(
                "{} holds the plan of another run; give another --out",
                dir.display()
            ))
        }
        Err(_) if plan_path(&dir).exists() => {
            return Err(format!("{}: not a plan", plan_path(&dir).display()))
        }
        Err(_) => {}
    }
    let path = plan_path(&dir);
    write_atomically(&path, &plan.encode()).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(dir)
}

/// `s` quoted for the shell.
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The array's script (`array`) or the merge's.
fn script(args: &SubmitArgs, plan: &Plan, dir: &Path, exe: &Path, array: bool) -> String {
    let name = plan.job.name();
    let logs = dir.join("logs");
    let cwd = std::env::current_dir().unwrap_or_else(|_| dir.to_path_buf());
    let mut lines = vec!["#!/bin/sh".to_string()];
    let mut option = |o: String| lines.push(format!("#SBATCH {o}"));
    if array {
        option(format!("--job-name=oxello-{name}"));
        option(format!("--array=0-{}", plan.n - 1));
        option(format!("--output={}/task-%a.log", logs.display()));
        option(format!("--cpus-per-task={}", args.cpus_per_task));
    } else {
        option(format!("--job-name=oxello-{name}-merge"));
        option(format!("--output={}/merge.log", logs.display()));
    }
    option(format!("--chdir={}", cwd.display()));
    for (flag, value) in [
        ("partition", &args.partition),
        ("time", &args.time),
        ("mem", &args.mem),
    ] {
        if let Some(value) = value {
            option(format!("--{flag}={value}"));
        }
    }
    let (exe, dir) = (
        quoted(&exe.display().to_string()),
        quoted(&dir.display().to_string()),
    );
    lines.push(if array {
        format!("exec {exe} slurm task {dir} \"$SLURM_ARRAY_TASK_ID\"")
    } else {
        format!("exec {exe} slurm merge {dir}")
    });
    lines.join("\n") + "\n"
}

fn write_script(path: &Path, text: &str) -> Result<(), String> {
    write_atomically(path, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

/// Submits with `sbatch --parsable`; the job id.
fn sbatch(args: &[String]) -> Result<String, String> {
    let output = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("sbatch: {e} (is Slurm installed here?)"))?;
    if !output.status.success() {
        return Err(format!(
            "sbatch {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let id = text.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("sbatch gave no job id: '{}'", text.trim()));
    }
    Ok(id)
}
