#!/usr/bin/env bash
# The cluster check: `oxello slurm` on a real single-node Slurm cluster (Debian's slurmctld,
# slurmd, slurm-client and munge, started from their binaries by scripts/slurm-cluster.sh),
# each job submitted through sbatch as a job array plus a dependent merge job, each merged
# output checked against a one-machine run:
#   1. self-play in 4 shards: the merge equals the one-machine file byte for byte; the
#      array submitted again skips every complete shard;
#   2. relabelling that file in 4 shards: equal byte for byte;
#   3. a book built in 4 shards: equal byte for byte;
#   4. a match in 4 shards (oxello at depth 2 against depth 1: the same moves every time):
#      one report equal to the one-machine report but for the thinking times, the same games;
#   5. a killed task: the merge refuses, naming the shard; that task rerun alone
#      (sbatch --array=K), the merge completes and equals the one-machine run.
# Usage, as root: scripts/slurm-check.sh OXELLO WORKDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
oxello=$(realpath "$1")
work=$(realpath -m "$2")
[ "$(id -u)" = 0 ] || { echo "slurm-check: run as root (it starts the daemons)" >&2; exit 1; }
for program in slurmctld slurmd sbatch munged; do
  command -v "$program" >/dev/null || [ -x "/usr/sbin/$program" ] || {
    echo "slurm-check: $program missing: apt-get install slurmctld slurmd slurm-client munge" >&2
    exit 1
  }
done
rm -rf "$work"
mkdir -p "$work"
# shellcheck source=scripts/slurm-cluster.sh
source "$here/slurm-cluster.sh"
trap slurm_stop EXIT
started=$(date +%s.%N)
elapsed() { awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
slurm_start "$work/cluster"
echo "slurm-check: cluster up in $(elapsed) s: $(sinfo -h -o '%P %D %c %T')"
cd "$work"

fail() {
  echo "slurm-check: FAILED: $*" >&2
  exit 1
}

# Submits `oxello slurm submit` $@, prints its lines; sets `array` and `merge` to the job ids.
submit() {
  local lines
  lines=$("$oxello" slurm submit "$@")
  echo "$lines"
  array=$(echo "$lines" | sed -n 's/.*job array \([0-9]*\).*/\1/p')
  merge=$(echo "$lines" | sed -n 's/.*: job \([0-9]*\), after.*/\1/p')
  [ -n "$array" ] && [ -n "$merge" ] || fail "no job ids from: $lines"
}

# Waits for the array and its merge; the merge, which starts only once every task has
# succeeded, must have COMPLETED (the files are checked apart: a job whose step cannot start
# can still end COMPLETED).
finish() {
  slurm_wait "$array"
  slurm_wait "$merge"
  local state
  state=$(slurm_state "$merge")
  [ "$state" = COMPLETED ] || fail "merge job $merge: $state; $(cat "$1/logs/merge.log")"
  echo "slurm-check: array $array and merge $merge COMPLETED"
}

# 1. Self-play.
selfplay=(--games 12 --seed 7 --exact-empties 14 --threads 1)
submit selfplay --shards 4 --out selfplay -- "${selfplay[@]}"
"$oxello" selfplay "${selfplay[@]}" --out one-selfplay.bin 2>/dev/null
finish selfplay
cmp one-selfplay.bin selfplay/selfplay.bin || fail "merged self-play differs from one machine"
echo "slurm-check: self-play: 4 shards merged = one machine, byte for byte ($(stat -c %s one-selfplay.bin) bytes, $(md5sum <one-selfplay.bin | cut -c1-12))"
before=$(cat selfplay/shard-*.bin | md5sum)
again=$(sbatch --parsable --wait selfplay/task.sh)
skipped=$(grep -l 'is complete; skipped' selfplay/logs/task-?.log | wc -l)
[ "$skipped" = 4 ] && [ "$(cat selfplay/shard-*.bin | md5sum)" = "$before" ] ||
  fail "the array run again did not skip its 4 complete shards"
echo "slurm-check: self-play array submitted again (job $again): 4 of 4 tasks found their shard complete and skipped it"

# 2. Relabelling.
relabel=(one-selfplay.bin --empties 15-40 --depth 2 --threads 1)
submit relabel --shards 4 --out relabel -- "${relabel[@]}"
"$oxello" data relabel "${relabel[@]:0:1}" one-relabel.bin "${relabel[@]:1}" >/dev/null
finish relabel
cmp one-relabel.bin relabel/relabel.bin || fail "merged relabelling differs from one machine"
echo "slurm-check: relabel: 4 shards merged = one machine, byte for byte ($(stat -c %s one-relabel.bin) bytes)"

# 3. A book.
book=(--plies 6 --depth 8 --threads 1)
submit book --shards 4 --out book -- "${book[@]}"
"$oxello" book build one-book.bin "${book[@]}" >/dev/null 2>&1
finish book
cmp one-book.bin book/book.bin || fail "merged book differs from one machine"
echo "slurm-check: book: 4 shards merged = one machine, byte for byte ($(stat -c %s one-book.bin) bytes)"

# 4. A match.
match=(--engine "$oxello --depth 2 --threads 1" --engine "$oxello --depth 1 --threads 1"
  --name depth2 --name depth1 --games 8 --seed 3)
submit match --shards 4 --out match -- "${match[@]}"
"$oxello" match "${match[@]}" --ggf-out one-match.ggf >one-match.txt 2>/dev/null
finish match
untimed() { grep -Ev '^(longest move|thinking time)' "$1"; }
diff <(untimed one-match.txt) <(untimed match/report.txt) || fail "merged match report differs"
diff <(sed 's#//[0-9.]*##g' one-match.ggf) <(sed 's#//[0-9.]*##g' match/games.ggf) ||
  fail "merged match games differ"
grep -q '"games":8,' match/report.json || fail "report.json: $(cat match/report.json)"
echo "slurm-check: match: 4 shards merged into one report, equal to one machine's but for thinking times:"
sed 's/^/  /' match/report.txt

# 5. A task killed while it runs, then rerun alone. Its shard must outlast the kill by a wide
# margin (4 games solved from 22 empties: about 4 s here, against 1 s from 20 empties, which a
# loaded CI machine once finished before scancel landed), and the kill waits for the task's
# own log to say that oxello has started, not only for Slurm to say RUNNING.
slow=(--games 16 --seed 11 --exact-empties 22 --threads 1)
submit selfplay --shards 4 --out killed -- "${slow[@]}"
victim="${array}_3"
for _ in $(seq 600); do
  grep -qs 'oxello slurm: running' killed/logs/task-3.log && break
  sleep 0.1
done
[ "$(slurm_state "$victim")" = RUNNING ] || fail "task $victim never seen running"
scancel "$victim"
slurm_wait "$array"
echo "slurm-check: task $victim killed while running: $(slurm_state "$victim"); its log ends:"
tail -n 2 killed/logs/task-3.log | sed 's/^/  /'
[ ! -e killed/shard-3.done ] || fail "task 3 finished before the kill landed: it left its stamp"
scancel "$merge" # its dependency can no longer be met
"$oxello" selfplay "${slow[@]}" --out one-killed.bin 2>/dev/null
if sbatch --parsable --wait killed/merge.sh >/dev/null; then
  fail "the merge ran with a shard missing"
fi
grep -q 'shard 3 of 4 not complete' killed/logs/merge.log || fail "merge log: $(cat killed/logs/merge.log)"
echo "slurm-check: the merge refused: $(grep 'refusing' killed/logs/merge.log)"
rerun=$(sbatch --parsable --array=3 killed/task.sh)
merged=$(sbatch --parsable --wait --dependency=afterok:"$rerun" killed/merge.sh)
[ "$(slurm_state "$merged")" = COMPLETED ] || fail "merge after the rerun: $(cat killed/logs/merge.log)"
cmp one-killed.bin killed/selfplay.bin || fail "merge after the rerun differs from one machine"
echo "slurm-check: task 3 rerun alone (job $rerun), merge $merged COMPLETED, equal to one machine byte for byte ($(stat -c %s one-killed.bin) bytes)"
echo "slurm-check: jobs ended: $(awk '{for (i = 1; i <= NF; i++) if ($i ~ /^JobState=/) print $i}' cluster/jobcomp.txt | sort | uniq -c | tr -s ' \n' ' ')"
echo "slurm-check: all passed in $(elapsed) s"
