#!/usr/bin/env bash
# Submits a sharded mlregress run to Slurm: a job array with one shard per task
# (shard-array.sbatch) and a merge job that starts when every task succeeded
# (merge.sbatch, --dependency=afterok:<array job>). Prints both job ids.
#
#   ci/slurm/submit.sh [OPTIONS] TEST_BINARY SHARDS SHARED_DIR [-- RUN_ARGS...]
#
#   TEST_BINARY   the mlregress test binary, on a path every node can read
#   SHARDS        number of shards (array tasks 0..SHARDS-1)
#   SHARED_DIR    a new or empty folder on a file system every node shares: shard-T/ per task,
#                 merged/ (merged/latest is the merged run folder, merged/junit.xml its JUnit),
#                 logs/ (shard-T.out, merge.out)
#   RUN_ARGS      more arguments for every shard's `run` (--filter, --set, --seed, ...)
#
# Options:
#   --tier TIERS        tiers to run, comma-separated (default: $MLREGRESS_TIERS, else full)
#   --baselines DIR     baseline folder (default: $MLREGRESS_BASELINES, else none)
#   --jobs N            seed worker processes per shard (default: the task's CPUs)
#   --cpus-per-task N   CPUs Slurm gives each shard task (default 1)
#   --sbatch OPTION     an option for both sbatch calls (--partition=gpu, --time=2:00:00,
#                       --account=ml, --gres=gpu:1); repeat as needed
#   --merge-args ARGS   more `merge` arguments, as shell words ("--alpha 0.05")
#   --wait              block until the merge job ends and exit with merge's exit code
#                       (0 passed, 1 test failed, 2 regression, 9 merge refused); exit 1 when the
#                       merge never ran because a shard task failed
#
# Without --wait it exits 0 once both jobs are queued.
set -euo pipefail

fail() { echo "submit: $*" >&2; exit 1; }
usage() { sed -n '/^#   ci\/slurm\/submit.sh/,/^# Without --wait/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 4; }

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tiers=${MLREGRESS_TIERS:-full}
baselines=${MLREGRESS_BASELINES:-}
jobs_per_shard=
cpus_per_task=1
sbatch_options=()
merge_args=
wait_for_merge=false
positional=()
while (($#)); do
  case "$1" in
    --tier) tiers=${2:?--tier needs TIERS}; shift 2 ;;
    --baselines) baselines=${2:?--baselines needs DIR}; shift 2 ;;
    --jobs) jobs_per_shard=${2:?--jobs needs N}; shift 2 ;;
    --cpus-per-task) cpus_per_task=${2:?--cpus-per-task needs N}; shift 2 ;;
    --sbatch) sbatch_options+=("${2:?--sbatch needs an sbatch option}"); shift 2 ;;
    --merge-args) merge_args=${2?--merge-args needs ARGS}; shift 2 ;;
    --wait) wait_for_merge=true; shift ;;
    -h | --help) usage ;;
    --) shift; break ;;
    -*) echo "submit: unknown option $1" >&2; usage ;;
    *) positional+=("$1"); shift ;;
  esac
done
run_args=("$@")
((${#positional[@]} == 3)) || usage
test_binary=${positional[0]}
shard_count=${positional[1]}
shared_dir=${positional[2]}

command -v sbatch >/dev/null || fail "sbatch not found: run this on a Slurm submit host"
[ -x "$test_binary" ] || fail "$test_binary is not an executable"
[[ "$shard_count" =~ ^[1-9][0-9]*$ ]] || fail "SHARDS must be a positive integer, not '$shard_count'"
[[ "$cpus_per_task" =~ ^[1-9][0-9]*$ ]] || fail "--cpus-per-task must be a positive integer"
# The jobs run in other working directories, maybe on other nodes: every path absolute.
test_binary=$(realpath "$test_binary")
mkdir -p "$shared_dir"
shared_dir=$(realpath "$shared_dir")
if [ -n "$baselines" ]; then
  [ -d "$baselines" ] || fail "baseline folder $baselines does not exist"
  baselines=$(realpath "$baselines")
fi
# Shard folders left from an earlier submission would be merged with this one's (or refused as
# another plan): one submission, one fresh folder.
if compgen -G "$shared_dir/shard-*" >/dev/null || [ -e "$shared_dir/merged" ]; then
  fail "$shared_dir already holds shard or merged folders; give each submission a new folder"
fi
mkdir -p "$shared_dir/logs"

# The jobs read their settings from the environment: sbatch exports the submitter's (--export=ALL
# is its default; an --export option in --sbatch must keep ALL or name these).
export MLREGRESS_BINARY=$test_binary
export MLREGRESS_SHARED=$shared_dir
export MLREGRESS_TIERS=$tiers
export MLREGRESS_BASELINES=$baselines
export MLREGRESS_SLURM_SHARDS=$shard_count
export MLREGRESS_MERGE_ARGS=$merge_args
if [ -n "$jobs_per_shard" ]; then export MLREGRESS_JOBS=$jobs_per_shard; fi
MLREGRESS_RUN_ARGS=
if ((${#run_args[@]})); then MLREGRESS_RUN_ARGS=$(printf '%q ' "${run_args[@]}"); fi
export MLREGRESS_RUN_ARGS

# --parsable prints "jobid" or "jobid;cluster".
array_job=$(sbatch --parsable --array="0-$((shard_count - 1))" --cpus-per-task="$cpus_per_task" \
                   --output="$shared_dir/logs/shard-%a.out" "${sbatch_options[@]}" \
                   "$script_dir/shard-array.sbatch")
array_job=${array_job%%;*}
echo "shard array job: $array_job ($shard_count tasks, logs $shared_dir/logs/shard-<task>.out)"

# --kill-on-invalid-dep=yes: when a shard task fails, afterok can never be met; without it the
# merge job would stay pending forever (reason DependencyNeverSatisfied), and --wait with it.
merge_submit=(sbatch --parsable --dependency="afterok:$array_job" --kill-on-invalid-dep=yes
              --output="$shared_dir/logs/merge.out" "${sbatch_options[@]}")
if ! $wait_for_merge; then
  merge_job=$("${merge_submit[@]}" "$script_dir/merge.sbatch")
  echo "merge job: ${merge_job%%;*} (after every shard task succeeded; merged run $shared_dir/merged/latest)"
  exit 0
fi

# sbatch --wait prints the job id when the job is queued and exits when it ends, with the job's
# exit code. It polls slurmctld at growing intervals (2 s, 8 s, then 32 s unless MinJobAge is
# short), so it may return up to half a minute after the merge ended.
echo "merge job: waiting for it (after every shard task succeeded; merged run $shared_dir/merged/latest)"
wait_status=0
"${merge_submit[@]}" --wait "$script_dir/merge.sbatch" \
  > >(while read -r line; do echo "merge job: ${line%%;*}"; done) || wait_status=$?
# A merge job cancelled because a shard task failed never ran, and sbatch --wait exits 0 for it:
# only the exit code the merge wrote tells that it ran and what it said.
if [ ! -f "$shared_dir/merged/exit-code" ]; then
  echo "submit: the merge never ran (sbatch --wait exit $wait_status): a shard task failed, the jobs" \
       "were cancelled, or the merge job stopped before merging" >&2
  for task_log in "$shared_dir"/logs/shard-*.out "$shared_dir/logs/merge.out"; do
    [ -f "$task_log" ] || continue
    if grep -q "shard-array: shard ran" "$task_log"; then continue; fi
    echo "--- $task_log" >&2
    tail -n 20 "$task_log" >&2
  done
  exit 1
fi
merge_status=$(cat "$shared_dir/merged/exit-code")
echo "merge: exit $merge_status; merged run $(readlink -f "$shared_dir/merged/latest" 2>/dev/null || echo none)," \
     "log $shared_dir/logs/merge.out"
exit "$merge_status"
