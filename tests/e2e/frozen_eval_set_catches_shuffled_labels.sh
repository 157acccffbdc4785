#!/usr/bin/env bash
# The medium tier's frozen-evaluation-set test must pass as shipped and fail when its planted bug
# is switched on: training labels shuffled against their images (--set
# CnnFrozenEvalSet.permute_labels=true) leave the validation accuracy near chance. Against the
# committed baselines, its predictions compared example by example: as shipped PASS; with the
# training labels of class 0 shuffled (shuffle_class=0) a REGRESSION whose flips name class 0.
set -euo pipefail
suites=${1:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
source_dir=${2:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { "$suites" run --filter CnnFrozenEvalSet --out "$out" --color never "$@"; }

run >/dev/null || { echo "FAIL: CnnFrozenEvalSet fails as shipped"; exit 1; }
echo "ok   as shipped: passes"

set +e
run --set CnnFrozenEvalSet.permute_labels=true >/dev/null
status=$?
set -e
[ "$status" -eq 1 ] || { echo "FAIL: with shuffled labels it exited $status, expected 1 (test failed)"; exit 1; }
python3 - "$out/latest/results.json" <<'PY'
import json, sys
test = json.load(open(sys.argv[1]))["tests"][0]
messages = " ".join(f["message"] for f in test["failures"])
assert "near chance" in messages, messages
print("ok   shuffled labels: fails with", [m["name"] + "=" + str(m["value"]) for m in test["metrics"]])
PY

# Example by example against the committed baseline's predictions.
run --baselines "$source_dir/baselines" >"$out/shipped.log" || { cat "$out/shipped.log"; echo "FAIL: as shipped, against the baselines"; exit 1; }
python3 - "$out/latest/results.json" <<'PY'
import json, sys
eval_set = json.load(open(sys.argv[1]))["tests"][0]["predictions"][0]
assert eval_set["verdict"] == "PASS", eval_set
f = eval_set["flips"]
print(f"ok   as shipped against the baseline's predictions: PASS ({f['correct_to_wrong']} correct→wrong, "
      f"{f['wrong_to_correct']} wrong→correct of {f['compared']})")
PY
set +e
run --baselines "$source_dir/baselines" --set CnnFrozenEvalSet.shuffle_class=0 >"$out/class0.log"
status=$?
set -e
[ "$status" -eq 2 ] || { cat "$out/class0.log"; echo "FAIL: class 0's labels shuffled gave exit $status, expected 2 (regression)"; exit 1; }
python3 - "$out/latest/results.json" <<'PY'
import json, sys
eval_set = json.load(open(sys.argv[1]))["tests"][0]["predictions"][0]
f = eval_set["flips"]
assert eval_set["verdict"] == "REGRESSION", eval_set
worst = f["by_class"][0]
assert worst["class"] == 0, f["by_class"]
assert worst["correct_to_wrong"] > 0.5 * f["correct_to_wrong"], f["by_class"]
print(f"ok   class 0's training labels shuffled: REGRESSION, {f['correct_to_wrong']} correct→wrong "
      f"({worst['correct_to_wrong']} of class 0), {f['wrong_to_correct']} wrong→correct, "
      f"McNemar p(worse)={f['p_worse']:.2g} (Holm {f['p_worse_holm']:.2g})")
PY
grep -A4 "CnnFrozenEvalSet.eval (predictions)" "$out/class0.log"
# The Markdown summary (a pull-request comment) carries the flips by class and McNemar's p too.
"$suites" report "$out/latest" --format markdown >"$out/class0.md"
grep -q "^### Per-example flips" "$out/class0.md" && grep -q "| eval | .* | 0: [0-9]* →wrong" "$out/class0.md" \
  && grep -q "(Holm .*) | ❌ REGRESSION |$" "$out/class0.md" \
  || { cat "$out/class0.md"; echo "FAIL: the Markdown report lacks the flips by class or McNemar's p"; exit 1; }
echo "ok   the Markdown report: $(grep '| eval | ' "$out/class0.md" | tail -1)"

# Another evaluation set (500 examples instead of 512): not compared at all, the dataset named.
run --baselines "$source_dir/baselines" --set CnnFrozenEvalSet.eval_examples=500 >"$out/other.log" \
  || { cat "$out/other.log"; echo "FAIL: another evaluation set failed the run"; exit 1; }
python3 - "$out/latest/results.json" <<'PY'
import json, sys
test = json.load(open(sys.argv[1]))["tests"][0]
compared = test["metrics"] + test["predictions"]
assert all(c["verdict"] == "NOT_COMPARABLE" for c in compared), [(c["name"], c["verdict"]) for c in compared]
assert all("the dataset 'eval' changed (sha256:" in c["note"] for c in compared), [c["note"] for c in compared]
print(f"ok   another evaluation set: all {len(compared)} values NOT_COMPARABLE: {compared[0]['note']}")
PY

# The training examples served in another order: judged as usual, the change named.
status=0
run --baselines "$source_dir/baselines" --set CnnFrozenEvalSet.shuffle_train=true >"$out/order.log" || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 2 ] || { cat "$out/order.log"; echo "FAIL: another data order gave exit $status"; exit 1; }
grep -q "^ENVIRONMENT .*the data order 'train' changed (sha256:" "$out/order.log" \
  || { cat "$out/order.log"; echo "FAIL: the data-order change is not reported"; exit 1; }
echo "ok   training data in another order: reported ($(grep -o "the data order 'train' changed ([^)]*)" "$out/order.log" | head -1))"
