#!/usr/bin/env bash
# history and bisect on a real series: a small generated git repository, built against
# mlregress's build tree like any project (find_package), whose 12 commits each perturb a loss
# slightly (a different noise seed, as code changes do), commit 5 breaks the build and commit 6
# fixes it, and commit 7 makes the loss 10% higher. Each commit is built and run; history
# must find the step at commit 7 in that series and nothing in an unchanged one; bisect must
# name commit 7 in about log2(11) builds, skip the broken one, cache what it measured, leave the
# repository as it found it, and write its record (bisect.json) and page (report.html).
#   bisect_and_history_in_a_generated_repo.sh BUILD_DIR [TORCH_PREFIX]
# TORCH_PREFIX: the LibTorch the build used (empty for a build without the torch layer); the
# project must find the same one, as mlregress's package checks.
set -euo pipefail
build_dir=$(cd "${1:?usage: $0 BUILD_DIR [TORCH_PREFIX]}" && pwd)
torch_prefix=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo="$work/repo"
fail() { echo "FAIL: $*" >&2; exit 1; }
git_in() { git -C "$repo" -c user.email=ci@example.com -c user.name=ci "$@"; }

mkdir -p "$repo"
git init -q -b main "$repo"
cat >"$repo/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(steps LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(mlregress CONFIG REQUIRED)
add_executable(step_tests step_test.cc)
target_link_libraries(step_tests PRIVATE mlregress::core_main)
CMAKE
echo "build/" >"$repo/.gitignore"

# write_test COMMIT COST [BROKEN]: the test source of one commit.
write_test() {
  cat >"$repo/step_test.cc" <<CC
#include <random>

#include "mlregress/core.h"

constexpr int kCommit = $1;  // each commit perturbs the losses a little, as code changes do
constexpr double kCost = $2;
$([ "${3:-}" = broken ] && echo "this line does not compile")

double noise(int salt) {
  std::mt19937_64 rng(kCommit * 1000 + salt);
  return std::normal_distribution<double>(0.0, 1.0)(rng);
}

ML_TEST(Fast, Step) {
  record("loss", kCost * (1.0 + 0.005 * noise(1)), LowerIsBetter, Band{.rtol = 0.03});
}
ML_TEST(Fast, Steady) {
  record("loss", 1.0 + 0.005 * noise(2), LowerIsBetter, Band{.rtol = 0.03});
}
CC
}

commits=()
for i in $(seq 0 11); do
  cost=1.0; [ "$i" -ge 7 ] && cost=1.1
  if [ "$i" -eq 5 ]; then write_test "$i" "$cost" broken; else write_test "$i" "$cost"; fi
  git_in add -A
  GIT_COMMITTER_DATE="2026-01-$(printf %02d $((i + 1)))T12:00:00" \
    git_in commit -q -m "commit $i$([ "$i" -eq 7 ] && echo ': loss 10% higher')$([ "$i" -eq 5 ] && echo ': does not build')"
  commits+=("$(git_in rev-parse HEAD)")
done

build_cmd="cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -Dmlregress_DIR=$build_dir${torch_prefix:+ -DCMAKE_PREFIX_PATH=$torch_prefix} >/dev/null && cmake --build build"

# 1. Every commit built and run: the series history reads.
export MLREGRESS_REPO="$repo"
for i in $(seq 0 11); do
  git_in checkout -q "${commits[$i]}"
  if (cd "$repo" && eval "$build_cmd") >"$work/build-$i.log" 2>&1; then
    [ "$i" -ne 5 ] || fail "commit 5 was meant not to build"
    "$repo/build/step_tests" run --out "$work/runs" --color never >"$work/run-$i.log" \
      || { cat "$work/run-$i.log"; fail "commit $i: the run failed"; }
  else
    [ "$i" -eq 5 ] || { cat "$work/build-$i.log"; fail "commit $i did not build"; }
  fi
done
git_in checkout -q main
unset MLREGRESS_REPO

"$repo/build/step_tests" history "$work/runs" --repo "$repo" --format json >"$work/history.json"
/usr/bin/python3 - "$work/history.json" "${commits[7]}" <<'PY'
import json, sys
history, injected = json.load(open(sys.argv[1])), sys.argv[2]
series = {s["test"]: s for s in history["series"]}
step, steady = series["Fast.Step"], series["Fast.Steady"]
assert len(step["points"]) == 11, f"{len(step['points'])} points, expected 11 (commit 5 does not build)"
changes = step["change_points"]
assert [c["commit"] for c in changes] == [injected], f"Fast.Step change points: {changes}"
assert changes[0]["kind"] == "regression", changes[0]
assert steady["change_points"] == [], f"Fast.Steady (unchanged) change points: {steady['change_points']}"
c = changes[0]
print(f"ok   history: Fast.Step changes at commit 7 ({c['mean_before']:.4f} -> {c['mean_after']:.4f}, "
      f"{100 * c['relative_change']:+.1f}%, p={c['p_value']:.2g}); Fast.Steady: no change point")
PY

# The same history on the last run's page: a chart per metric, commit 7 marked.
(cd "$work" && "$repo/build/step_tests" report "$work/runs/latest" --history "$work/runs" --repo "$repo" \
   --out "$work/report.html" >/dev/null)
grep -q '<section id="history">' "$work/report.html" || fail "report --history drew no History section"
grep -q "regression at ${commits[7]:0:7}" "$work/report.html" || fail "the report's history chart does not mark commit 7"
echo "ok   report --history: the run's page charts each metric across the commits, commit 7 marked"

# 2. bisect names commit 7.
bisect() {
  (cd "$repo" && ./build/step_tests bisect "$@" --test Step --metric loss --build "$build_cmd" \
     --out "$work/bisect")
}
status=0
bisect "${commits[0]}" main >"$work/bisect.log" 2>&1 || status=$?
[ "$status" -eq 0 ] || { cat "$work/bisect.log"; fail "bisect exited $status"; }
grep -q "^first bad commit: ${commits[7]}" "$work/bisect.log" \
  || { cat "$work/bisect.log"; fail "bisect did not name commit 7 (${commits[7]})"; }
builds=$(sed -n 's/^\([0-9]*\) builds\{0,1\} for 12 commits.*/\1/p' "$work/bisect.log")
# GOOD, BAD and about log2(10) steps in between, one more where the broken commit is skipped.
[ -n "$builds" ] && [ "$builds" -le 7 ] || { cat "$work/bisect.log"; fail "bisect needed '$builds' builds"; }
# The repository as it was: on main, clean, no bisect in progress.
[ "$(git_in symbolic-ref --short HEAD)" = main ] || fail "bisect left HEAD at $(git_in rev-parse HEAD)"
[ -z "$(git_in status --porcelain)" ] || fail "bisect left changes: $(git_in status --porcelain)"
[ ! -e "$(git_in rev-parse --absolute-git-dir)/BISECT_LOG" ] || fail "bisect left a git bisect in progress"
# The commit that does not build was tried (git bisect picks the middle first) and skipped.
grep -q "^${commits[5]:0:12}  skip .*build failed" "$work/bisect.log" \
  || { cat "$work/bisect.log"; fail "commit 5 (does not build) was not skipped"; }
echo "ok   bisect: first bad commit is commit 7 after $builds builds for 12 commits, commit 5 skipped"
sed -n '/^commit /,/^first bad/p' "$work/bisect.log"

# The record, bisect.json: commit 7 with its subject, the builds the console printed, commit 5
# tried and skipped, every tried commit's run folder there; its page names commit 7 at the top.
folder="$work/bisect/${commits[0]:0:12}..${commits[11]:0:12}"
/usr/bin/python3 - "$folder" "${commits[7]}" "${commits[5]}" "$builds" <<'PY'
import json, os, sys
folder, culprit, broken, builds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
r = json.load(open(os.path.join(folder, "bisect.json")))
assert r["culprit"] == {"commit": culprit, "subject": "commit 7: loss 10% higher"}, r["culprit"]
assert r["commits"] == 12 and r["builds"] == builds == len(r["tried"]), (r["commits"], r["builds"], builds)
assert [t["role"] for t in r["tried"][:2]] == ["good", "bad"], r["tried"][:2]
skipped = [t for t in r["tried"] if t["commit"] == broken]
assert len(skipped) == 1 and skipped[0]["answer"] == "skip" and skipped[0]["run"] is None, skipped
for t in r["tried"]:
    if t["run"] is not None:
        assert os.path.isfile(os.path.join(folder, t["run"], "results.json")), t
PY
grep -q "Culprit: <code>${commits[7]:0:12}</code> commit 7: loss 10% higher" "$folder/report.html" \
  || fail "the bisect's report.html does not name commit 7 at the top"
# As a browser shows it: headless Chromium finds the culprit in the header, and the page loads
# nothing (report_page_check.py --network-only, as for the run pages).
if command -v chromium >/dev/null; then
  timeout 120 chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/chromium-profile" --enable-logging=stderr --v=0 \
    --log-net-log="$work/bisect-page.netlog.json" --dump-dom "file://$folder/report.html" \
    >"$work/bisect-page.dom.html" 2>"$work/bisect-page.stderr" || fail "chromium could not open the bisect page"
  grep -q "data-culprit=\"${commits[7]}\"" "$work/bisect-page.dom.html" \
    || fail "Chromium's DOM of the bisect page has no culprit header for commit 7"
  /usr/bin/python3 "$(dirname "$0")/report_page_check.py" "$work/bisect-page.dom.html" \
    "$work/bisect-page.netlog.json" "$work/bisect-page.stderr" --network-only \
    || fail "the bisect page loads something"
  echo "ok   bisect.json names commit 7, counts the $builds builds; Chromium shows its page with the culprit on top"
else
  echo "ok   bisect.json names commit 7, counts the $builds builds (chromium not installed: page not opened)"
fi

# Again: every commit it needs is cached, nothing is built.
bisect "${commits[0]}" main --no-rebuild >"$work/bisect2.log" 2>&1 || { cat "$work/bisect2.log"; fail "second bisect failed"; }
grep -q "^0 builds for 12 commits" "$work/bisect2.log" || { cat "$work/bisect2.log"; fail "the second bisect built again"; }
grep -q "^first bad commit: ${commits[7]}" "$work/bisect2.log" || fail "the second bisect named another commit"
echo "ok   bisect again: 0 builds (cached), same answer"

# 3. What it refuses: a range without a regression (exit 10), a dirty tree (exit 4).
status=0
bisect "${commits[0]}" "${commits[5]}" --no-rebuild >"$work/none.log" 2>&1 || status=$?
[ "$status" -eq 10 ] || { cat "$work/none.log"; fail "a range without a regression gave exit $status, not 10"; }
grep -q "is no regression against GOOD" "$work/none.log" || { cat "$work/none.log"; fail "no reason given"; }
echo "// local edit" >>"$repo/step_test.cc"
status=0
bisect "${commits[0]}" main --no-rebuild >"$work/dirty.log" 2>&1 || status=$?
[ "$status" -eq 4 ] && grep -q "uncommitted changes" "$work/dirty.log" \
  || { cat "$work/dirty.log"; fail "a dirty work tree gave exit $status"; }
grep -q "local edit" "$repo/step_test.cc" || fail "bisect touched the uncommitted change"
echo "ok   bisect refuses a range without a regression (10) and a dirty work tree (4)"
