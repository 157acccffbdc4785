#!/usr/bin/env bash
# The metrics of a ctest test reach CDash: `ctest -T Test` over the tests mlregress_discover_tests
# registered writes Testing/<tag>/Test.xml, the file ctest submits, and each metric must be a
# NamedMeasurement of its test there (value, baseline and verdict). The same test run without
# --ctest-measurements must have none, or the check would prove nothing.
#   ctest_measurements_reach_cdash.sh SUITES_BINARY BUILD_DIR
set -euo pipefail
binary=${1:?usage: $0 SUITES_BINARY BUILD_DIR}
build=$(cd "${2:?usage: $0 SUITES_BINARY BUILD_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
discovered="$build/suites/$(basename "$binary")_mlregress_tests.cmake"
[ -f "$discovered" ] || fail "no ctest file from mlregress_discover_tests at $discovered"

# measurements DIR: "name=value" for each NamedMeasurement of Fast.CnnOverfitsOneBatch.
measurements() {
  /usr/bin/python3 - "$1"/Testing/*/Test.xml <<'PY'
import sys, xml.etree.ElementTree as ET
for test in ET.parse(sys.argv[1]).getroot().iter("Test"):
    if test.findtext("Name") == "Fast.CnnOverfitsOneBatch":
        for m in test.iter("NamedMeasurement"):
            print(f'{m.get("name")}={m.findtext("Value", "").strip()}')
PY
}

mkdir "$work/discovered" "$work/plain"
echo "include(\"$discovered\")" >"$work/discovered/CTestTestfile.cmake"
(cd "$work/discovered" && ctest -T Test -R '^Fast\.CnnOverfitsOneBatch$' >ctest.log 2>&1) \
  || { cat "$work/discovered/ctest.log"; fail "ctest -T Test failed"; }
found=$(measurements "$work/discovered")
grep -Eq '^final_loss=[0-9.e+-]+$' <<<"$found" || { echo "$found"; fail "no numeric final_loss measurement"; }
grep -Eq '^final_loss baseline=[0-9.e+-]+$' <<<"$found" || { echo "$found"; fail "no final_loss baseline"; }
grep -Eq '^final_loss verdict=(PASS|NOT_COMPARABLE)$' <<<"$found" || { echo "$found"; fail "no final_loss verdict"; }
grep -Eq '^initial_loss=[0-9.e+-]+$' <<<"$found" || { echo "$found"; fail "no initial_loss measurement"; }
echo "ok   Test.xml holds final_loss, its baseline and verdict, and initial_loss"

echo "add_test(Fast.CnnOverfitsOneBatch \"$binary\" run --filter Fast.CnnOverfitsOneBatch --out \"$work/runs\" --color never)" \
  >"$work/plain/CTestTestfile.cmake"
(cd "$work/plain" && ctest -T Test >ctest.log 2>&1) || { cat "$work/plain/ctest.log"; fail "plain ctest failed"; }
if measurements "$work/plain" | grep -q '^final_loss='; then
  fail "a run without --ctest-measurements has measurements: the check proves nothing"
fi
echo "ok   without --ctest-measurements there are none"
