#!/usr/bin/env bash
# The fast tier of the example suites, against the committed baselines, writes JUnit XML that the
# Jenkins xunit plugin's junit-10 rules accept (tests/junit_schema/junit-10.xsd).
set -euo pipefail
suites=${1:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
source_dir=${2:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$suites" run --tier fast --baselines "$source_dir/baselines" --out "$out" --color never >/dev/null
xmllint --noout --schema "$source_dir/tests/junit_schema/junit-10.xsd" "$out/latest/junit.xml"
tests=$(grep -c '<testcase ' "$out/latest/junit.xml")
[ "$tests" -gt 0 ] || { echo "FAIL: no testcase in the JUnit file"; exit 1; }
echo "ok: $tests testcases, valid against junit-10.xsd"
