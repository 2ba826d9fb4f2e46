# A single-node Slurm cluster from Debian's packages (slurmctld, slurmd, slurm-client, munge),
# for scripts/slurm-check.sh; sourced, as root. `slurm_start DIR` writes slurm.conf under DIR,
# starts munged, slurmctld and slurmd from their binaries (no systemd here) and exports
# SLURM_CONF; `slurm_stop` stops the three by their process ids. No cgroups in these
# sandboxes: processes are tracked through /proc, tasks are not confined, jobs are not
# accounted (there is no sacct: `scontrol show job` and the jobcomp file tell how jobs ended).

SLURM_PIDS=()

slurm_start() {
  local dir=$1 host cpus memory running
  host=$(hostname -s)
  cpus=$(nproc)
  memory=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2))
  if running=$(pgrep -x -d, 'slurm(ctld|d)'); then
    echo "slurm: a slurmctld or slurmd is running already ($running); stop it first" >&2
    return 1
  fi
  mkdir -p "$dir/spool/ctld" "$dir/spool/d" /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  [ -s /etc/munge/munge.key ] || runuser -u munge -- /usr/sbin/mungekey --create
  cat >"$dir/slurm.conf" <<EOF
ClusterName=oxello-ci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/spool/ctld
SlurmdSpoolDir=$dir/spool/d
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.txt
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  runuser -u munge -- /usr/sbin/munged
  SLURM_PIDS+=("$(cat /run/munge/munged.pid)")
  /usr/sbin/slurmctld -f "$SLURM_CONF"
  /usr/sbin/slurmd -f "$SLURM_CONF"
  local i
  for i in $(seq 50); do
    [ -s "$dir/slurmctld.pid" ] && [ -s "$dir/slurmd.pid" ] &&
      sinfo -h -o %T 2>/dev/null | grep -qx idle && break
    sleep 0.1
  done
  SLURM_PIDS+=("$(cat "$dir/slurmctld.pid")" "$(cat "$dir/slurmd.pid")")
  sinfo -h -o %T | grep -qx idle || { echo "slurm: the node is not idle" >&2; sinfo >&2; return 1; }
}

# Stops the daemons and waits (up to 10 s each) until they have exited, so that a cluster
# started next finds its ports free.
slurm_stop() {
  local pid i
  for pid in "${SLURM_PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${SLURM_PIDS[@]}"; do
    for i in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
  done
  SLURM_PIDS=()
}

# Waits until job $1 (every task of an array) has left the queue.
slurm_wait() {
  local i
  for i in $(seq 3000); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 0.2
  done
  echo "slurm: job $1 still queued after 10 minutes" >&2
  return 1
}

# The state of job $1 (or of array task $1_K) as scontrol shows it.
slurm_state() {
  scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2
}
