#!/usr/bin/env bash
# The example suites' full tier sharded over a real Slurm cluster with ci/slurm/submit.sh (a job
# array of 4 shards, then the merge job with --dependency=afterok) must give the run one machine
# gives: the same per-seed samples, seed runs, verdicts and gate numbers in results.json.
#
# The cluster is one node on this host: munged, slurmctld and slurmd from Debian's slurm-wlm and
# munge, with a private key, socket, config, ports and state under a temporary folder, started
# here and stopped on exit. It needs root (slurmd launches jobs as root here).
#
# Planted failures that must be caught: a changed sample and a changed Holm p-value (the
# comparison itself), a merge with a shard folder left out (exit 1, "missing"), and a shard
# array whose tasks cannot run (the merge must never start, and submit.sh --wait must fail).
#   slurm_shards_merge.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
usage="usage: $0 BUILD_DIR SOURCE_DIR"
build_dir=$(cd "${1:?$usage}" && pwd)
source_dir=$(cd "${2:?$usage}" && pwd)
suites=$build_dir/suites/mlregress_suites
submit=$source_dir/ci/slurm/submit.sh
# Physical path: submit.sh resolves it for the jobs, and both runs must name the same baselines.
baselines=$(realpath "$source_dir/baselines")
shard_count=4

fail() { echo "FAIL: $*" >&2; exit 1; }
seconds_since() { awk -v start="$1" -v now="$(date +%s.%N)" 'BEGIN { printf "%.1f", now - start }'; }
test_started=$(date +%s.%N)

# Missing tools are a broken setup, not a reason to skip: the test would otherwise pass unseen.
for tool in munged mungekey slurmctld slurmd sbatch sinfo squeue scancel scontrol; do
  command -v "$tool" >/dev/null ||
    fail "$tool not found: install Debian's slurm-wlm, slurm-client and munge (ci/install-deps.sh)"
done
[ "$(id -u)" -eq 0 ] || fail "needs root: slurmd runs the jobs as root on this one-node cluster"
[ -x "$suites" ] || fail "$suites is not built"
[ -x "$submit" ] || fail "$submit is missing or not executable"

work=$(mktemp -d "${TMPDIR:-/tmp}/mlregress-slurm.XXXXXX")
# munged refuses a socket whose directories others cannot enter.
chmod 755 "$work"
cluster=$work/cluster
mkdir -p "$cluster/munge" "$cluster/state" "$cluster/spool" "$cluster/log"
export SLURM_CONF=$cluster/slurm.conf
# Runs record the git state of MLREGRESS_REPO: a folder outside git, so nothing is "dirty" and
# every shard and the single-machine run record the same commit. sbatch passes it to the jobs.
export MLREGRESS_REPO=$work/repo
mkdir -p "$MLREGRESS_REPO"

daemon_pids=()
# process_tree PID: PID and its descendants, children first.
process_tree() {
  local child
  for child in $(ps -o pid= --ppid "$1"); do process_tree "$child"; done
  echo "$1"
}
# run_logged LOG COMMAND...: COMMAND in the background, waited for, so that a TERM or INT reaches
# the trap at once instead of after COMMAND; the trap stops COMMAND then.
command_pid=
run_logged() {
  local log=$1 status=0
  shift
  "$@" >"$log" 2>&1 &
  command_pid=$!
  wait "$command_pid" || status=$?
  command_pid=
  return "$status"
}
# cluster_processes: the processes whose environment names this cluster's SLURM_CONF (not the
# scanning one: this shell was started before SLURM_CONF was exported).
cluster_processes() {
  /usr/bin/python3 - "$SLURM_CONF" <<'PY'
import os, sys
marker = b"SLURM_CONF=" + sys.argv[1].encode()
for pid in filter(str.isdigit, os.listdir("/proc")):
    if int(pid) in (os.getpid(), os.getppid()):
        continue
    try:
        environment = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
    except OSError:
        continue
    if marker in environment:
        print(pid)
PY
}
# Stops the jobs and the daemons this test started, and only those: job processes are found by
# the private SLURM_CONF in their environment, the daemons by the ids they were started with.
stop_cluster() {
  local status=$?
  set +e
  # The whole tree: submit.sh's sbatch --wait would outlive submit.sh and retry forever.
  if [ -n "$command_pid" ]; then
    local command_tree
    mapfile -t command_tree < <(process_tree "$command_pid")
    kill "${command_tree[@]}" 2>/dev/null
    wait "$command_pid" 2>/dev/null
  fi
  if [ -f "$SLURM_CONF" ] && ((${#daemon_pids[@]})); then
    scancel --quiet --user="$(id -un)" 2>/dev/null
    for _ in $(seq 20); do
      [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
      sleep 0.5
    done
  fi
  if ((status != 0)); then
    for log in "$cluster"/log/* "$work"/shared*/logs/*.out; do
      [ -f "$log" ] || continue
      echo "--- $log (last lines)" >&2
      tail -n 15 "$log" >&2
    done
  fi
  ((${#daemon_pids[@]})) && kill "${daemon_pids[@]}" 2>/dev/null
  for pid in "${daemon_pids[@]}"; do wait "$pid" 2>/dev/null; done
  # Anything else that still carries this cluster's SLURM_CONF (a job process, a slurmstepd, a
  # client command) was started by this test and must not outlive it; a slurmstepd may take a
  # moment to finish.
  local leftovers=()
  for _ in $(seq 10); do
    mapfile -t leftovers < <(cluster_processes)
    ((${#leftovers[@]} == 0)) && break
    sleep 0.5
  done
  if ((${#leftovers[@]})); then
    echo "FAIL: processes of the cluster still running, killed: ${leftovers[*]}" >&2
    kill -KILL "${leftovers[@]}" 2>/dev/null
    ((status == 0)) && status=1
  fi
  rm -rf "$work"
  exit "$status"
}
trap stop_cluster EXIT
# ctest's timeout and Ctrl-C: stop the cluster on the way out too.
trap 'exit 143' TERM
trap 'exit 130' INT

# --- the one-node cluster ----------------------------------------------------------------------
cluster_started=$(date +%s.%N)
mungekey --create --keyfile="$cluster/munge/munge.key" --bits=1024
chmod 600 "$cluster/munge/munge.key"
munge_socket=$cluster/munge/munge.socket
munged --foreground --socket="$munge_socket" --key-file="$cluster/munge/munge.key" \
       --pid-file="$cluster/munge/munged.pid" --log-file="$cluster/log/munged.log" \
       --seed-file="$cluster/munge/munged.seed" 2>"$cluster/log/munged.out" &
daemon_pids+=($!)
for _ in $(seq 50); do [ -S "$munge_socket" ] && break; sleep 0.1; done
[ -S "$munge_socket" ] || fail "munged did not create $munge_socket"

# Two ports free now on every interface (slurmctld and slurmd listen on all of them).
read -r controller_port node_port < <(/usr/bin/python3 -c '
import socket
sockets = [socket.socket() for _ in range(2)]
for s in sockets: s.bind(("", 0))
print(*(s.getsockname()[1] for s in sockets))')
# slurmd finds its node by the short hostname; the address is loopback so that no name lookup
# is needed.
node_name=$(hostname -s)
node_cpus=$(nproc)
cat >"$SLURM_CONF" <<EOF
ClusterName=mlregress-test
SlurmctldHost=$node_name(127.0.0.1)
SlurmctldPort=$controller_port
SlurmdPort=$node_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$munge_socket
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/state/slurmctld.pid
SlurmdPidFile=$cluster/spool/slurmd.pid
SlurmctldLogFile=$cluster/log/slurmctld.log
SlurmdLogFile=$cluster/log/slurmd.log
PlugStackConfig=$cluster/plugstack.conf
# No cgroups: processes are tracked through /proc, and tasks are not bound to CPUs.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
# CPUs are the consumable resource, so 1-CPU shard tasks share the node.
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# sbatch --wait polls every 2 s only while that is under MinJobAge/2 (else 8 s, then 32 s).
MinJobAge=5
# A cancelled job is killed 5 s after its SIGTERM, so that tearing down does not wait 30 s.
KillWait=5
# Less memory than any machine has: a node configured above its hardware is drained.
NodeName=$node_name NodeAddr=127.0.0.1 CPUs=$node_cpus RealMemory=100 State=UNKNOWN
PartitionName=test Nodes=$node_name Default=YES MaxTime=INFINITE State=UP
EOF
: >"$cluster/plugstack.conf"
slurmctld -D >"$cluster/log/slurmctld.out" 2>&1 &
daemon_pids+=($!)
slurmd -D -N "$node_name" >"$cluster/log/slurmd.out" 2>&1 &
daemon_pids+=($!)
node_state=
for _ in $(seq 60); do
  node_state=$(sinfo -h -n "$node_name" -o %t 2>/dev/null || true)
  [ "$node_state" = idle ] && break
  sleep 0.5
done
[ "$node_state" = idle ] || fail "the node is '${node_state:-unknown}', not idle, 30 s after slurmd started"
echo "ok   one-node Slurm cluster up ($node_name, $node_cpus CPUs, ports $controller_port/$node_port)" \
     "in $(seconds_since "$cluster_started") s"

# --- the full tier on one machine ----------------------------------------------------------------
# --all-seeds: the shards run every seed of a sequential test, so the single machine does too.
single_started=$(date +%s.%N)
single_status=0
run_logged "$work/single.log" \
  "$suites" run --tier full --baselines "$baselines" --all-seeds --out "$work/single" --color never || single_status=$?
single_seconds=$(seconds_since "$single_started")
[ -f "$work/single/latest/results.json" ] || { tail -20 "$work/single.log"; fail "the single-machine run wrote no run folder"; }
echo "ok   full tier on one machine: exit $single_status in $single_seconds s"

# --- the same tier as a Slurm job array and a merge job -----------------------------------------
slurm_started=$(date +%s.%N)
slurm_status=0
run_logged "$work/submit.log" \
  "$submit" --wait --baselines "$baselines" "$suites" "$shard_count" "$work/shared" || slurm_status=$?
slurm_seconds=$(seconds_since "$slurm_started")
sed 's/^/     /' "$work/submit.log"
[ -f "$work/shared/merged/exit-code" ] || fail "the merge job never ran"
# The merge job writes exit-code as its last step: submit to merge end, without sbatch --wait's
# polling delay.
merge_end_seconds=$(awk -v start="$slurm_started" -v end="$(stat -c %.9Y "$work/shared/merged/exit-code")" \
                      'BEGIN { printf "%.1f", end - start }')
[ "$slurm_status" -eq "$single_status" ] ||
  fail "submit.sh --wait exits $slurm_status, the single-machine run $single_status"
echo "ok   $shard_count shards and the merge through Slurm: exit $slurm_status; the merge ended $merge_end_seconds s" \
     "after submitting, submit.sh --wait returned after $slurm_seconds s"

# same_results A B: two run folders agree on everything but times, ids and file places: the
# tests (status, failures, every metric with its samples, seeds, verdict, baseline and gate
# numbers: p-values, Holm-adjusted p-values, CI, effect size), their seed runs without
# durations, the summary and the run's exit status.
same_results() {
  /usr/bin/python3 "$source_dir/tests/e2e/same_run_results.py" "$1" "$2"
}
single_run=$(readlink -f "$work/single/latest")
merged_run=$(readlink -f "$work/shared/merged/latest")
same_results "$single_run" "$merged_run" || fail "the run merged through Slurm differs from the single-machine run"
[ -s "$work/shared/merged/junit.xml" ] || fail "the merge job wrote no JUnit file"

# The array tasks asked for one CPU each: on a node with two, two shards must have overlapped.
if ((node_cpus >= 2)); then
  /usr/bin/python3 - "$work/shared" "$shard_count" <<'PY' || fail "no two shard tasks ran at the same time"
import json, sys
shared, count = sys.argv[1], int(sys.argv[2])
spans = []
for index in range(count):
    run = json.load(open(f"{shared}/shard-{index}/latest/results.json"))["run"]
    spans.append((run["started_at"], run["finished_at"]))
overlapping = sum(1 for i in range(count) for j in range(i + 1, count)
                  if spans[i][0] < spans[j][1] and spans[j][0] < spans[i][1])
assert overlapping, f"shard runs {spans} never overlapped"
print(f"ok   {overlapping} pairs of shard tasks ran at the same time")
PY
fi

# --- planted failures ---------------------------------------------------------------------------
# The comparison must see a sample or a gate number that moved by a rounding error.
plant() {
  local name=$1 python_edit=$2
  rm -rf "$work/planted"
  cp -r "$merged_run" "$work/planted"
  /usr/bin/python3 - "$work/planted/results.json" "$python_edit" <<'PY'
import json, sys
path, edit = sys.argv[1], sys.argv[2]
results = json.load(open(path))
seeded = next(m for t in results["tests"] for m in t["metrics"] if m.get("samples"))
exec(edit)
json.dump(results, open(path, "w"), indent=1)
PY
  if same_results "$single_run" "$work/planted" >"$work/planted.log"; then
    fail "a planted $name passes the comparison"
  fi
  echo "ok   a planted $name is caught: $(cat "$work/planted.log")"
}
plant "changed sample" 'seeded["samples"][1] += 1e-12'
plant "changed Holm p-value" 'seeded["distribution"]["p_worse_holm"] *= 0.999'

# A shard folder left out: merge names it and fails the run.
missing_status=0
all_but_last_shard=()
for ((i = 0; i < shard_count - 1; i++)); do all_but_last_shard+=("$(readlink -f "$work/shared/shard-$i/latest")"); done
"$suites" merge "${all_but_last_shard[@]}" --out "$work/merged-missing" --color never >"$work/merge-missing.log" 2>&1 || missing_status=$?
[ "$missing_status" -eq 1 ] || fail "merging $((shard_count - 1)) of $shard_count shards exits $missing_status, not 1"
grep -q "missing" "$work/merge-missing.log" || fail "merge with a shard left out does not say 'missing'"
echo "ok   a shard left out of the merge: exit 1, '$(grep -m1 'missing' "$work/merge-missing.log")'"

# Shard tasks that cannot run (an unknown parameter is a usage error, exit 4): the afterok
# dependency is never met, the merge must not run, and submit.sh --wait must fail.
broken_status=0
run_logged "$work/submit-broken.log" \
  "$submit" --wait --baselines "$baselines" "$suites" 2 "$work/shared-broken" -- --set XorSeedStudy.no_such_parameter=1 ||
  broken_status=$?
[ "$broken_status" -ne 0 ] || { cat "$work/submit-broken.log"; fail "submit.sh --wait exits 0 although no shard ran"; }
[ ! -e "$work/shared-broken/merged" ] || fail "the merge job ran although the shard tasks failed"
grep -q "the merge never ran" "$work/submit-broken.log" || { cat "$work/submit-broken.log"; fail "submit.sh does not say that the merge never ran"; }
echo "ok   shard tasks that cannot run: the merge never starts, submit.sh --wait exits $broken_status"

echo "time: whole test $(seconds_since "$test_started") s; Slurm part: submit to merge end $merge_end_seconds s," \
     "submit.sh --wait $slurm_seconds s; the same tier on one machine $single_seconds s"
